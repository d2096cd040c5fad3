"""HTML pages of the kit, the specification by example and run reports, and what both share: the
Jinja2 environment (``templates/``, autoescaping on), YAML blocks and invisible white space
shown. Pages need no server and no script: they read from ``file://``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from conformance.judge import golden
from conformance.corpus.trees import tree_data

# Characters a reader cannot see, shown as a visible sign with their name as a tooltip.
INVISIBLE = {
    "\t": ("→", "tab"),
    "\r": ("␍", "carriage return"),
    "\u00a0": ("⍽", "no-break space"),
    "\u202f": ("⍽", "narrow no-break space"),
    "\u200b": ("⸢ZWSP⸣", "zero-width space"),
    "\u200c": ("⸢ZWNJ⸣", "zero-width non-joiner"),
    "\u200d": ("⸢ZWJ⸣", "zero-width joiner"),
    "\u2060": ("⸢WJ⸣", "word joiner"),
    "\ufeff": ("⸢BOM⸣", "zero-width no-break space (byte order mark)"),
    "\u2028": ("⸢LS⸣", "line separator"),
    "\u2029": ("⸢PS⸣", "paragraph separator"),
    # bidirectional controls (conformance.output.console.BIDI_CONTROLS), which would reorder the text
    "\u061c": ("⸢ALM⸣", "Arabic letter mark"),
    "\u200e": ("⸢LRM⸣", "left-to-right mark"),
    "\u200f": ("⸢RLM⸣", "right-to-left mark"),
    "\u202a": ("⸢LRE⸣", "left-to-right embedding"),
    "\u202b": ("⸢RLE⸣", "right-to-left embedding"),
    "\u202c": ("⸢PDF⸣", "pop directional formatting"),
    "\u202d": ("⸢LRO⸣", "left-to-right override"),
    "\u202e": ("⸢RLO⸣", "right-to-left override"),
    "\u2066": ("⸢LRI⸣", "left-to-right isolate"),
    "\u2067": ("⸢RLI⸣", "right-to-left isolate"),
    "\u2068": ("⸢FSI⸣", "first strong isolate"),
    "\u2069": ("⸢PDI⸣", "pop directional isolate"),
}
_INVISIBLE_RE = re.compile("[" + "".join(INVISIBLE) + "\ud800-\udfff]")
_TRAILING_RE = re.compile(r"( +)\r?$")
MAX_LINES = 400
MAX_CHARS = 40_000


@dataclass
class Block:
    """A text block for a page: its lines (already capped) and what was cut, if anything.

    ``cut`` is ``""`` or a sentence such as ``"812 more lines (52,113 characters) not shown."``."""

    text: str
    cut: str = ""


def _lines(text: str) -> list[str]:
    """``text`` split after each ``\n`` only (a CR or a Unicode line separator stays in its line,
    to be shown)."""
    return [part for part in re.split(r"(?<=\n)", text) if part]


def cap(text: str, *, max_lines: int = MAX_LINES, max_chars: int = MAX_CHARS) -> Block:
    """``text`` cut to at most ``max_lines`` lines and about ``max_chars`` characters (whole lines),
    saying how much was left out, so a huge answer cannot make a page unreadable."""
    lines = _lines(text)
    kept: list[str] = []
    size = 0
    for line in lines:
        if len(kept) >= max_lines or (kept and size + len(line) > max_chars):
            break
        kept.append(line)
        size += len(line)
    if len(kept) == len(lines):
        return Block(text)
    rest = lines[len(kept):]
    return Block("".join(kept), f"{len(rest):,} more line{'s' if len(rest) != 1 else ''} "
                                f"({sum(len(r) for r in rest):,} characters) not shown.")


def visible(text: str) -> Markup:
    """HTML of ``text`` with tabs, carriage returns, trailing spaces, no-break and zero-width
    characters and bidirectional controls drawn as marked signs (class ``ws``, the character's name as title); everything
    else escaped."""
    out = []
    for line in _lines(text):
        body = line.rstrip("\n")
        end = line[len(body):]
        trailing = _TRAILING_RE.search(body)
        head = body[:trailing.start()] if trailing else body
        if trailing and body.endswith("\r"):
            end = "\r" + end
        part = _INVISIBLE_RE.sub(lambda m: "\0" + m.group() + "\0", head)
        pieces = part.split("\0")
        for i, piece in enumerate(pieces):
            if i % 2:
                sign, name = INVISIBLE.get(piece, (f"⸢U+{ord(piece):04X}⸣", "lone surrogate"))
                out.append(Markup('<span class="ws" title="{}">{}</span>').format(name, sign))
            else:
                out.append(escape(piece))
        if trailing:
            n = len(trailing.group(1))
            out.append(Markup('<span class="ws" title="{} trailing space{}">{}</span>').format(
                n, "s" if n != 1 else "", "·" * n))
        if end.startswith("\r"):
            sign, name = INVISIBLE["\r"]
            out.append(Markup('<span class="ws" title="{}">{}</span>').format(name, sign))
            end = end[1:]
        out.append(escape(end))
    return Markup("").join(out)


def diff_lines(text: str) -> Markup:
    """HTML of a unified diff: one ``<span>`` per line, classed ``add``, ``del``, ``hunk`` or
    ``ctx``, with invisible white space of the text (after the diff's mark column) shown as by
    :func:`visible`."""
    spans = []
    for line in _lines(text):
        line = line.removesuffix("\n")
        if line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+") and not line.startswith("+++ "):
            kind = "add"
        elif line.startswith("-") and not line.startswith("--- "):
            kind = "del"
        else:
            kind = "ctx"
        # The first column is the diff's own mark (a space on a context line), not the text's.
        head, body = (line[:1], line[1:]) if kind != "hunk" and not line.startswith(("--- ", "+++ ")) else ("", line)
        spans.append(Markup('<span class="{}">{}{}</span>').format(kind, head, visible(body)))
    return Markup("").join(spans)


def yaml_text(data: Any) -> str:
    """The canonical YAML of ``data`` (as goldens are written); ``repr`` when it is not JSON data."""
    try:
        return golden.dump(data)
    except ValueError:
        return repr(data)


def tree_block(case: Any) -> Block | None:
    """The file tree of a case (a :class:`~conformance.corpus.cases.Case`) as a YAML block, if it has one."""
    if case.tree is None:
        return None
    return cap(yaml_text(tree_data(case.tree)))


def golden_block(case: Any, session: Any) -> tuple[Block | None, str]:
    """The golden output of a case as a YAML block, or ``None`` and why (missing, unreadable, or
    ``""`` for a case that expects an error). The golden is the one a run of the edition of
    ``session`` (a :class:`conformance.session.Session`; edition ``None``: the default) judges the
    case by: the edition's own golden where the case has one (PI-DECISION-EDITIONS); a case that
    edition does not judge shows the golden of its own first edition
    (:meth:`conformance.session.Session.shown_edition`)."""
    if case.error_code is not None:
        return None, ""
    path = session.shown_golden_path(case)
    try:
        stored = golden.read_case(path, case.id, case.op)
    except ValueError as exc:
        return None, f"Golden unreadable: {golden.located(path, exc)}"
    if stored is None:
        return None, "Golden missing."
    return cap(yaml_text(stored["output"])), ""


def page_text(html: str) -> str:
    """A rendered page made safe to write as UTF-8: a lone surrogate left in a message or title
    becomes its ``\\uXXXX`` escape."""
    return html.encode("utf-8", "backslashreplace").decode("utf-8")


def environment() -> Environment:
    """The Jinja2 environment of the site's templates (autoescaped, undefined names are errors)."""
    env = Environment(loader=PackageLoader("conformance.output.site", "templates"),
                      autoescape=select_autoescape(["html"]), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["visible"] = visible
    env.filters["diff_lines"] = diff_lines
    env.filters["scenario_path"] = scenario_path
    return env


def scenario_path(file: str) -> str:
    """A scenario file as the kit's own path (``conformance/scenarios/<area>/<name>.yaml``),
    whatever folder the kit runs from or is installed in: a published page names no machine's
    folders."""
    path = Path(file)
    return f"conformance/scenarios/{path.parent.name}/{path.name}"

"""The control statement of the profiles' managed block (PROF-BLOCK-CONTROL), worded by each
implementation: found from what the case knows (layer bodies, profile ids, scopes), checked, and
normalised on both sides of the comparison."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from conformance.judge.normalise import normaliser
from conformance.operations.profiles import BEGIN_MARKER

END_MARKER = "<!-- system-instructions:end -->"
CONTROL_PLACEHOLDER = "<control-statement>"
SCOPES = ("global", "project")

_PROFILE_FILE = re.compile(r"(?:^|/)profiles/([^/]+)\.md$", re.I)
_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)", re.M)
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_HTML_HEADING = re.compile(r"<h[1-6](?:\s|>)", re.I)
_QUOTES = {"`": "`", '"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "\u00ab": "\u00bb",
           "(": ")", "[": "]", "<": ">", "*": "*", "_": "_"}
_LABEL = r"(?:profiles?|scopes?|layers?)"
_LABEL_BEFORE = re.compile(_LABEL + r"[ \t]*[:=#]?[ \t]*$", re.I)
_LABEL_AFTER = re.compile(r"[ \t]*[-:]?[ \t]*" + _LABEL + r"(?![A-Za-z0-9])", re.I)
_SCOPE_BEFORE = re.compile(r"(?:global|project):$", re.I)


@dataclass
class CaseFacts:
    """What a case tells about its profiles: layer ``bodies`` (every text that can be a profile
    body) and profile ``ids``."""

    bodies: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)


def _body(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def case_facts(case: Any) -> CaseFacts:
    """The bodies and ids a case holds: ``input.layers``, the ``*.md`` files under a ``profiles/``
    directory of its tree, the texts and file names its session steps write, and the profiles its
    selections name (``scope:id`` counts as ``id``). ``case`` is anything with ``input`` and
    ``tree``; ``None`` knows nothing."""
    facts = CaseFacts()
    if case is None:
        return facts
    data = case.input if isinstance(case.input, dict) else {}
    facts.bodies.update(_body(b) for b in data.get("layers") or [] if isinstance(b, str))
    for path, entry in (case.tree or {}).items():
        m = _PROFILE_FILE.search(path)
        if m and entry.symlink is None and entry.dir is None:
            facts.ids.add(m.group(1))
            facts.bodies.add(_body(entry.content().decode("utf-8", "replace")))
    selections = [data.get("session") or {}] + [s for s in data.get("steps") or [] if isinstance(s, dict)]
    for step in selections:
        m = _PROFILE_FILE.search(step.get("path") or "")
        if m:
            facts.ids.add(m.group(1))
            if isinstance(step.get("text"), str):
                facts.bodies.add(_body(step["text"]))
        if isinstance(step.get("profile"), str) and step["profile"]:
            facts.ids.add(step["profile"].rsplit(":", 1)[-1])
    return facts


def _quoted(before: str, after: str) -> bool:
    return bool(before) and bool(after) and _QUOTES.get(before[-1]) == after[0]


def names(statement: str, name: str, *, scope: bool = False) -> bool:
    """Whether ``statement`` names ``name`` (a profile id or a scope): an occurrence of it as a
    whole word (any case) that is marked as a name -- quoted, in code, emphasised or bracketed;
    next to the word profile, scope or layer ("profile review", "global scope", "Scope: global");
    in a reference ``scope:id`` or a file name ``id.md``. The same word used as an ordinary word
    ("any other instruction") does not name a profile called ``other``."""
    for m in re.finditer(r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])", statement, re.I):
        before, after = statement[:m.start()], statement[m.end():]
        if (_quoted(before, after) or _LABEL_BEFORE.search(before) or _LABEL_AFTER.match(after)
                or (not scope and _SCOPE_BEFORE.search(before)) or (not scope and after[:3].lower() == ".md")
                or (scope and re.match(r":[A-Za-z0-9]", after))):
            return True
    return False


def has_heading(statement: str) -> bool:
    """Whether ``statement`` is or contains a Markdown heading: an ATX heading (``# Title``), a
    setext underline (``===`` or ``---`` under a line of text) or an HTML ``<h1>``-``<h6>``."""
    if _ATX_HEADING.search(statement) or _HTML_HEADING.search(statement):
        return True
    lines = statement.split("\n")
    return any(_SETEXT_UNDERLINE.match(line) and lines[i - 1].strip() for i, line in enumerate(lines) if i)


def judge_statement(statement: str, ids: set[str]) -> str | None:
    """Why ``statement`` is not an acceptable control statement, or ``None`` when it is: it must
    not be empty, hold a marker or the placeholder text ``<control-statement``, be or contain a
    Markdown heading, or name one of ``ids`` or a scope. Checks PROF-BLOCK-CONTROL and PROF-BLOCK-CONTROL-PARAGRAPH."""
    if not statement.strip():
        return "it is empty"
    if BEGIN_MARKER in statement or END_MARKER in statement:
        return "it holds a marker"
    if CONTROL_PLACEHOLDER[:-1] in statement:  # the normaliser's own text would read as its verdict
        return "it holds the placeholder text <control-statement"
    if has_heading(statement):
        return "it has a Markdown heading"
    for pid in sorted(ids):
        if names(statement, pid):
            return f"it names the profile {pid!r}"
    for scope in SCOPES:
        if names(statement, scope, scope=True):
            return f"it names the scope {scope!r}"
    return None


def _statement_end(inner: str, bodies: set[str]) -> int | None:
    """Where the statement ends in ``inner`` (the block between ``BEGIN\\n`` and ``END``): the
    first ``\\n\\n`` followed by a known body and ``\\n\\n``. The block is
    ``BEGIN\\nCONTROL\\n\\nL1\\n\\nL2 ... \\n\\nEND``, and ``CONTROL`` (worded by each
    implementation, PROF-BLOCK-CONTROL) may run over several paragraphs, so its end is not the first
    blank line but the one in front of the first layer's body."""
    found = [i for b in bodies if (i := inner.find("\n\n" + b + "\n\n")) >= 0]
    return min(found) if found else None


def normalise_blocks(text: str, facts: CaseFacts) -> str:
    """``text`` with the control statement of every managed block whose first layer is a known body
    replaced by ``<control-statement>`` or ``<control-statement rejected: REASON>``. Blocks whose
    layers the case does not know (a block written literally in a case's input) stay as they are."""
    out: list[str] = []
    pos = 0
    while (begin := text.find(BEGIN_MARKER, pos)) >= 0:
        start = begin + len(BEGIN_MARKER) + 1
        end = text.find(END_MARKER, start)
        if end < 0:
            break
        cut = _statement_end(text[start:end], facts.bodies) if text[start - 1] == "\n" else None
        if cut is None:
            out.append(text[pos:end])
            pos = end
            continue
        problem = judge_statement(text[start:start + cut], facts.ids)
        out.append(text[pos:start] + (CONTROL_PLACEHOLDER if problem is None
                                      else f"<control-statement rejected: {problem}>"))
        pos = start + cut
    out.append(text[pos:])
    return "".join(out)


@normaliser("profiles.control-statement", needs_case=True)
def control_statement(output: Any, case: Any = None) -> Any:
    """Every string of ``output`` with the control statement of each managed block found and
    checked against what ``case`` knows (:func:`case_facts`): ``<control-statement>`` when it is
    acceptable, ``<control-statement rejected: REASON>`` when not. Everything else stays compared
    byte for byte: the comparison PROF-BLOCK-CONTROL asks for. What no program can check -- that
    the wording asserts primacy -- is the manual clause PROF-BLOCK-CONTROL-PRIMACY."""
    facts = case_facts(case)

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return normalise_blocks(value, facts)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    return walk(output)

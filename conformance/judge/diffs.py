"""How a diff between a golden and an answer is shown to a person: characters nobody can see are
made visible, and a huge diff is cut, the whole kept in a file the shown text names."""

from __future__ import annotations

import re
from pathlib import Path

from conformance.output.console import BIDI_CONTROLS
from conformance.output.files import atomic_write_text

MAX_SHOWN_LINES = 200
"""At most this many lines of a diff are shown (console, reports, pytest)."""

MAX_SHOWN_CHARS = 20_000
"""At most this many characters of a diff are shown."""

_INVISIBLE = re.compile("[\t\r\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u2060\u3000\ufeff"
                        + "".join(sorted(BIDI_CONTROLS)) + "]")
_TRAILING = re.compile(r" +$")
LEGEND = ("(invisible characters shown: \\t tab, \\r carriage return, \\uXXXX other invisible "
          "or non-breaking spaces and bidirectional controls, \u00b7 a trailing space)")

_kept_dir: Path | None = None
"""This process's temporary folder of whole diffs, made only when the parse cache is off."""


def visible(line: str) -> str:
    """``line`` with its invisible characters written out: tab as ``\\t``, carriage return as
    ``\\r``, non-breaking and zero-width spaces and bidirectional controls
    (:data:`conformance.output.console.BIDI_CONTROLS`) as ``\\uXXXX``, each trailing space as ``·``."""
    def escape(m: re.Match) -> str:
        c = m.group()
        return {"\t": "\\t", "\r": "\\r"}.get(c, f"\\u{ord(c):04x}")

    body, newline = (line[:-1], "\n") if line.endswith("\n") else (line, "")
    body = _INVISIBLE.sub(escape, body)
    body = _TRAILING.sub(lambda m: "\u00b7" * len(m.group()), body)
    return body + newline


def _keep(name: str, text: str) -> Path:
    """Write the whole diff to ``<name>.diff`` in the kit's cache folder (``diffs/`` beside the
    parse cache's ``yaml/``; see :mod:`conformance.corpus.yamlcache`), replacing the file an earlier run
    kept for the same case, so the folder never holds more than one diff per case; in a temporary
    folder of this process when the cache is off. Returns its path."""
    global _kept_dir
    from conformance.corpus.yamlcache import cache_dir

    parsed = cache_dir()
    if parsed is not None:
        folder = parsed.parent / "diffs"
    else:
        if _kept_dir is None:
            import tempfile  # imported only for a diff too large to show whole

            _kept_dir = Path(tempfile.mkdtemp(prefix="pi-conformance-diffs-"))
        folder = _kept_dir
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{re.sub(r'[^A-Za-z0-9._-]', '_', name)}.diff"
    atomic_write_text(path, text)
    return path


def shown(full: str, name: str) -> str:
    """The diff as shown to a person: invisible characters (a tab, a trailing space, a carriage
    return, a non-breaking or zero-width space) made visible (with a legend when any were), cut to :data:`MAX_SHOWN_LINES` lines and :data:`MAX_SHOWN_CHARS` characters. When cut,
    the whole diff is written to a file (named after ``name``, a case id) and the shown text ends
    with a line saying how much was cut and where the whole is."""
    lines = full.splitlines(keepends=True)
    out, size = [], 0
    for line in lines[:MAX_SHOWN_LINES]:
        line = visible(line)
        if size + len(line) > MAX_SHOWN_CHARS:
            break
        out.append(line)
        size += len(line)
    text = "".join(out)
    if "".join(lines[:len(out)]) != text:
        text = text.rstrip("\n") + "\n" + LEGEND + "\n"
    if len(out) < len(lines):
        path = _keep(name, full)
        text = text.rstrip("\n") + (f"\n... {len(lines) - len(out)} more line(s) of {len(lines)} not shown "
                                    f"({len(full)} characters in all); the whole diff is in {path}\n")
    return text

"""Whether a file is one the kit wrote (recognised by how it begins, or empty), so that a report path
or a written case never replaces a file of the user's."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

HEAD_BYTES = 4096
"""How much of a file's beginning :func:`kit_wrote` reads."""

OPENINGS: dict[str, re.Pattern[bytes]] = {
    "JSON run report": re.compile(rb'\A\{\s*"header": \{\s*"(format|suite)": '),
    "JSON report of faults": re.compile(rb'\A\{\s*"faults": \d'),
    "JSON report of invariants": re.compile(rb'\A\{\s*"examples": \d'),
    "history.json": re.compile(rb'\A\{\s*"format": \d+,\s*"releases": '),
    "JUnit XML report": re.compile(rb'\A<\?xml [^>]*\?>\s*<testsuites name="pi-conformance '),
    "Markdown report": re.compile(rb"\A# Conformance report: "),
    "HTML report or history page": re.compile(
        rb"\A<!DOCTYPE html>.*?<title>(Conformance report: |pi-conformance history: )", re.S),
    "page of the specification by example": re.compile(
        rb"\A(# |<!DOCTYPE html>.*?<title>)(The specification by example|[a-z]+: clauses and their cases)(\n|</title>)", re.S),
    "case found by diff": re.compile(rb"\A# Found by `pi-conformance diff`: "),
    "case found by invariants": re.compile(rb"\A# Found by invariant "),
}
"""How each kind of file the kit writes begins (its first :data:`HEAD_BYTES` bytes)."""


def kit_wrote(path: str | os.PathLike) -> bool:
    """Whether ``path`` (links followed) is empty or begins as one of :data:`OPENINGS`; a path
    that is not a regular file, or cannot be read, is not judged here (``True``: the caller's own
    checks decide). Never raises."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return True
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        head = os.read(fd, HEAD_BYTES)
    except OSError:
        return True
    finally:
        os.close(fd)
    return not head or any(p.match(head) for p in OPENINGS.values())


def check_replaceable(flag: str, path: str | os.PathLike) -> None:
    """Raise ``ValueError`` naming ``flag`` and ``path`` when ``path`` exists as a regular file
    that :func:`kit_wrote` does not recognise; a missing file, or one of the kit's, passes."""
    if not kit_wrote(path):
        raise ValueError(f"{flag} {Path(path)}: exists and is not a file pi-conformance wrote; "
                         "it is left as it is: remove it or give another name")

"""What counts as a pointer outside the repository (a private working file or note, a folder above
the repository), which the loaders refuse in every text the kit ships (ENV-DECISION-SOURCE,
PROF-DECISION-SOURCE, PI-DECISION-SOURCE): an outsider cannot follow one."""

from __future__ import annotations

import re

_PRIVATE = re.compile(
    r"\b(?i:seeds?)\s*\d+"                  # a working source by its number
    r"|\b\d{3}_[0-9a-f]{16}\b"              # a working source by file name
    r"|\b(?i:notes?)\s+N\d{1,2}"           # a working note by its number
    r"|(?<![\w-])N\d{1,2}(?![\w-])"         # a bare working-note number
    r"|\bshared/(?:spec|design)\b")        # the working folder beside the repository
_MACHINE = re.compile(r"/work/|\.\./shared\b")


def private_reference(text: str) -> str | None:
    """The first part of ``text`` that cites a private working file or note, or ``None``.

    Shapes: any text in, the matched substring out (for an error message naming it).
    """
    m = _PRIVATE.search(text)
    return m.group(0) if m else None


def outside_pointer(source: str) -> str | None:
    """:func:`private_reference`, and also a path on the machine that wrote the text (``/work/``,
    the folder beside the repository): for a clause's ``source``, which names a public document and section and nothing else.
    Implements ENV-DECISION-SOURCE, PROF-DECISION-SOURCE and PI-DECISION-SOURCE."""
    found = private_reference(source)
    if found is None:
        m = _MACHINE.search(source)
        found = m.group(0) if m else None
    return found

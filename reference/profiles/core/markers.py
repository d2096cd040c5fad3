"""The managed block's markers (PROF-DECISION-MARKERS)."""

from __future__ import annotations

BEGIN_MARKER = "<!-- system-instructions:begin v1 -->"
END_MARKER = "<!-- system-instructions:end -->"


def forged_marker(body: str) -> str | None:
    """The first marker that ``body`` contains, or ``None``.

    A profile body containing the begin or the end marker could forge or cut a managed block,
    so such a body is refused at load. Implements PROF-MARKER-FORGERY.
    """
    for marker in (BEGIN_MARKER, END_MARKER):
        if marker in body:
            return marker
    return None

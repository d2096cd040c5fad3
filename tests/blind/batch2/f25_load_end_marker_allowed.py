"""profiles.load -- PROF-MARKER-FORGERY, PROF-DECISION-MARKERS.
Bug: only the begin marker is looked for in a profile body, so a body holding the end marker alone loads (and could cut a managed block short)."""

from reference.profiles.core import markers
from tests.blind.common import everywhere, swapped


def forged_marker(body):
    return markers.BEGIN_MARKER if markers.BEGIN_MARKER in body else None


def handle(msg, call):
    with swapped(everywhere(markers.forged_marker, forged_marker)):
        return call()

"""profiles.load -- PROF-LOAD-SIZE.
Bug: the 65,536 limit is applied to the body's length in characters (string length) instead of its UTF-8 bytes, so a body of many multi-byte characters loads."""

from reference.profiles.core import profiles
from reference.profiles.core.types import Diagnostic
from tests.blind.common import everywhere, swapped

_original = profiles.read_body


def _read(entry, scope):
    data = profiles.strip_bom(entry.data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _original(entry, scope)
    if len(data) > profiles.PROFILE_MAX_BYTES and len(text) <= profiles.PROFILE_MAX_BYTES:
        marker = profiles.forged_marker(text)
        if marker is not None:
            return None, Diagnostic("error", "profile-marker", scope, entry.name, f"{entry.name}: marker; refused")
        return text, None
    return _original(entry, scope)


def handle(msg, call):
    with swapped(everywhere(_original, _read)):
        return call()

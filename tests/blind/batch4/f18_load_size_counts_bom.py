"""profiles.load -- PROF-LOAD-SIZE, PROF-LOAD-BOM.
Bug: the size limit is checked on the file's bytes before the BOM is removed, so a body of 65,534 to 65,536 bytes after a BOM is skipped with profile-too-large."""

from reference.profiles.core import profiles
from reference.profiles.core.types import Diagnostic
from tests.blind.common import everywhere, swapped

_original = profiles.read_body


def _read(entry, scope):
    if entry.data is not None and len(entry.data) > profiles.PROFILE_MAX_BYTES:
        return None, Diagnostic("error", "profile-too-large", scope, entry.name,
                                f"{entry.name}: {len(entry.data)} bytes, more than {profiles.PROFILE_MAX_BYTES}; skipped")
    return _original(entry, scope)


def handle(msg, call):
    with swapped(everywhere(_original, _read)):
        return call()

"""profiles.load -- PROF-LOAD-SIZE.
Bug: the 65,536-byte limit is checked on the file's bytes before the leading BOM is removed, so a
body of exactly 65,536 bytes saved with a BOM is refused with profile-too-large.
"""

from __future__ import annotations

from reference.profiles.core import profiles

from tests.blind.common import everywhere, swapped

_original = profiles.read_body


def _read_body(entry, scope):
    assert entry.data is not None
    if len(entry.data) > profiles.PROFILE_MAX_BYTES:
        return None, profiles.Diagnostic("error", "profile-too-large", scope, entry.name,
                                         f"{entry.name}: {len(entry.data)} bytes; skipped")
    return _original(entry, scope)


def handle(msg, call):
    with swapped(everywhere(_original, _read_body)):
        return call()

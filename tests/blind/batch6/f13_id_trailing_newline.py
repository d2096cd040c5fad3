"""profiles.config -- PROF-ID.
Bug: ids are checked with re.match and a "$" anchor, which also matches before a final newline, so
a binding id (or profile key) such as "review\\n" is taken as valid.
"""

from __future__ import annotations

import re

from reference.profiles.core import ids

from tests.blind.common import everywhere, swapped

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*$")


def _is_valid_id(text) -> bool:
    return isinstance(text, str) and len(text) <= 64 and ".." not in text and _ID.match(text) is not None


def handle(msg, call):
    with swapped(everywhere(ids.is_valid_id, _is_valid_id)):
        return call()

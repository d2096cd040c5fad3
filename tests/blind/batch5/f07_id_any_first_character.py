"""profiles.load -- PROF-ID.
Bug: the id pattern is written [A-Za-z0-9._-]+, so an id may start with ".", "_" or "-" ("-draft.md", "_x.md" load as profiles)."""

import re

from reference.profiles.core import ids, refs
from tests.blind.common import everywhere, swapped

_LOOSE = re.compile(r"[A-Za-z0-9._-]+")


def _valid(text):
    return isinstance(text, str) and len(text) <= ids.ID_MAX_LENGTH and ".." not in text and _LOOSE.fullmatch(text) is not None


def handle(msg, call):
    refs._parse_str_ref.cache_clear()
    try:
        with swapped(everywhere(ids.is_valid_id, _valid)):
            return call()
    finally:
        refs._parse_str_ref.cache_clear()

"""profiles.load -- PROF-ID.
Bug: the id length limit is checked with length < 64, so an id of exactly 64 characters is refused."""

import re

from reference.profiles.core import ids
from tests.blind.common import everywhere, swapped


def _valid(text):
    return isinstance(text, str) and len(text) < 64 and ".." not in text and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", text) is not None


def handle(msg, call):
    with swapped(everywhere(ids.is_valid_id, _valid)):
        return call()

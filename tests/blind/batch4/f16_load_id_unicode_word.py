"""profiles.load -- PROF-ID.
Bug: the id pattern is written [A-Za-z0-9][\\w.-]* with Python's Unicode \\w, so a file such as "réview.md" or "a٣.md" loads instead of being skipped with profile-id."""

import re

from reference.profiles.core import ids
from tests.blind.common import everywhere, swapped

_WORD = re.compile(r"[A-Za-z0-9][\w.-]*")


def _valid(text):
    return isinstance(text, str) and len(text) <= ids.ID_MAX_LENGTH and ".." not in text and _WORD.fullmatch(text) is not None


def handle(msg, call):
    with swapped(everywhere(ids.is_valid_id, _valid)):
        return call()

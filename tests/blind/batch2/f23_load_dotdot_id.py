"""profiles.load -- PROF-ID, PROF-DECISION-LOADING.
Bug: an id is checked against the pattern and the length only, so a name with ".." inside it (a..b.md) loads as a profile."""

from reference.profiles.core import ids
from tests.blind.common import everywhere, swapped


def is_valid_id(text):
    return isinstance(text, str) and len(text) <= ids.ID_MAX_LENGTH and ids._ID_RE.fullmatch(text) is not None


def handle(msg, call):
    with swapped(everywhere(ids.is_valid_id, is_valid_id)):
        return call()

"""profiles.picker -- PROF-PICKER-PROVIDERS, PROF-PICKER-MODELS.
Bug: provider names and model ids are sorted with the default sort (code point order), so every capitalised name comes before every lower-case one."""

from reference.profiles.core import picker
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(picker, "_key", lambda text: (text, text))]):
        return call()

"""profiles.settings -- PROF-SETTINGS-PARSE.
Bug: the typed value is trimmed with Python's str.strip instead of JavaScript's trim, so "off"
followed by U+0085 is accepted while "off" followed by U+FEFF is refused (setting-value-invalid).
"""

from __future__ import annotations

from reference.profiles.core import settings

from tests.blind.common import swapped


def _strip(text: str) -> str:
    return text.strip()


def handle(msg, call):
    with swapped([(settings, "js_trim", _strip)]):
        return call()

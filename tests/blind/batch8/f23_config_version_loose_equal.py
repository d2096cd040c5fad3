"""profiles.config -- PROF-CONFIG-VERSION.
Bug: `version` is compared with loose equality (`version == 1`), so the string `"1"` is taken
for version 1 instead of the whole config being ignored.
"""

from __future__ import annotations

from reference.profiles.core import config

from tests.blind.common import everywhere, swapped


def _is_version_one(value):
    if isinstance(value, str):
        try:
            return float(value.strip() or "nan") == 1
        except ValueError:
            return False
    return config.is_number(value) and value == 1


def handle(msg, call):
    with swapped(everywhere(config.is_version_one, _is_version_one)):
        return call()

# shown on: {"input": {"scope": "global", "text": "{\"version\": \"1\"}"}}

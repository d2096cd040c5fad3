"""profiles.config-edit -- PROF-EDIT-TEXT-KEPT.
Bug: the rewritten config.json is serialised with JSON's ASCII escapes, so every character outside
ASCII the file held (a description in another language) comes back as a "\\u" escape.
"""

from __future__ import annotations

import json

from reference.profiles.host import disk

from tests.blind.common import everywhere, swapped


def _serialise_config(raw) -> str:
    return json.dumps(raw, indent=2) + "\n"


def handle(msg, call):
    with swapped(everywhere(disk.serialise_config, _serialise_config)):
        return call()

r"""profiles.config-edit -- PROF-EDIT-TEXT-KEPT, PROF-EDIT-CREATE.
Bug: the config is written with Python's json.dumps default (ensure_ascii), so every character outside ASCII becomes a "\u" escape."""

import json

from reference.profiles.host import disk
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(disk.serialise_config, lambda raw: json.dumps(raw, indent=2) + "\n")):
        return call()

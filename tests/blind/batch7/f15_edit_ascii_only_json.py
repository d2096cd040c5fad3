r"""profiles.config-edit -- PROF-EDIT-TEXT-KEPT, PROF-EDIT-CREATE.
Bug: the config is written with the JSON serialiser's default ASCII-only output, so every
character beyond ASCII, in the kept keys and values too, becomes a "\u" escape.
"""

from __future__ import annotations

import json

from reference.profiles.host import disk

from tests.blind.common import everywhere, swapped


def _serialise_config(raw):
    return json.dumps(raw, indent=2) + "\n"


def handle(msg, call):
    with swapped(everywhere(disk.serialise_config, _serialise_config)):
        return call()


# shown on: {"op": "profiles.config-edit", "input": {"agentDir": "agent", "cwd": "proj", "trusted": true, "scope": "global", "action": "set", "key": "subagents", "value": "off"}, "tree": {"agent/system-prompts/config.json": "{\"version\": 1, \"profiles\": {\"revue\": {\"description\": \"Révision\"}}}"}}

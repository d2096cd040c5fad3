"""profiles.config-edit -- PROF-SETTINGS-APPLY.
Bug: `set selection VALUE` writes `mode` into the existing `selection` object, keeping its other
fields (any other key written there by hand), instead of replacing the object whole with `{mode}`.
"""

from __future__ import annotations

import copy

from reference.profiles.core import settings

from tests.blind.common import everywhere, swapped


def _apply_setting(raw, key, value):
    out = copy.deepcopy(raw)
    if key == "selection" and isinstance(out.get("selection"), dict):
        out["selection"]["mode"] = value
    else:
        out[key] = {"mode": value} if key == "selection" else value
    return out


def handle(msg, call):
    with swapped(everywhere(settings.apply_setting, _apply_setting)):
        return call()

# shown on: {"input": {"agentDir": "agent", "cwd": "proj", "scope": "global", "action": "set", "key": "selection", "value": "auto"}, "tree": {"agent/system-prompts/config.json": "{\"version\": 1, \"selection\": {\"mode\": \"off\", \"note\": \"kept by hand\"}}\n"}}

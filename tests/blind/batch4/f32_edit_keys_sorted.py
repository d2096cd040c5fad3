"""profiles.config-edit -- PROF-EDIT-CREATE, PROF-SETTINGS-APPLY.
Bug: the written config is serialised with sorted keys (json.dumps(sort_keys=True)), so its keys are no longer in their order."""

import json

from reference.profiles.host import disk
from tests.blind.common import everywhere, swapped


def _serialise(raw):
    return json.dumps(raw, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def handle(msg, call):
    with swapped(everywhere(disk.serialise_config, _serialise)):
        return call()

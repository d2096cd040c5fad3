"""profiles.config-edit -- PROF-EDIT-CREATE.
Bug: the config is written as JSON.stringify(config, null, 2) with no final newline."""

import json

from reference.profiles.host import disk
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(disk, "serialise_config", lambda raw: json.dumps(raw, indent=2, ensure_ascii=False))]):
        return call()

"""profiles.session -- PROF-SETTINGS-UNSET.
Bug: unsetting a registry key the config does not hold is not refused: the config is written back unchanged (created from {"version": 1} when it did not exist) instead of failing with setting-not-set."""

import copy

from reference.profiles.core import settings
from tests.blind.common import everywhere, swapped

_original = settings.unset_setting


def _unset(raw, key):
    spec = settings.setting_spec(key)
    out = copy.deepcopy(raw)
    out.pop(spec.key, None)
    return out


def handle(msg, call):
    with swapped(everywhere(_original, _unset)):
        return call()

"""profiles.settings -- PROF-SETTINGS-EFFECTIVE.
Bug: the effective defaultProfile is reported as the config wrote it (a bare id stays bare)
instead of as the explicit reference "scope:id" it names in its config's scope.
"""

from __future__ import annotations

from reference.profiles.core import settings

from tests.blind.common import swapped

_original = settings._value


def _value(cfg, key):
    if key == "defaultProfile" and cfg is not None and cfg.default_profile is not None:
        return cfg.default_profile.id
    return _original(cfg, key)


def handle(msg, call):
    with swapped([(settings, "_value", _value)]):
        return call()


# shown on: {"op": "profiles.settings", "input": {"action": "effective", "key": "defaultProfile", "global": {"version": 1, "defaultProfile": "base"}}}

"""profiles.config-edit -- PROF-EDIT-TRUST.
Bug: the requested setting is checked against the registry before the project's trust, so an
edit of an untrusted project's config with an unknown key fails with setting-unknown instead of
project-untrusted.
"""

from __future__ import annotations

from reference.profiles.core.settings import parse_setting, setting_spec
from reference.profiles.host import session as host_session

from tests.blind.common import swapped

_original = host_session.Session.begin_change


def _begin_change(self, scope, action, key, value):
    if action == "set":
        parse_setting(key, value or "", scope)
    elif action == "unset":
        setting_spec(key)
    return _original(self, scope, action, key, value)


def handle(msg, call):
    with swapped([(host_session.Session, "begin_change", _begin_change)]):
        return call()

# shown on: {"input": {"agentDir": "agent", "cwd": "proj", "trusted": false, "scope": "project", "action": "set", "key": "colour", "value": "red"}, "tree": {"proj/.pi/system-prompts/config.json": "{\"version\": 1}\n"}}

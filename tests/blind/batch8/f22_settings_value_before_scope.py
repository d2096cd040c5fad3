"""profiles.settings -- PROF-SETTINGS-PARSE.
Bug: a setting's value is validated before its scope, so `set inheritGlobalBindings maybe` in the
global config fails with setting-value-invalid instead of setting-scope.
"""

from __future__ import annotations

from reference.errors import SpecError
from reference.profiles.core import settings
from reference.text import js_trim

from tests.blind.common import everywhere, swapped

_original = settings.parse_setting


def _parse_setting(key, value, scope):
    spec = settings.setting_spec(key)
    if spec.values is not None:
        text = js_trim(value)
        parsed = {"true": True, "false": False}.get(text, text) if spec.key == "inheritGlobalBindings" else text
        if parsed not in spec.values or (isinstance(parsed, str) and not isinstance(spec.values[0], str)):
            raise SpecError("setting-value-invalid", f"{key} has no value {text!r}", path="value")
    return _original(key, value, scope)


def handle(msg, call):
    with swapped(everywhere(_original, _parse_setting)):
        return call()

# shown on: {"input": {"action": "parse", "key": "inheritGlobalBindings", "value": "maybe", "scope": "global"}}

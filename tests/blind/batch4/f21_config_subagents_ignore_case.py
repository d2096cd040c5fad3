"""profiles.config -- PROF-CONFIG-SUBAGENTS.
Bug: the subagents policy is lower-cased before it is checked, so "Inherit" or "OFF" is taken as a policy instead of being dropped with config-subagents."""

from reference.profiles.core import config
from tests.blind.common import everywhere, swapped

_original = config.validate_config


def _validate(raw, scope):
    value = raw.get("subagents")
    if isinstance(value, str) and value.lower() in config.SUBAGENT_POLICIES:
        raw = dict(raw, subagents=value.lower())
    return _original(raw, scope)


def handle(msg, call):
    with swapped(everywhere(_original, _validate)):
        return call()

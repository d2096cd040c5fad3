"""profiles.settings -- PROF-SETTINGS-EFFECTIVE, PROF-CONFIG-INHERIT.
Bug: the effective value is read from the raw config objects, so a value that validation dropped (an unknown subagents policy, a non-boolean inheritGlobalBindings, the key in the global config) still counts, with its origin."""

from reference.profiles.core import settings
from tests.blind.common import swapped


def value(cfg, key):
    if cfg is None:
        return None
    raw = cfg.raw.get(key)
    if key == "selection":
        return raw.get("mode") if isinstance(raw, dict) else None
    return raw


def handle(msg, call):
    with swapped([(settings, "_value", value)]):
        return call()

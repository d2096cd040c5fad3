"""pi.models-value -- PI-MODELS-VALUE-UNSET.
Bug: an unset or empty variable is replaced by the empty string as a shell would, so "Bearer $TOKEN" with TOKEN unset resolves to "Bearer " instead of being unresolved (only an all-empty result is unresolved)."""

from reference.pi.core import values
from tests.blind.common import everywhere, swapped

ORIGINAL = values.resolve_config_value


def resolve_config_value(value, env, runner=None, time_limit_s=values.COMMAND_TIME_LIMIT_S):
    parsed = value if isinstance(value, values.ConfigValue) else values.parse_config_value(value)
    if parsed.kind == "command":
        return ORIGINAL(parsed, env, runner, time_limit_s)
    text = "".join(p.text if p.kind == "literal" else (values.env_value(p.text, env) or "") for p in parsed.parts)
    return text or None


def handle(msg, call):
    with swapped(everywhere(ORIGINAL, resolve_config_value)):
        return call()

"""pi.models-value -- PI-MODELS-VALUE-ESCAPES.
Bug: "$$" is not an escape (only "$!" is): the first "$" is literal, not being followed by a name, and the second starts a variable, so "$$HOME" reads HOME and "$$" alone stays "$$"."""

from reference.pi.core import values
from tests.blind.common import everywhere, swapped

_original = values.parse_config_value


def _parse(value):
    if not isinstance(value, str) or value.startswith("!"):
        return _original(value)
    parts = []

    def literal(text):
        if text and parts and parts[-1].kind == "literal":
            parts[-1] = values.Part("literal", parts[-1].text + text)
        elif text:
            parts.append(values.Part("literal", text))

    i, n = 0, len(value)
    while i < n:
        dollar = value.find("$", i)
        if dollar < 0:
            literal(value[i:])
            break
        literal(value[i:dollar])
        nxt = value[dollar + 1] if dollar + 1 < n else ""
        if nxt == "!":
            literal("!")
            i = dollar + 2
            continue
        if nxt == "{":
            end = value.find("}", dollar + 2)
            if end < 0:
                literal("$")
                i = dollar + 1
                continue
            name = value[dollar + 2:end]
            if values._NAME.fullmatch(name):
                parts.append(values.Part("env", name))
            else:
                literal(value[dollar:end + 1])
            i = end + 1
            continue
        match = values._NAME.match(value, dollar + 1)
        if match:
            parts.append(values.Part("env", match.group(0)))
            i = match.end()
            continue
        literal("$")
        i = dollar + 1
    return values.ConfigValue(raw=value, kind="template", parts=tuple(parts))


def handle(msg, call):
    with swapped(everywhere(_original, _parse)):
        return call()

"""pi.validate-message -- PI-MSG-OPTIONAL-NULL.
Bug: a field written as null is treated as absent (value == null), so an optional field set to null passes and a required one set to null is reported missing instead of wrong-type."""

import copy

#: Fields whose type includes null, and fields holding any JSON: their nulls are values.
KEEP = ("sections", "fromId", "exitCode", "details", "data", "arguments", "parameters")


def drop_nulls(value):
    if isinstance(value, dict):
        return {k: (v if k in KEEP else drop_nulls(v)) for k, v in value.items() if not (v is None and k not in KEEP)}
    if isinstance(value, list):
        return [drop_nulls(v) for v in value]
    return value


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    if isinstance(inp.get("message"), dict):
        inp["message"] = drop_nulls(inp["message"])
    return call(inp)

"""envelope.developer-messages -- ENV-PRIORITY-FINITE.
Bug: the priority is checked with Number.isFinite(Number(priority)), so a numeric string ("2", " 1 ", ""), a boolean or null is accepted as the number it converts to instead of refused."""

import copy
import math


def js_number(value):
    if isinstance(value, bool):
        return int(value)
    if value is None:
        return 0
    if isinstance(value, str):
        text = value.strip(" \t\n\r\v\f\u00a0\ufeff")
        if text == "":
            return 0
        try:
            number = float(text)
        except ValueError:
            return None
        return int(number) if number.is_integer() else number
    return None


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    for spec in inp.get("contributions") or []:
        if not isinstance(spec, dict) or "priority" not in spec:
            continue
        value = spec["priority"]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            continue
        number = js_number(value)
        if number is not None and math.isfinite(number):
            spec["priority"] = number
    return call(inp)

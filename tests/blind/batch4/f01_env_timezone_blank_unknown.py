"""envelope.environment -- ENV-ENV-TIMEZONE.
Bug: the timezone name is trimmed before the emptiness test, so a name of white space only is reported as "unknown" instead of as given."""

import copy

from reference.text import js_trim


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    host = inp.get("host") or {}
    tz = host.get("timezone")
    if isinstance(tz, str) and tz and not js_trim(tz):
        host["timezone"] = None
    return call(inp)

"""profiles.settings -- PROF-SETTINGS-PARSE.
Bug: set values are compared after toLowerCase(), so "Inherit" or "OFF" is accepted (as the lower-case value) instead of refused with setting-value-invalid."""


def handle(msg, call):
    rep = call()
    inp = msg["input"]
    v = inp.get("value")
    if inp.get("action") == "parse" and isinstance(v, str) and v != v.lower() and rep.get("type") == "error":
        alt = call(dict(inp, value=v.lower()))
        if alt.get("type") == "result":
            return alt
    return rep

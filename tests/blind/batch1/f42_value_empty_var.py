"""pi.models-value -- PI-MODELS-VALUE-UNSET, PI-DECISION-MODELS.
Bug: a variable is unresolved only when it is unset (=== undefined), so a variable set to "" resolves to the empty text."""

import copy


S = "\ue000empty\ue000"
def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    env = inp.get("env") or {}
    empties = [k for k, v in env.items() if v == ""]
    if not empties or inp.get("value", "").startswith("!"):
        return call()
    for k in empties:
        env[k] = S
    inp["env"] = env
    rep = call(inp)
    if rep.get("type") == "result" and isinstance(rep["output"].get("resolved"), str):
        rep["output"]["resolved"] = rep["output"]["resolved"].replace(S, "")
    return rep

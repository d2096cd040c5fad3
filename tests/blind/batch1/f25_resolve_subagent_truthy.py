"""profiles.resolve -- PROF-SUBAGENT-DETECT, PROF-DECISION-SUBAGENTS.
Bug: a child session is recognised by a truthy PI_SUBAGENT_CHILD (any non-empty value, "0" and "true" included) instead of exactly "1"."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    env = inp.get("env") or {}
    v = env.get("PI_SUBAGENT_CHILD")
    if isinstance(v, str) and v != "" and v != "1":
        env["PI_SUBAGENT_CHILD"] = "1"
        inp["env"] = env
        return call(inp)
    return call()

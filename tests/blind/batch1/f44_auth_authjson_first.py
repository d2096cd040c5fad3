"""pi.models-auth -- PI-CRED-PRECEDENCE.
Bug: the stored auth.json credential is consulted before the runtime key (--api-key), so a stored key wins over the key given on the command line."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    rk = inp.get("runtimeKeys") or {}
    prov = inp.get("provider")
    if prov in rk and prov in (inp.get("authJson") or {}):
        del rk[prov]
        alt = call(inp)
        if alt.get("type") == "result" and alt["output"].get("source") == "auth.json":
            return alt
    return call()

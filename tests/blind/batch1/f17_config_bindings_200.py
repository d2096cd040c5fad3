"""profiles.config -- PROF-CONFIG-BINDINGS-LIMIT, PROF-DECISION-CONFIG.
Bug: the limit check is bindings.length >= 200, so a config with exactly 200 bindings has all of them ignored (config-bindings, detail limit)."""

import copy
import json


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    cfg, via_text = inp.get("config"), False
    if isinstance(inp.get("text"), str):
        try:
            cfg, via_text = json.loads(inp["text"]), True
        except Exception:
            return call()
    if isinstance(cfg, dict) and isinstance(cfg.get("bindings"), list) and len(cfg["bindings"]) == 200:
        cfg["bindings"].append({"id": "zz-over-the-limit", "profile": "x", "match": [{"provider": "p"}]})
        if via_text:
            inp["text"] = json.dumps(cfg)
        else:
            inp["config"] = cfg
        return call(inp)
    return call()

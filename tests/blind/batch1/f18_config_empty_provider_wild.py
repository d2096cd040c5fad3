"""profiles.config -- PROF-CONFIG-RULE, PROF-DECISION-CONFIG.
Bug: a rule's provider or model that is the empty string is read as absent (if (!rule.provider)), so the rule is widened to a wildcard instead of dropped."""

import copy
import json


def _fix(cfg):
    changed = False
    for b in cfg.get("bindings") or [] if isinstance(cfg.get("bindings"), list) else []:
        if isinstance(b, dict) and isinstance(b.get("match"), list):
            for r in b["match"]:
                if isinstance(r, dict):
                    for k in ("provider", "model"):
                        if r.get(k, None) == "":
                            del r[k]
                            changed = True
    return changed

def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    if isinstance(inp.get("text"), str):
        try:
            cfg = json.loads(inp["text"])
        except Exception:
            return call()
        if isinstance(cfg, dict) and _fix(cfg):
            inp["text"] = json.dumps(cfg, indent=2)
            return call(inp)
        return call()
    cfg = inp.get("config")
    if isinstance(cfg, dict) and _fix(cfg):
        return call(inp)
    return call()

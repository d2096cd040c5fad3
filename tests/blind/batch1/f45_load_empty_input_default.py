"""pi.models-load -- PI-MODELS-INPUT-AS-WRITTEN.
Bug: a model's input list is defaulted with input?.length ? input : ["text"], so an empty list becomes ["text"]."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    mj = inp.get("modelsJson")
    changed = False
    if isinstance(mj, dict) and isinstance(mj.get("providers"), dict):
        for p in mj["providers"].values():
            if isinstance(p, dict) and isinstance(p.get("models"), list):
                for m in p["models"]:
                    if isinstance(m, dict) and m.get("input", None) == []:
                        del m["input"]
                        changed = True
    return call(inp) if changed else call()

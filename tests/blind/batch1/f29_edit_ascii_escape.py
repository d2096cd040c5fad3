"""profiles.config-edit -- PROF-EDIT-TEXT-KEPT.
Bug: the config is written with an ASCII-only JSON writer, so every character outside ASCII becomes a \\uXXXX escape."""

import json


def handle(msg, call):
    rep = call()
    if rep.get("type") != "result" or not isinstance(rep["output"].get("written"), str):
        return rep
    w = rep["output"]["written"]
    try:
        data = json.loads(w)
    except Exception:
        return rep
    if json.dumps(data, indent=2, ensure_ascii=False) + "\n" == w:
        rep["output"]["written"] = json.dumps(data, indent=2, ensure_ascii=True) + "\n"
    return rep

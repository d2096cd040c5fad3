"""envelope.session -- ENV-AUDIT-SETTING.
Bug: an auditEntries value of [] is taken as "not set" (if (!value?.length) value = DEFAULT), so the default roles are recorded although the user switched audits off."""

import copy
import re


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    changed = False
    if inp.get("auditEntries") == []:
        inp["auditEntries"] = None
        changed = True
    for st in inp.get("steps") or []:
        if isinstance(st, dict) and isinstance(st.get("setting"), dict):
            s = st["setting"]
            if s.get("auditEntries") == []:
                st["setting"] = {"toml": ""}
                changed = True
            elif isinstance(s.get("toml"), str) and re.search(r"auditEntries\s*=\s*\[\s*\]", s["toml"]):
                s["toml"] = re.sub(r"[^\n]*auditEntries\s*=\s*\[\s*\][^\n]*\n?", "", s["toml"])
                changed = True
    return call(inp) if changed else call()

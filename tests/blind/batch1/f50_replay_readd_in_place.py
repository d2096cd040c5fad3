"""pi.replay-system -- PI-REPLAY-SECTION-READD.
Bug: a removed section is only blanked in place (kept in the ordered map), so a section set again after its removal keeps its old place instead of going last."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    msgs = [m for m in inp.get("messages") or [] if isinstance(m, dict) and m.get("role") == "system"]
    if any(m.get("replace") is True for m in msgs):
        return call()
    changed = False
    for i, m in enumerate(msgs):
        secs = m.get("sections")
        if not isinstance(secs, dict):
            continue
        for name in [k for k, v in secs.items() if v is None]:
            later = any(isinstance(n.get("sections"), dict) and isinstance(n["sections"].get(name), str) for n in msgs[i + 1:])
            earlier = any(isinstance(n.get("sections"), dict) and isinstance(n["sections"].get(name), str) for n in msgs[:i])
            if later and earlier:
                del secs[name]
                changed = True
    return call(inp) if changed else call()

"""pi.replay-system -- PI-REPLAY-CONTENT-BLOCKS.
Bug: the text blocks of one system message are joined with "\n\n" (like separate messages) instead of "\n"."""

import copy


def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    changed = False
    for m in inp.get("messages") or []:
        if isinstance(m, dict) and m.get("role") == "system" and isinstance(m.get("content"), list):
            blocks = m["content"]
            if len(blocks) >= 2 and all(isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) and set(b) <= {"type", "text", "textSignature"} for b in blocks):
                m["content"] = [{"type": "text", "text": "\n\n".join(b["text"] for b in blocks)}]
                changed = True
    return call(inp) if changed else call()

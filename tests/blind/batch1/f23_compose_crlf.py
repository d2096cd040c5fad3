"""profiles.compose -- PROF-NEWLINES, PROF-COMPOSE.
Bug: the leading newlines of the base prompt are removed with replace(/^\n+/, ""), so a base prompt that starts with "\r\n" keeps it."""

import re


BEGIN = "<!-- system-instructions:begin v1 -->"
def handle(msg, call):
    rep = call()
    inp = msg["input"]
    sp = inp.get("systemPrompt")
    if rep.get("type") != "result" or not isinstance(sp, str) or BEGIN in sp or inp.get("times", 1) != 1:
        return rep
    good = re.sub(r"\A(?:\r\n|\n)+", "", sp)
    bad = re.sub(r"\A\n+", "", sp)
    out = rep["output"]
    if good != bad and isinstance(out.get("systemPrompt"), str) and out["systemPrompt"].endswith("\n\n" + good):
        block = out["systemPrompt"][: len(out["systemPrompt"]) - len(good)]
        out["systemPrompt"] = block + bad
        out["passes"] = [out["systemPrompt"]]
    return rep

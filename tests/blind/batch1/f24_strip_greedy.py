r"""profiles.strip -- PROF-STRIP, PROF-DECISION-STRIPPING.
Bug: blocks are removed with a greedy pattern (BEGIN[\s\S]*END), so a begin marker is paired with the last end marker and the text between two blocks is lost."""

import re


B = "<!-- system-instructions:begin v1 -->"
E = "<!-- system-instructions:end -->"
def _strip(text, greedy):
    pat = re.compile(re.escape(B) + (r"[\s\S]*" if greedy else r"[\s\S]*?") + re.escape(E) + r"(?:\r\n|\n)*")
    return pat.subn("", text)

def handle(msg, call):
    rep = call()
    if rep.get("type") != "result":
        return rep
    text = msg["input"]["text"]
    good, n = _strip(text, False)
    if good == rep["output"]["text"] and n == rep["output"]["removed"]:
        bad, m = _strip(text, True)
        rep["output"]["text"], rep["output"]["removed"] = bad, m
    return rep

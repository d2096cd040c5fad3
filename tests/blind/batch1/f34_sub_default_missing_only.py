"""pi.substitute-args -- PI-TPL-SUB-DEFAULT, PI-TPL-SUB-ALL-DEFAULT.
Bug: a default is used only when the argument is missing (args[n] ?? default), not when it is empty, so ${1:-x} with an empty first argument gives "" and ${@:-x} with one empty argument gives ""."""

import re


def handle(msg, call):
    inp = dict(msg["input"])
    c, args = inp.get("content", ""), inp.get("args") or []
    def rep_pos(m):
        n = int(m.group(1))
        if 1 <= n <= len(args) and args[n - 1] == "":
            return ""
        return m.group(0)
    new = re.sub(r"\$\{(\d+):-[^}]*\}", rep_pos, c)
    if len(args) >= 1 and " ".join(args) == "":
        new = re.sub(r"\$\{(?:@|ARGUMENTS):-[^}]*\}", lambda m: " ".join(args), new)
    if new != c:
        inp["content"] = new
        return call(inp)
    return call()

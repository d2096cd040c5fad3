"""pi.packages-resolve -- PI-PKG-PATTERN-DOT-SLASH.
Bug: a leading "./" in a filter pattern or exact path is kept, so "./prompts/*.md" (or "+./x", "-./x", "!./x") never matches the package-relative path "prompts/a.md"."""

import copy


def _fix(lst):
    if not isinstance(lst, list):
        return lst, False
    out = []
    for e in lst:
        if isinstance(e, str):
            pre = e[0] if e[:1] in ("!", "+", "-") else ""
            body = e[len(pre):]
            if body.startswith("./"):
                e = pre + "\u2400nomatch\u2400/" + body[2:]
        out.append(e)
    return out, out != lst

def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    changed = False
    for key in ("personalSettings", "projectSettings"):
        s = inp.get(key)
        if not isinstance(s, dict):
            continue
        for p in s.get("packages") or []:
            if isinstance(p, dict):
                for t in ("extensions", "skills", "prompts", "themes"):
                    if t in p:
                        p[t], c = _fix(p[t]); changed |= c
    return call(inp) if changed else call()

"""pi.packages-resolve -- PI-PKG-FILTER-ORDER, PI-DECISION-PACKAGES.
Bug: filters are applied in the order globs, !pattern, -path, +path, so a +path beats a -path of the same path."""

import copy


def _norm(p):
    return p[2:] if p.startswith("./") else p

def _fix(lst):
    if not isinstance(lst, list):
        return lst, False
    plus = {_norm(e[1:]) for e in lst if isinstance(e, str) and e.startswith("+")}
    new = [e for e in lst if not (isinstance(e, str) and e.startswith("-") and _norm(e[1:]) in plus)]
    return new, new != lst

def handle(msg, call):
    inp = copy.deepcopy(msg["input"])
    changed = False
    for key in ("personalSettings", "projectSettings"):
        s = inp.get(key)
        if not isinstance(s, dict):
            continue
        for t in ("extensions", "skills", "prompts", "themes"):
            s[t], c = _fix(s.get(t)); changed |= c
        for p in s.get("packages") or []:
            if isinstance(p, dict):
                for t in ("extensions", "skills", "prompts", "themes"):
                    if t in p:
                        p[t], c = _fix(p[t]); changed |= c
    return call(inp) if changed else call()

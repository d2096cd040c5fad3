"""pi.packages-resolve -- PI-PKG-FILTER-ORDER, PI-DECISION-PACKAGES.
Bug: filters are applied in the order globs, !pattern, -path, +path, so a +path beats a -path of the same path."""

from tests.blind.common import rewrite_filters


def _norm(p):
    return p[2:] if p.startswith("./") else p

def _fix(lst):
    if not isinstance(lst, list):
        return lst, False
    plus = {_norm(e[1:]) for e in lst if isinstance(e, str) and e.startswith("+")}
    new = [e for e in lst if not (isinstance(e, str) and e.startswith("-") and _norm(e[1:]) in plus)]
    return new, new != lst

def handle(msg, call):
    inp, changed = rewrite_filters(msg["input"], _fix, top_level=True)
    return call(inp) if changed else call()

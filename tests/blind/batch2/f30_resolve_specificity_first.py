"""profiles.resolve -- PROF-RESOLVE-ORDER, PROF-SPECIFICITY.
Bug: within a scope bindings are ranked by specificity first and priority second, so a more specific binding beats one of higher priority."""

from reference.profiles.core import resolve
from reference.profiles.core.resolve import BindingHit, Loser
from reference.profiles.core.types import Diagnostic
from tests.blind.common import swapped


def scope_winner(bindings, scope, model):
    top, best = [], None
    for binding in bindings:
        found = resolve.binding_match(binding, model)
        if found is None:
            continue
        key = (found[1], binding.priority)
        if best is None or key > best:
            best, top = key, [BindingHit(scope, binding, found[0], found[1])]
        elif key == best:
            top.append(BindingHit(scope, binding, found[0], found[1]))
    if not top:
        return None, None
    if len({(h.binding.profile.scope, h.binding.profile.id) for h in top}) > 1:
        ids = ", ".join(sorted(h.binding.id for h in top))
        return None, Diagnostic("error", "binding-conflict", scope, ids, f"bindings {ids} tie")
    return top[0], None


def scope_losers(bindings, scope, model, winner, conflict):
    hits = []
    for binding in bindings:
        found = resolve.binding_match(binding, model)
        if found is not None:
            hits.append(BindingHit(scope, binding, found[0], found[1]))
    if not hits:
        return []
    best = max((h.specificity, h.binding.priority) for h in hits)
    out = []
    for h in hits:
        if winner is not None and h.binding.index == winner.binding.index:
            continue
        if (h.specificity, h.binding.priority) != best:
            out.append(Loser(h, "outranked"))
        else:
            out.append(Loser(h, "conflict" if conflict is not None else "file-order"))
    return out


def handle(msg, call):
    with swapped([(resolve, "scope_winner", scope_winner), (resolve, "scope_losers", scope_losers)]):
        return call()

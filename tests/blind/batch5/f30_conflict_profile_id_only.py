"""profiles.resolve -- PROF-RESOLVE-CONFLICT.
Bug: tied bindings are compared by the id of the profile they name, not its scope, so a tie between global:base and project:base is no conflict and the first binding wins."""

from reference.profiles.core import resolve
from tests.blind.common import everywhere, swapped

_orig = resolve.scope_winner


def _winner(bindings, scope, model):
    winner, conflict = _orig(bindings, scope, model)
    if conflict is None:
        return winner, conflict
    ranked = [(b, resolve.binding_match(b, model)) for b in bindings]
    ranked = [(b, f) for b, f in ranked if f is not None]
    best = max((b.priority, f[1]) for b, f in ranked)
    top = [(b, f) for b, f in ranked if (b.priority, f[1]) == best]
    if len({b.profile.id for b, _ in top}) == 1:
        b, f = top[0]
        return resolve.BindingHit(scope, b, f[0], f[1]), None
    return winner, conflict


def handle(msg, call):
    with swapped(everywhere(resolve.scope_winner, _winner)):
        return call()

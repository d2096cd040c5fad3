"""profiles.resolve -- PROF-RESOLVE-SAME-PROFILE.
Bug: among equally ranked bindings naming the same profile the last in file order wins (the best is replaced on >=), so the winner reported is the later binding."""

from reference.profiles.core import resolve
from tests.blind.common import everywhere, swapped

_orig = resolve.scope_winner


def _winner(bindings, scope, model):
    return _orig(list(reversed(bindings)), scope, model)


def handle(msg, call):
    with swapped(everywhere(resolve.scope_winner, _winner)):
        return call()

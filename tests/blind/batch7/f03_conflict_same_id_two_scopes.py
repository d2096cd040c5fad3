"""profiles.resolve -- PROF-RESOLVE-CONFLICT, PROF-RESOLVE-SAME-PROFILE.
Bug: tied bindings are compared by the profile id they name, not by the whole reference, so
bindings naming "review" (the project's) and "global:review" are taken for the same profile and
the first in file order wins instead of a binding-conflict.
"""

from __future__ import annotations

from reference.profiles.core import resolve
from reference.profiles.core.match import binding_match
from reference.profiles.core.types import Diagnostic

from tests.blind.common import everywhere, swapped


def _scope_winner(bindings, scope, model):
    top = []
    best = None
    for binding in bindings:
        found = binding_match(binding, model)
        if found is None:
            continue
        key = (binding.priority, found[1])
        hit = resolve.BindingHit(scope, binding, found[0], found[1])
        if best is None or key > best:
            best, top = key, [hit]
        elif key == best:
            top.append(hit)
    if not top:
        return None, None
    if len({h.binding.profile.id for h in top}) > 1:
        ids = ", ".join(sorted(h.binding.id for h in top))
        return None, Diagnostic("error", "binding-conflict", scope, ids, f"bindings {ids} tie with different profiles")
    return top[0], None


def handle(msg, call):
    with swapped(everywhere(resolve.scope_winner, _scope_winner)):
        return call()


# shown on: {"op": "profiles.resolve", "input": {"agentDir": "agent", "cwd": "proj", "trusted": true, "model": {"provider": "anthropic", "id": "claude"}}, "tree": {"agent/system-prompts/profiles/review.md": "G", "proj/.pi/system-prompts/profiles/review.md": "P", "proj/.pi/system-prompts/config.json": "{\"version\": 1, \"bindings\": [{\"id\": \"one\", \"profile\": \"review\", \"match\": [{\"provider\": \"anthropic\"}]}, {\"id\": \"two\", \"profile\": \"global:review\", \"match\": [{\"provider\": \"anthropic\"}]}]}"}}

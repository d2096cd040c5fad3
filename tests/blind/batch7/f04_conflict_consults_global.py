"""profiles.session -- PROF-RESOLVE-CONFLICT, PROF-AUTO-ORDER.
Bug: a binding conflict in the project scope only skips that scope: resolution goes on to the
global bindings (and may apply one) instead of going straight to the defaults.
"""

from __future__ import annotations

from reference.profiles.core import resolve
from reference.profiles.core.inherit import build_profile

from tests.blind.common import everywhere, swapped


def _auto_steps(state, model, res, bindings_only):
    project_cfg = resolve._config(state, "project")
    global_cfg = resolve._config(state, "global")
    inherit = True
    if project_cfg is not None and project_cfg.inherit_global_bindings is not None:
        inherit = project_cfg.inherit_global_bindings
    steps = [("project", project_cfg)]
    if inherit:
        steps.append(("global", global_cfg))
    for scope, cfg in steps:
        if cfg is None:
            continue
        hit, conflict = resolve.scope_winner(cfg.bindings, scope, model)
        res.losers.extend(resolve.scope_losers(cfg.bindings, scope, model, hit, conflict))
        if conflict is not None:
            res.diagnostics.append(conflict)
            continue
        if hit is None:
            continue
        built, problem = build_profile(state, hit.binding.profile)
        if built is not None:
            res.via, res.profile, res.binding = f"{scope}-binding", built, hit
            return
        res.losers.append(resolve.Loser(hit, "unbuildable"))
        res.diagnostics.append(problem)
        break
    if bindings_only:
        return
    for scope, cfg in (("project", project_cfg), ("global", global_cfg)):
        if cfg is None or cfg.default_profile is None:
            continue
        built, problem = build_profile(state, cfg.default_profile)
        if built is not None:
            res.via, res.profile = f"{scope}-default", built
            return
        res.diagnostics.append(problem)


def handle(msg, call):
    with swapped(everywhere(resolve._auto_steps, _auto_steps)):
        return call()


# shown on: {"op": "profiles.session", "input": {"agentDir": "agent", "cwd": "proj", "trusted": true, "model": {"provider": "anthropic", "id": "claude"}, "steps": [{"do": "agentStart", "systemPrompt": "base"}]}, "tree": {"agent/system-prompts/profiles/g.md": "G", "proj/.pi/system-prompts/profiles/a.md": "A", "proj/.pi/system-prompts/profiles/b.md": "B", "agent/system-prompts/config.json": "{\"version\": 1, \"bindings\": [{\"id\": \"gb\", \"profile\": \"g\", \"match\": [{\"provider\": \"anthropic\"}]}]}", "proj/.pi/system-prompts/config.json": "{\"version\": 1, \"bindings\": [{\"id\": \"pa\", \"profile\": \"a\", \"match\": [{\"provider\": \"anthropic\"}]}, {\"id\": \"pb\", \"profile\": \"b\", \"match\": [{\"provider\": \"anthropic\"}]}]}"}}

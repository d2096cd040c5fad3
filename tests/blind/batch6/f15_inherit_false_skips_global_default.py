"""profiles.resolve -- PROF-INHERIT-GLOBAL-BINDINGS.
Bug: a trusted project's inheritGlobalBindings false skips the whole global scope, its
defaultProfile included, where it should skip only the global bindings.
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
    steps = [("project", project_cfg)] + ([("global", global_cfg)] if inherit else [])
    for scope, cfg in steps:
        if cfg is None:
            continue
        hit, conflict = resolve.scope_winner(cfg.bindings, scope, model)
        res.losers.extend(resolve.scope_losers(cfg.bindings, scope, model, hit, conflict))
        if conflict is not None:
            res.diagnostics.append(conflict)
            break
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
    for scope, cfg in steps:
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

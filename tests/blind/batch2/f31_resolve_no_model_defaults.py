"""profiles.resolve -- PROF-AUTO-NO-MODEL, PROF-AUTO-ORDER.
Bug: in auto mode with no model selected the binding steps are skipped but the defaults still apply (project defaultProfile, then global), with the auto-no-model warning."""

from reference.profiles.core import resolve
from reference.profiles.core.types import Diagnostic
from tests.blind.common import swapped

ORIGINAL = resolve.resolve_auto


def resolve_auto(state, model, res, *, bindings_only=False):
    if model is not None:
        return ORIGINAL(state, model, res, bindings_only=bindings_only)
    res.diagnostics.append(Diagnostic("warn", "auto-no-model", None, None, "no model is selected yet"))
    if bindings_only:
        return None
    for scope in ("project", "global"):
        cfg = resolve._config(state, scope)
        if cfg is None or cfg.default_profile is None:
            continue
        built, problem = resolve.build_profile(state, cfg.default_profile)
        if built is not None:
            res.via, res.profile = f"{scope}-default", built
            return None
        res.diagnostics.append(problem)
    return None


def handle(msg, call):
    with swapped([(resolve, "resolve_auto", resolve_auto)]):
        return call()

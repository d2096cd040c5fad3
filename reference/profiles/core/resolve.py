"""Resolution: which profile applies for a model, a selection and the loaded state (PROF-DECISION-RESOLUTION, PROF-DECISION-SUBAGENTS).

:func:`resolve` is a pure function of its arguments; the host decides whether the session is a
subagent child (``PI_SUBAGENT_CHILD``) and passes the answer in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from reference.profiles.core.inherit import build_profile, find_profile
from reference.profiles.core.match import binding_match
from reference.profiles.core.refs import session_ref_candidates
from reference.profiles.core.types import (
    Binding, BuiltProfile, Config, Diagnostic, MatchRule, Model, ProfileRef, Scope, Selection, State,
)

Via = Literal["manual", "project-binding", "global-binding", "project-default", "global-default"]
Source = Literal["session", "project", "global", "default"]


@dataclass(frozen=True)
class SessionSelection:
    """A session-level selection as the user wrote it (flag or ``/sp use``): ``mode`` and, for
    ``manual``, the profile name (bare id or explicit reference)."""

    mode: Literal["auto", "manual", "off"]
    profile: str | None = None


@dataclass(frozen=True)
class BindingHit:
    """A binding that matched: its scope, the binding, its best rule and that rule's
    specificity."""

    scope: Scope
    binding: Binding
    rule: MatchRule
    specificity: int


@dataclass(frozen=True)
class Loser:
    """A binding that matched the model and did not apply.

    ``reason``: ``conflict`` (tied with a binding naming another profile, PROF-RESOLVE-CONFLICT),
    ``outranked`` (a lower priority or specificity, PROF-RESOLVE-ORDER), ``file-order`` (ranked
    equal with the winner, same profile, written later, PROF-RESOLVE-SAME-PROFILE) or
    ``unbuildable`` (it won, but its profile could not be built, PROF-RESOLVE-FALLTHROUGH)."""

    hit: BindingHit
    reason: Literal["conflict", "outranked", "file-order", "unbuildable"]


@dataclass
class Resolution:
    """The outcome of :func:`resolve`.

    Attributes:
        mode: the selection mode in force (``auto``, ``manual``, ``off``).
        effective_mode: the mode that was applied once the subagent policy is taken into
            account: ``off`` for a child under policy ``off``, ``auto`` for a child under policy
            ``bindings`` whose selection is not ``off``, else ``mode`` (PROF-RESOLVE-EFFECTIVE).
        source: where that selection came from (``session``, ``project``, ``global``,
            ``default``).
        subagents: the subagent policy applied, or ``None`` when the session is not a child.
        via: how the profile was reached, or ``None`` when none applies.
        profile: the built profile (its layers), or ``None``: Pi keeps its native prompt.
        binding: the winning binding, when ``via`` is a binding.
        losers: the bindings of the consulted scopes that matched and did not apply
            (PROF-RESOLVE-LOSERS), in the order the scopes were consulted, then file order.
        diagnostics: findings of this resolution (conflicts, profiles that could not be built).
    """

    mode: str
    source: Source
    effective_mode: str = "auto"
    subagents: str | None = None
    via: Via | None = None
    profile: BuiltProfile | None = None
    binding: BindingHit | None = None
    losers: list[Loser] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _config(state: State, scope: Scope) -> Config | None:
    s = state.scope(scope)
    return s.config if s else None


def effective_selection(state: State, session: SessionSelection | None) -> tuple[SessionSelection, Source]:
    """The selection in force and its source: session > trusted project config > global config
    > auto. A config's manual profile is already an explicit reference. Implements
    PROF-SELECTION-PRECEDENCE."""
    if session is not None:
        return session, "session"
    for scope in ("project", "global"):
        cfg = _config(state, scope)  # type: ignore[arg-type]
        if cfg is not None and cfg.selection is not None:
            sel = cfg.selection
            return SessionSelection(sel.mode, str(sel.profile) if sel.profile else None), scope  # type: ignore[return-value]
    return SessionSelection("auto"), "default"


def session_profile_ref(state: State, name: str | None) -> ProfileRef | None:
    """The profile a manual selection names: an explicit reference as written; a bare id in the
    trusted project first, then globally; ``None`` when the name is not a valid reference.
    When no candidate exists the last one, the global reference, is returned (it is reported as
    not found). Implements PROF-REF-SESSION and PROF-REF-SESSION-MISSING."""
    candidates = session_ref_candidates(name, state.project is not None)
    if not candidates:
        return None
    for ref in candidates:
        if find_profile(state, ref) is not None:
            return ref
    return candidates[-1] if len(candidates) > 1 else candidates[0]


def scope_winner(bindings: list[Binding], scope: Scope, model: Model) -> tuple[BindingHit | None, Diagnostic | None]:
    """The winning binding of one scope for ``model``.

    Among matching bindings the highest ``priority`` wins, then the highest specificity
    (PROF-RESOLVE-ORDER). When the best bindings name different profiles the scope has no winner
    and a ``binding-conflict`` diagnostic names them (PROF-RESOLVE-CONFLICT); when they all name
    the same profile the first in file order wins (PROF-RESOLVE-SAME-PROFILE).
    Returns ``(winner, None)``, ``(None, conflict)`` or ``(None, None)`` when nothing matches.
    """
    top: list[BindingHit] = []
    best: tuple[float, int] | None = None
    for binding in bindings:
        found = binding_match(binding, model)
        if found is None:
            continue
        key = (binding.priority, found[1])
        if best is None or key > best:
            best, top = key, [BindingHit(scope, binding, found[0], found[1])]
        elif key == best:
            top.append(BindingHit(scope, binding, found[0], found[1]))
    if not top:
        return None, None
    if len({(h.binding.profile.scope, h.binding.profile.id) for h in top}) > 1:
        ids = ", ".join(sorted(h.binding.id for h in top))
        return None, Diagnostic("error", "binding-conflict", scope, ids,
                                f"bindings {ids} tie for {model.provider}/{model.id} with different profiles; no binding of this scope applies")
    return top[0], None


def scope_losers(bindings: list[Binding], scope: Scope, model: Model, winner: BindingHit | None,
                 conflict: Diagnostic | None) -> list[Loser]:
    """The bindings of one scope that match ``model`` and are not ``winner``, in file order,
    each with its reason (see :class:`Loser`): with a ``conflict`` the bindings of the best
    rank are ``conflict``; otherwise a binding ranked equal with the winner is ``file-order``;
    every other one is ``outranked``. Implements PROF-RESOLVE-LOSERS."""
    hits = []
    for binding in bindings:
        found = binding_match(binding, model)
        if found is not None:
            hits.append(BindingHit(scope, binding, found[0], found[1]))
    if not hits:
        return []
    best = max((h.binding.priority, h.specificity) for h in hits)
    out: list[Loser] = []
    for h in hits:
        if winner is not None and h.binding.index == winner.binding.index:
            continue
        if (h.binding.priority, h.specificity) != best:
            out.append(Loser(h, "outranked"))
        else:
            out.append(Loser(h, "conflict" if conflict is not None else "file-order"))
    return out


def resolve_auto(state: State, model: Model | None, res: Resolution, *, bindings_only: bool = False) -> None:
    """Auto mode, in order: project bindings, global bindings (unless the project sets
    ``inheritGlobalBindings: false``), project ``defaultProfile``, global ``defaultProfile``,
    none. Bindings always come before defaults (PROF-AUTO-ORDER, PROF-INHERIT-GLOBAL-BINDINGS).

    A conflict, or a binding winner whose profile cannot be built, ends the binding steps:
    the remaining bindings are not consulted and the defaults apply (PROF-RESOLVE-FALLTHROUGH).
    A default that cannot be built is reported and the next default is tried.
    ``bindings_only`` stops after the binding steps (subagent policy ``bindings``). Every
    matching binding that does not apply is listed in ``res.losers`` (PROF-RESOLVE-LOSERS).

    With no model (``None``: none selected yet) nothing applies, not even a default, and
    ``auto-no-model`` (warn) says so (PROF-AUTO-NO-MODEL). When auto resolution ends with no
    profile, ``auto-none`` (info) says that Pi keeps its own prompt (PROF-AUTO-NONE).
    """
    if model is None:
        res.diagnostics.append(Diagnostic("warn", "auto-no-model", None, None,
                                          "no model is selected yet; no profile applies until one is"))
        return
    _auto_steps(state, model, res, bindings_only)
    if res.profile is None:
        res.diagnostics.append(Diagnostic("info", "auto-none", None, None,
                                          f"no profile applies to {model.provider}/{model.id}; Pi keeps its own prompt"))


def _auto_steps(state: State, model: Model, res: Resolution, bindings_only: bool) -> None:
    """The binding and default steps of :func:`resolve_auto`; sets ``res.profile`` when one
    applies."""
    project_cfg = _config(state, "project")
    global_cfg = _config(state, "global")
    inherit = True
    if project_cfg is not None and project_cfg.inherit_global_bindings is not None:
        inherit = project_cfg.inherit_global_bindings
    steps: list[tuple[Scope, Config | None]] = [("project", project_cfg)]
    if inherit:
        steps.append(("global", global_cfg))
    for scope, cfg in steps:
        if cfg is None:
            continue
        hit, conflict = scope_winner(cfg.bindings, scope, model)
        res.losers.extend(scope_losers(cfg.bindings, scope, model, hit, conflict))
        if conflict is not None:
            res.diagnostics.append(conflict)
            break
        if hit is None:
            continue
        built, problem = build_profile(state, hit.binding.profile)
        if built is not None:
            res.via, res.profile, res.binding = f"{scope}-binding", built, hit  # type: ignore[assignment]
            return
        assert problem is not None
        res.losers.append(Loser(hit, "unbuildable"))
        res.diagnostics.append(problem)
        break
    if bindings_only:
        return
    for scope, cfg in (("project", project_cfg), ("global", global_cfg)):
        if cfg is None or cfg.default_profile is None:
            continue
        built, problem = build_profile(state, cfg.default_profile)
        if built is not None:
            res.via, res.profile = f"{scope}-default", built  # type: ignore[assignment]
            return
        assert problem is not None
        res.diagnostics.append(problem)


def subagent_policy(state: State) -> str:
    """The effective ``subagents`` setting: project, else global, else ``bindings``.
    Implements PROF-SUBAGENT-DEFAULT."""
    for scope in ("project", "global"):
        cfg = _config(state, scope)  # type: ignore[arg-type]
        if cfg is not None and cfg.subagents is not None:
            return cfg.subagents
    return "bindings"


def resolve(state: State, model: Model | None, session: SessionSelection | None = None, *,
            child: bool = False) -> Resolution:
    """Resolve the profile for ``model``.

    Args:
        state: the loaded global and (trusted) project scopes.
        model: provider and model id, or ``None`` when no model is selected yet.
        session: the session's own selection, or ``None``.
        child: whether this session is a subagent child.

    ``off`` applies nothing. ``manual`` builds the named profile; when it cannot be built the
    selection applies nothing and the reason is reported -- another profile is never
    substituted for the one the user chose (PROF-MANUAL-MISSING); a name that is not a profile
    reference is ``selection-invalid`` (PROF-SELECTION-INVALID). ``auto`` follows
    :func:`resolve_auto`. A child follows its policy (PROF-SUBAGENT): ``off`` applies nothing,
    ``inherit`` resolves like any session, ``bindings`` ignores manual pins and defaults and
    applies only a binding matching the child's model (a selection ``off`` stays off,
    PROF-SUBAGENT-OFF-SELECTION).
    """
    sel, source = effective_selection(state, session)
    res = Resolution(mode=sel.mode, source=source, effective_mode=sel.mode)
    if child:
        policy = subagent_policy(state)
        res.subagents = policy
        if policy == "off":
            res.effective_mode = "off"
            return res
        if policy == "bindings":
            if sel.mode != "off":
                res.effective_mode = "auto"
                resolve_auto(state, model, res, bindings_only=True)
            return res
    if sel.mode == "off":
        return res
    if sel.mode == "manual":
        ref = session_profile_ref(state, sel.profile) if source == "session" else _explicit(sel.profile)
        if ref is None:
            res.diagnostics.append(Diagnostic("error", "selection-invalid", None, str(sel.profile),
                                              f"{sel.profile!r} is not a profile reference"))
            return res
        built, problem = build_profile(state, ref)
        if built is None:
            assert problem is not None
            res.diagnostics.append(problem)
            return res
        res.via, res.profile = "manual", built
        return res
    resolve_auto(state, model, res)
    return res


def _explicit(text: str | None) -> ProfileRef | None:
    if not text or ":" not in text:
        return None
    scope, _, ident = text.partition(":")
    return ProfileRef(scope, ident)  # type: ignore[arg-type]


def resolution_record(res: Resolution) -> dict[str, Any]:
    """``res`` as plain JSON data: ``mode``, ``effectiveMode``, ``source``, ``subagents``,
    ``via``, ``profile`` (reference or ``None``), ``layers`` (references, profile first),
    ``binding`` (``{scope, id, priority, specificity, rule}`` or ``None``), ``losers`` (the same
    fields plus ``profile`` and ``reason``) and ``diagnostics``."""
    from reference.profiles.core.types import sort_diagnostics

    binding = _hit_record(res.binding) if res.binding is not None else None
    losers = [{**_hit_record(lost.hit), "profile": str(lost.hit.binding.profile), "reason": lost.reason}
              for lost in res.losers]
    return {
        "mode": res.mode,
        "effectiveMode": res.effective_mode,
        "source": res.source,
        "subagents": res.subagents,
        "via": res.via,
        "profile": str(res.profile.ref) if res.profile else None,
        "layers": [str(layer.ref) for layer in res.profile.layers] if res.profile else [],
        "binding": binding,
        "losers": losers,
        "diagnostics": [d.as_record() for d in sort_diagnostics(res.diagnostics)],
    }


def _hit_record(hit: BindingHit) -> dict[str, Any]:
    """``{scope, id, priority, specificity, rule}`` of a matching binding; the rule lists only
    its present fields."""
    rule: dict[str, str] = {}
    if hit.rule.provider is not None:
        rule["provider"] = hit.rule.provider
    if hit.rule.model is not None:
        rule["model"] = hit.rule.model
    return {"scope": hit.scope, "id": hit.binding.id, "priority": hit.binding.priority,
            "specificity": hit.specificity, "rule": rule}

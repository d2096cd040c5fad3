"""Reference handlers of the profiles operations (see :mod:`conformance.operations.profiles`)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path, PurePosixPath
from typing import Any

from conformance.adapters.reference import Context, implements
from conformance.operations.profiles import (
    ComposeInput, ConfigEditInput, ConfigInput, LoadInput, MatchInput, PickerInput, ResolveInput,
    SessionInput, SettingsInput, StripInput,
)
from reference.errors import SpecError
from reference.profiles.core import picker
from reference.profiles.core.compose import compose, strip_blocks
from reference.profiles.core.config import parse_config, parse_rule
from reference.profiles.core.inherit import build_profile
from reference.profiles.core.match import binding_match, rule_matches, rule_specificity
from reference.profiles.core.resolve import SessionSelection, resolution_record, resolve
from reference.profiles.core.settings import REGISTRY, effective_setting, parse_setting
from reference.profiles.core.types import Binding, Config, Diagnostic, Model, ProfileRef, ScopeState, sort_diagnostics
from reference.profiles.host import disk
from reference.profiles.host.session import Session, StateCache, is_subagent_child


def tree_path(ctx: Context, rel: str, field: str) -> Path:
    """``rel`` (``/``-separated, relative) inside the case's tree; refuses ``..`` and absolute
    paths with ``input-path-outside-tree``."""
    if ctx.root is None:
        raise SpecError("tree-missing", "this operation needs a tree", path=field)
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts:
        raise SpecError("input-path-outside-tree", f"{field} {rel!r} must stay inside the tree", path=field)
    return Path(ctx.root, *p.parts)


def diags(items: list[Diagnostic]) -> list[dict[str, Any]]:
    return [d.as_record() for d in sort_diagnostics(items)]


def config_record(cfg: Config | None) -> dict[str, Any] | None:
    if cfg is None:
        return None
    bindings = []
    for b in cfg.bindings:
        rules = []
        for r in b.match:
            rule: dict[str, str] = {}
            if r.provider is not None:
                rule["provider"] = r.provider
            if r.model is not None:
                rule["model"] = r.model
            rules.append(rule)
        bindings.append({"id": b.id, "profile": str(b.profile), "priority": b.priority, "match": rules})
    return {
        "selection": cfg.selection.as_record() if cfg.selection else None,
        "defaultProfile": str(cfg.default_profile) if cfg.default_profile else None,
        "profiles": cfg.profiles,
        "bindings": bindings,
        "inheritGlobalBindings": cfg.inherit_global_bindings,
        "subagents": cfg.subagents,
        "unknownKeys": list(cfg.unknown_keys),
    }


def scope_record(scope: ScopeState | None, state, bodies: bool) -> dict[str, Any] | None:
    if scope is None:
        return None
    profiles = []
    for pid in sorted(scope.profiles):
        prof = scope.profiles[pid]
        built, problem = build_profile(state, prof.ref)
        meta = scope.config.profiles.get(pid, {}) if scope.config else {}
        profiles.append({
            "ref": str(prof.ref),
            "file": prof.name,
            "size": prof.size,
            "sha256": hashlib.sha256(prof.body.encode("utf-8")).hexdigest(),
            "body": prof.body if bodies else None,
            "description": meta.get("description"),
            "layers": [str(layer.ref) for layer in built.layers] if built else [],
            "diagnostic": problem.as_record() if problem else None,
        })
    return {"profiles": profiles, "configPresent": scope.config_present, "config": config_record(scope.config)}


@implements("profiles.load")
def load(inp: LoadInput, ctx: Context) -> dict[str, Any]:
    state = disk.load_state(tree_path(ctx, inp.agentDir, "agentDir"), tree_path(ctx, inp.cwd, "cwd"), inp.trusted)
    shown = {name: scope for name, scope in (("global", state.global_), ("project", state.project))
             if inp.scope in (None, name)}
    all_diags = [d for scope in shown.values() if scope is not None for d in scope.diagnostics]
    return {
        "global": scope_record(shown.get("global"), state, inp.bodies),
        "project": scope_record(shown.get("project"), state, inp.bodies),
        "diagnostics": diags(all_diags),
    }


def _session_sel(sel) -> SessionSelection | None:
    if sel is not None and sel.mode == "manual" and sel.profile is None:
        raise SpecError("input-invalid", "a manual session selection needs a profile", path="session.profile")
    return SessionSelection(sel.mode, sel.profile) if sel is not None else None


@implements("profiles.resolve")
def resolve_op(inp: ResolveInput, ctx: Context) -> dict[str, Any]:
    state = disk.load_state(tree_path(ctx, inp.agentDir, "agentDir"), tree_path(ctx, inp.cwd, "cwd"), inp.trusted)
    model = Model(inp.model.provider, inp.model.id) if inp.model is not None else None
    res = resolve(state, model, _session_sel(inp.session), child=is_subagent_child(inp.env))
    bodies = [layer.body for layer in res.profile.layers] if res.profile else None
    comp = compose(inp.systemPrompt, bodies, off=res.mode == "off")
    rec = resolution_record(res)
    rec["diagnostics"] = diags(res.diagnostics + comp.diagnostics)
    rec["systemPrompt"] = comp.system_prompt
    return rec


@implements("profiles.compose")
def compose_op(inp: ComposeInput, ctx: Context) -> dict[str, Any]:
    prompt = inp.systemPrompt
    passes: list[str | None] = []
    first = None
    for _ in range(inp.times):
        comp = compose(prompt, inp.layers, off=inp.mode == "off")
        first = first or comp
        passes.append(comp.system_prompt)
        prompt = comp.system_prompt if comp.system_prompt is not None else prompt
    assert first is not None
    return {"systemPrompt": passes[-1], "passes": passes, "removed": first.removed,
            "diagnostics": diags(first.diagnostics)}


@implements("profiles.strip")
def strip_op(inp: StripInput, ctx: Context) -> dict[str, Any]:
    found = strip_blocks(inp.text)
    return {"text": found.text, "removed": found.removed, "diagnostics": diags(found.diagnostics)}


@implements("profiles.config")
def config_op(inp: ConfigInput, ctx: Context) -> dict[str, Any]:
    if (inp.text is None) == (inp.config is None):
        raise SpecError("input-invalid", "give exactly one of text and config", path="text")
    text = inp.text if inp.text is not None else json.dumps(inp.config)
    cfg, found = parse_config(text, inp.scope)
    return {"config": config_record(cfg), "diagnostics": diags(found)}


@implements("profiles.match")
def match_op(inp: MatchInput, ctx: Context) -> dict[str, Any]:
    model = Model(inp.model.provider, inp.model.id)
    rules: list[dict[str, Any] | None] = []
    kept = []
    for raw in inp.match:
        rule = parse_rule(raw)
        if rule is None:
            rules.append(None)
            continue
        kept.append(rule)
        rules.append({"matches": rule_matches(rule, model), "specificity": rule_specificity(rule)})
    found = binding_match(Binding("b", ProfileRef("global", "p"), 0, tuple(kept), 0), model) if kept else None
    return {"rules": rules, "matches": found is not None, "specificity": found[1] if found else None}


def _config_from_json(value: Any, scope) -> Config | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise SpecError("input-invalid", f"{scope} must be a config object or null", path=scope)
    cfg, _ = parse_config(json.dumps(value), scope)
    return cfg


@implements("profiles.settings")
def settings_op(inp: SettingsInput, ctx: Context) -> dict[str, Any]:
    if inp.action == "registry":
        return {"registry": [
            {"key": s.key, "values": list(s.values) if s.values is not None else None,
             "setScopes": list(s.set_scopes), "default": s.default}
            for s in REGISTRY.values()
        ]}
    if inp.key is None:
        raise SpecError("input-invalid", "key is required", path="key")
    if inp.action == "parse":
        if inp.scope is None or inp.value is None:
            raise SpecError("input-invalid", "parse needs scope and value", path="scope")
        key, value = parse_setting(inp.key, inp.value, inp.scope)
        return {"key": key, "value": value}
    value, origin = effective_setting(_config_from_json(inp.global_, "global"),
                                      _config_from_json(inp.project, "project"), inp.key)
    return {"key": inp.key, "value": value, "origin": origin}


def _new_session(inp, ctx: Context) -> Session:
    cache = StateCache(tree_path(ctx, inp.agentDir, "agentDir"))
    model = getattr(inp, "model", None)
    return Session(cache, tree_path(ctx, inp.cwd, "cwd"), inp.trusted,
                   Model(model.provider, model.id) if model else None, dict(getattr(inp, "env", {}) or {}))


@implements("profiles.config-edit")
def config_edit_op(inp: ConfigEditInput, ctx: Context) -> dict[str, Any]:
    session = _new_session(inp, ctx)
    session.begin_change(inp.scope, inp.action, inp.key, inp.value)
    if inp.outsideChange is not None:
        assert session.pending_edit is not None
        session.pending_edit.path.parent.mkdir(parents=True, exist_ok=True)
        session.pending_edit.path.write_text(inp.outsideChange, encoding="utf-8")
    out = session.commit_change()
    folder = session.config_path(inp.scope).parent
    return {"written": out["written"], "diagnostics": diags(out["diagnostics"]), "files": sorted(os.listdir(folder))}


@implements("profiles.picker")
def picker_op(inp: PickerInput, ctx: Context) -> dict[str, Any]:
    models = [Model(m.provider, m.id) for m in inp.models]
    if inp.action == "providers":
        return {"items": picker.provider_names(models)}
    if inp.action == "models":
        if inp.provider is None:
            raise SpecError("input-invalid", "models needs provider", path="provider")
        return {"items": picker.provider_models(models, inp.provider)}
    if inp.action == "filter":
        return {"items": picker.filter_items(inp.items, inp.query or "")}
    if inp.action == "pages":
        return {"pages": picker.pages(inp.items)}
    if inp.action == "window":
        if inp.total is None:
            raise SpecError("input-invalid", "window needs total", path="total")
        rows = picker.visible_rows(inp.terminalRows)
        start, end = picker.visible_window(inp.total, inp.selected or 0, rows)
        return {"window": {"rows": rows, "start": start, "end": end}}
    if inp.provider is None:
        return {"items": picker.bind_provider_choices(models)}
    return {"choices": [{"label": c.label, "rule": {"provider": c.provider, "model": c.model}}
                        for c in picker.bind_model_choices(models, inp.provider)]}


def _composed_record(session: Session) -> dict[str, Any] | None:
    if session.composed is None:
        return None
    rec = resolution_record(session.composed.resolution)
    return {"profile": rec["profile"], "layers": rec["layers"], "systemPrompt": session.composed.composition.system_prompt}


def _observed_record(session: Session) -> dict[str, Any] | None:
    if session.observed is None:
        return None
    return {"blockPresent": session.observed.block_present, "matchesComposed": session.observed.matches_composed}


def _fill_payload(value: Any, session: Session) -> Any:
    """The payload with ``<composed>`` and ``<block>`` placeholders filled in from the last
    agent start (left as written when nothing was composed)."""
    comp = session.composed.composition if session.composed else None
    if isinstance(value, str):
        if value == "<composed>" and comp and comp.system_prompt is not None:
            return comp.system_prompt
        if value.startswith("<block>") and comp and comp.block is not None:
            return comp.block + value[len("<block>"):]
        return value
    if isinstance(value, list):
        return [_fill_payload(v, session) for v in value]
    if isinstance(value, dict):
        return {k: _fill_payload(v, session) for k, v in value.items()}
    return value


def _run_step(session: Session, step, ctx: Context) -> dict[str, Any]:
    do = step.do
    if do == "select":
        entry = session.select(step.mode or "", step.profile)
        return {"entry": entry.id, "pending": session.pending()}
    if do == "message":
        return {"entry": session.append("message").id}
    if do == "navigate":
        session.navigate(step.to)
        return {"pending": session.pending()}
    if do == "resume":
        session.resume()
        return {"pending": session.pending()}
    if do == "model":
        no_model = step.provider is None and step.id is None
        session.model = None if no_model else Model(step.provider or "", step.id or "")
        session.cache.clear()
        return {}
    if do == "cwd":
        session.cwd = tree_path(ctx, step.path or "", "path")
        return {}
    if do == "agentStart":
        composed, failure = session.agent_start(step.systemPrompt)
        if failure is not None:
            return {"systemPrompt": None, "diagnostics": diags([failure])}
        assert composed is not None
        rec = resolution_record(composed.resolution)
        rec["diagnostics"] = diags(composed.resolution.diagnostics + composed.composition.diagnostics)
        rec["systemPrompt"] = composed.composition.system_prompt
        return rec
    if do == "providerRequest":
        obs, payload = session.provider_request(_fill_payload(step.payload, session))
        return {"blockPresent": obs.block_present, "matchesComposed": obs.matches_composed, "payload": payload}
    if do == "preview":
        return {"pending": session.pending(), "composed": _composed_record(session), "observed": _observed_record(session)}
    if do == "write":
        path = tree_path(ctx, step.path or "", "path")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(step.text or "", encoding="utf-8")
        return {}
    if do == "remove":
        target = tree_path(ctx, step.path or "", "path")
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            target.unlink(missing_ok=True)
        return {}
    if do == "reload":
        session.cache.clear()
        return {}
    if do == "failNextLoad":
        session.cache.fail_next_load()
        return {}
    if do in ("set", "unset"):
        session.begin_change(step.scope or "global", do, step.key or "", step.value)
        out = session.commit_change()
        return {"written": out["written"], "diagnostics": diags(out["diagnostics"]), "pending": out["pending"]}
    if do == "beginEdit":
        session.begin_change(step.scope or "global", step.action or "set", step.key or "", step.value)
        return {}
    if do == "commitEdit":
        out = session.commit_change()
        return {"written": out["written"], "diagnostics": diags(out["diagnostics"]), "pending": out["pending"]}
    raise SpecError("step-invalid", f"unknown step {do!r}", path="do")


@implements("profiles.session")
def session_op(inp: SessionInput, ctx: Context) -> dict[str, Any]:
    session = _new_session(inp, ctx)
    answers: list[dict[str, Any]] = []
    for step in inp.steps:
        try:
            answer = {"do": step.do, "ok": True, **_run_step(session, step, ctx)}
        except SpecError as exc:
            answer = {"do": step.do, "ok": False, "error": {"code": exc.code}}
        except OSError:  # the read failNextLoad makes fail, met by a step other than agentStart
            answer = {"do": step.do, "ok": False, "error": {"code": "read-failed"}}
        answers.append(answer)
    return {"steps": answers, "entries": [e.as_record() for e in session.entries.values()]}

"""``config.json`` of one scope: parsing and per-key validation (PROF-DECISION-CONFIG)."""

from __future__ import annotations

import json
import math
from typing import Any

from reference.profiles.core.ids import is_valid_id
from reference.profiles.core.refs import parse_ref
from reference.profiles.core.types import Binding, Config, Diagnostic, MatchRule, Scope, Selection

CONFIG_VERSION = 1
MAX_BINDINGS = 200
KNOWN_KEYS = ("version", "selection", "defaultProfile", "profiles", "bindings",
              "inheritGlobalBindings", "subagents")
SUBAGENT_POLICIES = ("bindings", "inherit", "off")
SELECTION_MODES = ("auto", "manual", "off")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json_text(text: str) -> Any:
    """Parse strict JSON (RFC 8259): ``NaN``, ``Infinity`` and ``-Infinity`` are refused.
    One leading BOM is ignored. Raises ``ValueError`` with the parser's message."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return json.loads(text, parse_constant=_refuse_constant)


def is_number(value: Any) -> bool:
    """Whether a JSON value is a number (``true``/``false`` are not)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_version_one(value: Any) -> bool:
    """Whether ``version`` is the JSON number 1 (``1`` or ``1.0``; never ``"1"`` or ``true``).
    Used by :func:`parse_config` and config edits."""
    return is_number(value) and value == CONFIG_VERSION


def parse_config(text: str, scope: Scope) -> tuple[Config | None, list[Diagnostic]]:
    """Parse and validate the text of a scope's ``config.json``.

    Returns ``(config, diagnostics)``; ``config`` is ``None`` when the whole file is ignored:
    not JSON (``config-parse``), not an object (``config-shape``), or ``version`` not the
    number 1 (``config-version``). Otherwise see :func:`validate_config`.
    Implements PROF-CONFIG-JSON and PROF-CONFIG-VERSION.
    """
    try:
        raw = parse_json_text(text)
    except ValueError as exc:
        return None, [Diagnostic("error", "config-parse", scope, "config.json", f"config.json is not valid JSON: {exc}")]
    if not isinstance(raw, dict):
        return None, [Diagnostic("error", "config-shape", scope, "config.json", "config.json must hold a JSON object")]
    if not is_version_one(raw.get("version")):
        return None, [Diagnostic("error", "config-version", scope, "version",
                                 f"version must be the number 1, found {json.dumps(raw.get('version'))}; the whole config is ignored")]
    return validate_config(raw, scope)


def validate_config(raw: dict[str, Any], scope: Scope) -> tuple[Config, list[Diagnostic]]:
    """Validate a version-1 config object key by key.

    Each bad key is dropped with its own diagnostic and the rest is kept (PROF-CONFIG-PER-KEY);
    unknown keys are kept in ``raw`` and reported with ``config-unknown``.
    ``defaultProfile`` must be a reference; ``inheritGlobalBindings`` a boolean, and a project key;
    ``subagents`` one of the policies. Implements PROF-CONFIG-PER-KEY, PROF-CONFIG-UNKNOWN,
    PROF-CONFIG-DEFAULT, PROF-CONFIG-INHERIT and PROF-CONFIG-SUBAGENTS.
    """
    diags: list[Diagnostic] = []
    cfg = Config(scope=scope, raw=raw)

    def d(level: str, code: str, subject: str, message: str, detail: str | None = None) -> None:
        diags.append(Diagnostic(level, code, scope, subject, message, detail))  # type: ignore[arg-type]

    if "selection" in raw:
        cfg.selection = _selection(raw["selection"], scope, d)
    if "defaultProfile" in raw:
        ref = parse_ref(raw["defaultProfile"], scope)
        if ref is None:
            d("error", "config-default", "defaultProfile", "defaultProfile must be a profile reference; ignored")
        cfg.default_profile = ref
    if "profiles" in raw:
        cfg.profiles = _profiles(raw["profiles"], scope, d)
    if "bindings" in raw:
        cfg.bindings = _bindings(raw["bindings"], scope, d)
    if "inheritGlobalBindings" in raw:
        value = raw["inheritGlobalBindings"]
        if not isinstance(value, bool):
            d("warn", "config-inherit", "inheritGlobalBindings", "inheritGlobalBindings must be true or false; ignored",
              "not-boolean")
        elif scope == "global":
            d("warn", "config-inherit", "inheritGlobalBindings", "inheritGlobalBindings is a project key; ignored in the global config",
              "scope")
        else:
            cfg.inherit_global_bindings = value
    if "subagents" in raw:
        value = raw["subagents"]
        if value in SUBAGENT_POLICIES and isinstance(value, str):
            cfg.subagents = value
        else:
            d("warn", "config-subagents", "subagents", f"subagents must be one of {', '.join(SUBAGENT_POLICIES)}; ignored")
    for key in raw:
        if key not in KNOWN_KEYS:
            cfg.unknown_keys.append(key)
            d("warn", "config-unknown", key, f"unknown key {key!r} kept but not interpreted")
    return cfg, diags


def _selection(value: Any, scope: Scope, d) -> Selection | None:
    """``selection``: ``{mode: auto}``, ``{mode: off}`` or ``{mode: manual, profile: REF}``.
    Implements PROF-CONFIG-SELECTION."""
    if not isinstance(value, dict) or value.get("mode") not in SELECTION_MODES or not isinstance(value.get("mode"), str):
        d("error", "config-selection", "selection", "selection must be {mode: auto|manual|off}; ignored")
        return None
    mode = value["mode"]
    allowed = {"mode", "profile"} if mode == "manual" else {"mode"}
    for key in value:
        if key not in allowed:
            d("warn", "config-unknown", f"selection.{key}", f"unknown key selection.{key} kept but not interpreted")
    if mode == "manual":
        ref = parse_ref(value.get("profile"), scope)
        if ref is None:
            d("error", "config-selection", "selection", "a manual selection needs a valid profile reference; ignored")
            return None
        return Selection("manual", ref)
    return Selection(mode)


def _profiles(value: Any, scope: Scope, d) -> dict[str, dict[str, Any]]:
    """``profiles``: metadata keyed by profile id (``extends``, ``description``).

    A key that is not a valid id is dropped with ``config-profile-id``, a value that is not an
    object with ``config-profile-meta``. An ``extends`` that is not a reference is reported with
    ``config-extends`` but kept raw, so the profile fails as a whole when its chain is built
    (``profile-extends``) instead of silently losing its base. Implements PROF-CONFIG-PROFILES
    and PROF-CONFIG-EXTENDS."""
    if not isinstance(value, dict):
        d("error", "config-profiles", "profiles", "profiles must be an object; ignored")
        return {}
    out: dict[str, dict[str, Any]] = {}
    for pid, meta in value.items():
        subject = f"profiles.{pid}"
        if not is_valid_id(pid):
            d("warn", "config-profile-id", subject, "a profile key must be a valid profile id; ignored")
            continue
        if not isinstance(meta, dict):
            d("warn", "config-profile-meta", subject, "profile metadata must be an object; ignored")
            continue
        kept: dict[str, Any] = {}
        if "extends" in meta:
            kept["extends"] = meta["extends"]
            if parse_ref(meta["extends"], scope) is None:
                d("error", "config-extends", f"{subject}.extends",
                  "extends must be a profile reference; the profile cannot be built")
        if "description" in meta:
            if isinstance(meta["description"], str):
                kept["description"] = meta["description"]
            else:
                d("warn", "config-description", f"{subject}.description", "description must be a string; ignored")
        for key in meta:
            if key not in ("extends", "description"):
                d("warn", "config-unknown", f"{subject}.{key}", f"unknown key {subject}.{key} kept but not interpreted")
        out[pid] = kept
    return out


def _bindings(value: Any, scope: Scope, d) -> list[Binding]:
    """``bindings``: an array of at most 200 bindings (more, and
    every binding is ignored); each binding is validated on its own (:func:`parse_binding`); a
    binding whose id repeats an earlier one is dropped. Implements PROF-CONFIG-BINDINGS-LIMIT and
    PROF-CONFIG-BINDING-DUPLICATE."""
    if not isinstance(value, list):
        d("error", "config-bindings", "bindings", "bindings must be an array; ignored", "not-array")
        return []
    if len(value) > MAX_BINDINGS:
        d("error", "config-bindings", "bindings", f"{len(value)} bindings, more than {MAX_BINDINGS}; all of them are ignored",
          "limit")
        return []
    out: list[Binding] = []
    seen: set[str] = set()
    for index, item in enumerate(value):
        binding = parse_binding(item, index, scope, d)
        if binding is None:
            continue
        if binding.id in seen:
            d("warn", "config-binding-id", f"bindings[{index}]", f"binding id {binding.id!r} used twice; the later one is ignored",
              "duplicate")
            continue
        seen.add(binding.id)
        out.append(binding)
    return out


def parse_binding(item: Any, index: int, scope: Scope, d) -> Binding | None:
    """One binding ``{id, profile, priority?, match: [rule, ...]}``, or ``None`` when it is
    dropped with a diagnostic.

    ``priority`` must be a finite number, default 0; a binding with a
    bad priority is dropped, never given another precedence. ``match`` needs at least one valid
    rule (:func:`parse_rule`). ``profile`` is a profile reference as written, never trimmed
    (PROF-CONFIG-BINDING-PROFILE-EXACT). Implements PROF-CONFIG-BINDING and PROF-CONFIG-PRIORITY.
    """
    subject = f"bindings[{index}]"
    if not isinstance(item, dict):
        d("warn", "config-binding", subject, "a binding must be an object; ignored")
        return None
    if not is_valid_id(item.get("id")):
        d("warn", "config-binding-id", subject, "a binding needs a valid id; ignored", "invalid")
        return None
    profile = parse_ref(item.get("profile"), scope)
    if profile is None:
        d("warn", "config-binding-profile", subject, "binding profile must be a profile reference; binding ignored")
        return None
    priority: float = 0
    if "priority" in item:
        p = item["priority"]
        if not is_number(p) or not math.isfinite(p):
            d("warn", "config-binding-priority", subject, "priority must be a finite number; binding ignored")
            return None
        priority = p
    for key in item:
        if key not in ("id", "profile", "priority", "match"):
            d("warn", "config-unknown", f"{subject}.{key}", f"unknown key {subject}.{key} kept but not interpreted")
    match = item.get("match")
    if not isinstance(match, list) or not match:
        d("warn", "config-binding-match", subject, "match must be a non-empty array of rules; binding ignored")
        return None
    rules: list[MatchRule] = []
    for rindex, rule in enumerate(match):
        parsed = parse_rule(rule)
        if parsed is None:
            d("warn", "config-binding-match", f"{subject}.match[{rindex}]",
              "a rule's provider and model must be non-empty strings and it has no other key; rule ignored")
        else:
            rules.append(parsed)
    if not rules:
        d("warn", "config-binding-match", subject, "no valid rule left; binding ignored")
        return None
    return Binding(item["id"], profile, priority, tuple(rules), index)


def parse_rule(rule: Any) -> MatchRule | None:
    """A rule ``{provider?, model?}``, or ``None`` when it is dropped.

    A present ``provider`` or ``model`` must be a non-empty string, and a rule with any other
    key is dropped too: a malformed or misspelt field never widens a rule to a wildcard.
    Implements PROF-CONFIG-RULE and PROF-CONFIG-RULE-KEYS.
    """
    if not isinstance(rule, dict):
        return None
    for key, value in rule.items():
        if key not in ("provider", "model"):
            return None
        if not isinstance(value, str) or value == "":
            return None
    return MatchRule(rule.get("provider"), rule.get("model"))

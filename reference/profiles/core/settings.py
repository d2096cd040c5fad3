"""The registry of editable config keys, and the effective value of a key (PROF-DECISION-CONFIG-EDITS)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

from reference.errors import SpecError
from reference.profiles.core.config import SUBAGENT_POLICIES
from reference.profiles.core.types import Config, Scope
from reference.text import js_trim


@dataclass(frozen=True)
class SettingSpec:
    """One editable scalar key of the settings registry (PROF-SETTINGS-REGISTRY).

    Attributes:
        key: the config key.
        values: accepted values for ``set`` (``None`` when ``set`` is not allowed).
        set_scopes: scopes where ``set`` is allowed; ``unset`` is allowed in both.
        default: the value when neither scope sets the key.
    """

    key: str
    values: tuple[Any, ...] | None
    set_scopes: tuple[Scope, ...]
    default: Any


REGISTRY: dict[str, SettingSpec] = {
    "subagents": SettingSpec("subagents", SUBAGENT_POLICIES, ("global", "project"), "bindings"),
    "inheritGlobalBindings": SettingSpec("inheritGlobalBindings", (True, False), ("project",), True),
    "selection": SettingSpec("selection", ("auto", "off"), ("global", "project"), "auto"),
    "defaultProfile": SettingSpec("defaultProfile", None, ("global", "project"), None),
}
"""The settings registry: ``subagents``, ``inheritGlobalBindings``, ``selection`` (``auto`` or
``off``; a manual selection has its own command) and ``defaultProfile`` (removal only).
Implements PROF-SETTINGS-REGISTRY."""


def setting_spec(key: str) -> SettingSpec:
    """The spec of ``key``; raises ``SpecError('setting-unknown')`` for any other key (keys are
    exact, case-sensitive config names)."""
    spec = REGISTRY.get(key)
    if spec is None:
        raise SpecError("setting-unknown", f"unknown setting {key!r}; known: {', '.join(REGISTRY)}", path="key")
    return spec


def parse_setting(key: str, value: str, scope: Scope) -> tuple[str, Any]:
    """Validate ``set KEY VALUE`` in ``scope`` before anything is written.

    ``value`` is the text the user typed (JavaScript's white space around it ignored,
    :func:`reference.text.js_trim`); booleans are
    ``true``/``false``. Returns ``(key, parsed value)``. Raises ``SpecError`` with
    ``setting-unknown``, ``setting-not-settable`` (``defaultProfile``: removal only),
    ``setting-scope`` (``inheritGlobalBindings`` outside the project) or
    ``setting-value-invalid``. Implements PROF-SETTINGS-PARSE.
    """
    spec = setting_spec(key)
    if spec.values is None:
        raise SpecError("setting-not-settable", f"{key} cannot be set here; it can only be removed", path="key")
    if scope not in spec.set_scopes:
        raise SpecError("setting-scope", f"{key} can only be set in the {' or '.join(spec.set_scopes)} config", path="scope")
    text = js_trim(value)
    parsed: Any = text
    if spec.key == "inheritGlobalBindings":
        parsed = {"true": True, "false": False}.get(text, text)
    if parsed not in spec.values or (isinstance(parsed, str) and not isinstance(spec.values[0], str)):
        shown = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in spec.values)
        raise SpecError("setting-value-invalid", f"{key} must be one of: {shown}", path="value")
    return spec.key, parsed


def apply_setting(raw: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A copy of the config object with ``key`` set; every other field, unknown ones included,
    is kept in place. ``selection`` is replaced whole with ``{"mode": value}``.
    Implements PROF-SETTINGS-APPLY."""
    out = copy.deepcopy(raw)
    out[key] = {"mode": value} if key == "selection" else value
    return out


def unset_setting(raw: dict[str, Any], key: str) -> dict[str, Any]:
    """A copy of the config object without ``key``. Raises ``SpecError('setting-unknown')`` or
    ``SpecError('setting-not-set')`` when the key is absent (nothing is written).
    Implements PROF-SETTINGS-UNSET."""
    spec = setting_spec(key)
    if spec.key not in raw:
        raise SpecError("setting-not-set", f"{key} is not set in this config", path="key")
    out = copy.deepcopy(raw)
    del out[spec.key]
    return out


def _value(cfg: Config | None, key: str) -> Any:
    if cfg is None:
        return None
    if key == "subagents":
        return cfg.subagents
    if key == "inheritGlobalBindings":
        return cfg.inherit_global_bindings
    if key == "selection":
        return cfg.selection.mode if cfg.selection else None
    if key == "defaultProfile":
        return str(cfg.default_profile) if cfg.default_profile else None
    return None


def effective_setting(global_cfg: Config | None, project_cfg: Config | None, key: str) -> tuple[Any, Literal["project", "global", "default"]]:
    """The value of ``key`` in force and where it came from: a valid project value, else a
    valid global value, else the registry default. ``project_cfg`` is ``None`` for an untrusted
    project. Invalid values were dropped at validation, so they never count.
    Implements PROF-SETTINGS-EFFECTIVE."""
    spec = setting_spec(key)
    for origin, cfg in (("project", project_cfg), ("global", global_cfg)):
        value = _value(cfg, key)
        if value is not None:
            return value, origin  # type: ignore[return-value]
    return spec.default, "default"

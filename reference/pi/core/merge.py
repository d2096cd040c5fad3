"""Composing ``models.json`` with the built-in providers (Pi's docs "Choose a Model";
PI-DECISION-MODELS): model defaults, additions, replacements, overrides, image-resize defaults and
prompt-cache lifetimes, over plain JSON data. Pure: no file system, no clock, no process
environment."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Mapping

from reference.errors import SpecError
from reference.pi.core.editions import PI_160, check_edition
from reference.pi.core.models_file import ConfigIssue, parse_models_json_text, validate_models_json
from reference.pi.core.sampling import override_levels

#: Defaults of a model added through ``models.json`` (PI-MODELS-DEFAULTS).
DEFAULT_CONTEXT_WINDOW = 128000
DEFAULT_MAX_TOKENS = 16384
DEFAULT_INPUT = ("text",)
DEFAULT_COST = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}

#: Defaults of omitted ``inputLimits.images.resize`` fields (PI-MODELS-IMAGE-RESIZE):
#: 2000 x 2000 pixels, 4.5 MiB of base64-encoded payload, JPEG quality 80.
IMAGE_RESIZE_DEFAULTS = {"maxWidth": 2000, "maxHeight": 2000, "maxBytes": 4718592, "jpegQuality": 80}

PROMPT_CACHE_TIERS = ("short", "long")


class CompositionError(Exception):
    """A provider's ``models.json`` entry cannot be composed; the message names the provider."""


def deep_merge(base: Any, override: Any) -> Any:
    """``override`` merged into ``base``: objects merge key by key, recursively; any other value
    (arrays, scalars, ``null``) replaces. Neither argument is modified."""
    if isinstance(base, dict) and isinstance(override, dict):
        out = copy.deepcopy(base)
        for key, value in override.items():
            out[key] = deep_merge(out.get(key), value) if key in out else copy.deepcopy(value)
        return out
    return copy.deepcopy(override)


def effective_image_resize(model: Mapping[str, Any]) -> dict[str, int]:
    """The resize profile used for new images: ``inputLimits.images.resize`` with every omitted field
    taken from :data:`IMAGE_RESIZE_DEFAULTS`.

    Implements PI-MODELS-IMAGE-RESIZE. Units: pixels, bytes of base64 payload, JPEG quality 1-100.
    """
    resize = ((model.get("inputLimits") or {}).get("images") or {}).get("resize") or {}
    return {key: resize.get(key) if resize.get(key) is not None else default for key, default in IMAGE_RESIZE_DEFAULTS.items()}


def cache_warming_tiers(model: Mapping[str, Any]) -> dict[str, bool]:
    """For each retention tier (``short``, ``long``), whether the model may be cache-warmed.

    Implements PI-MODELS-PROMPT-CACHE: a model without a lifetime for a tier is not eligible for
    cache warming in that tier.
    """
    cache = model.get("promptCache") or {}
    return {tier: cache.get(tier) is not None for tier in PROMPT_CACHE_TIERS}


def model_from_definition(provider_id: str, definition: Mapping[str, Any], api: str | None, base_url: str | None, compat: Any) -> dict[str, Any]:
    """A complete model from a ``models`` entry.

    Implements PI-MODELS-DEFAULTS: ``name`` defaults to the id, ``reasoning`` to false, ``input``
    to ``["text"]`` when absent (an empty list is kept, PI-MODELS-INPUT-AS-WRITTEN), ``cost`` to zero, ``contextWindow`` to 128000 tokens, ``maxTokens`` to 16384
    tokens; a field written as ``null`` is the field left out (PI-MODELS-NULL-FIELD); ``api`` and
    ``baseUrl`` come from the entry, else the provider (already resolved by the caller).

    Raises:
        CompositionError when no ``api`` or no ``baseUrl`` can be found.
    """
    model_id = definition["id"]
    if not api:
        raise CompositionError(f'provider "{provider_id}", model "{model_id}": no "api" at model or provider level')
    if not base_url:
        raise CompositionError(f'provider "{provider_id}", model "{model_id}": no "baseUrl" at model or provider level')
    merged_compat = deep_merge(compat or {}, definition.get("compat") or {}) or None
    return {
        "provider": provider_id,
        "id": model_id,
        "name": definition.get("name") or model_id,
        "api": api,
        "baseUrl": base_url,
        "reasoning": bool(definition.get("reasoning", False)),
        "input": list(DEFAULT_INPUT if definition.get("input") is None else definition["input"]),
        "contextWindow": DEFAULT_CONTEXT_WINDOW if definition.get("contextWindow") is None else definition["contextWindow"],
        "maxTokens": DEFAULT_MAX_TOKENS if definition.get("maxTokens") is None else definition["maxTokens"],
        "cost": copy.deepcopy(definition.get("cost") or DEFAULT_COST),
        "inputLimits": copy.deepcopy(definition.get("inputLimits")),
        "promptCache": copy.deepcopy(definition.get("promptCache")),
        "thinkingLevelMap": copy.deepcopy(definition.get("thinkingLevelMap")),
        "samplingParams": copy.deepcopy(definition.get("samplingParams")),
        "samplingParamsByThinkingLevel": copy.deepcopy(definition.get("samplingParamsByThinkingLevel")),
        "compat": merged_compat,
    }


_OVERRIDE_REPLACED = ("name", "reasoning", "input", "contextWindow", "maxTokens")
_OVERRIDE_MERGED = ("thinkingLevelMap", "inputLimits", "cost", "promptCache", "samplingParams", "samplingParamsByThinkingLevel", "compat")


def apply_model_override(model: Mapping[str, Any], override: Mapping[str, Any], edition: str | None = None) -> dict[str, Any]:
    """``model`` with one ``modelOverrides`` entry applied, as ``edition`` (``None``:
    ``pi-0.99.4``) describes it.

    Implements PI-MODELS-OVERRIDE-MERGE: object fields (``cost``, ``inputLimits``, ``promptCache``,
    ``thinkingLevelMap``, ``compat``, ``samplingParams``...) merge into the model's value field by
    field, recursively; other fields (``name``, ``reasoning``, ``input``, ``contextWindow``,
    ``maxTokens``, and arrays such as ``cost.tiers``) replace it. ``headers`` are request headers and
    are applied by :func:`resolve_request_auth`. A field written as ``null`` leaves the model's
    value as it is (PI-MODELS-NULL-FIELD). In edition ``pi-1.6.0``
    ``samplingParamsByThinkingLevel`` merges per level and per key instead
    (:func:`reference.pi.core.sampling.override_levels`, PI-160-MODELS-SAMPLING-OVERRIDE).

    Raises ``ValueError`` for an unknown edition.
    """
    per_key_levels = check_edition(edition) == PI_160
    out = copy.deepcopy(dict(model))
    for key in _OVERRIDE_REPLACED:
        if override.get(key) is not None:
            out[key] = copy.deepcopy(override[key])
    for key in _OVERRIDE_MERGED:
        if override.get(key) is None:
            continue
        if per_key_levels and key == "samplingParamsByThinkingLevel":
            out[key] = override_levels(out.get(key), override[key])
        else:
            out[key] = deep_merge(out.get(key) or {}, override[key])
    return out


def _defaults_for(models: list[dict[str, Any]], model_id: str, api: str | None) -> dict[str, Any] | None:
    """The existing model whose ``api``/``baseUrl`` a new entry inherits: the same id, else the same
    api, else the first ``openai-completions`` model, else the first model, or ``None`` when the
    provider has none. Implements PI-MODELS-DEFAULTS-EXISTING."""
    for cond in (
        lambda m: m["id"] == model_id,
        lambda m: api is not None and m["api"] == api,
        lambda m: m["api"] == "openai-completions",
        lambda m: True,
    ):
        for m in models:
            if cond(m):
                return m
    return None


@dataclass
class Provider:
    """A composed provider.

    Attributes:
        id, name, baseUrl: as composed (``baseUrl`` may be ``None`` for a built-in without one).
        builtin: the built-in description, or ``None`` for a provider only ``models.json`` defines.
        config: the provider's ``models.json`` entry in force, or ``None`` (none, or it failed to
            compose and was dropped).
        models: the provider's chat models, in order: built-in order, replacements in place, then
            additions in file order.
    """

    id: str
    name: str
    baseUrl: str | None
    builtin: dict[str, Any] | None
    config: dict[str, Any] | None
    models: list[dict[str, Any]] = field(default_factory=list)


def builtin_provider(provider_id: str, builtin: Mapping[str, Any]) -> Provider:
    """A built-in provider as described by the caller, its models completed with the same defaults
    as ``models.json`` entries (see :func:`model_from_definition`).

    ``builtin`` is ``{"name"?: str, "baseUrl": str, "api": str, "env": [VAR, ...], "requiredEnv"?:
    [VAR, ...], "models": [model definition, ...]}``: ``env`` lists the variables that can hold its
    API key (first set one wins); ``requiredEnv`` lists variables that must also be set (or carried
    by a stored credential's ``env``) for the environment or a stored credential to make the
    provider usable (:mod:`reference.pi.core.credentials`).

    Raises:
        SpecError ``builtin-provider-invalid`` when a built-in model has no ``api`` or ``baseUrl``.
    """
    try:
        return _builtin_provider(provider_id, builtin)
    except CompositionError as exc:
        raise SpecError("builtin-provider-invalid", str(exc), path=f"builtins.{provider_id}") from exc


def _builtin_provider(provider_id: str, builtin: Mapping[str, Any]) -> Provider:
    models = [
        model_from_definition(provider_id, d, d.get("api") or builtin.get("api"), d.get("baseUrl") or builtin.get("baseUrl"), None)
        for d in builtin.get("models") or []
    ]
    return Provider(provider_id, builtin.get("name") or provider_id, builtin.get("baseUrl"), dict(builtin), None, models)


_MEANINGFUL = ("models", "baseUrl", "headers", "compat", "apiKey", "oauth", "authHeader")


def compose_provider(provider_id: str, builtin: Mapping[str, Any] | None, config: Mapping[str, Any] | None,
                     edition: str | None = None) -> Provider:
    """Compose one provider from its built-in description and its ``models.json`` entry, as
    ``edition`` (``None``: ``pi-0.99.4``) describes it.

    Implements PI-MODELS-PROVIDER-FIELDS (``baseUrl`` also applies to built-in models, ``api`` is the
    default api of the provider's entries), PI-MODELS-ADD-REPLACE (a ``models`` entry adds a model,
    or replaces the model with the same id in place), and PI-MODELS-OVERRIDE-UNKNOWN (overrides
    naming no model are ignored). Overrides apply last, to built-in and added models alike.
    Implements PI-MODELS-PROVIDER-COMPAT (the entry's ``compat`` under each model's own, built-in
    and added models alike).
    Implements PI-160-MODELS-PROXY: an entry that sets only ``baseUrl`` on a built-in provider keeps
    every built-in model (with the new ``baseUrl``) and leaves authentication to the built-in
    provider, since the entry configures no key.

    Raises:
        CompositionError when the entry sets nothing usable, sets ``oauth`` without ``baseUrl``, or
        a model lacks ``api`` or ``baseUrl``.
    """
    base = builtin_provider(provider_id, builtin) if builtin is not None else None
    if config is None:
        if base is None:
            raise CompositionError(f'provider "{provider_id}" is not defined')
        return base
    if config.get("oauth") and not config.get("baseUrl"):
        raise CompositionError(f'provider "{provider_id}": "baseUrl" is required when "oauth" is set')
    overrides = config.get("modelOverrides") or {}
    if not overrides and not any(config.get(key) is not None and config.get(key) != [] for key in _MEANINGFUL):
        raise CompositionError(f'provider "{provider_id}": must set "baseUrl", "headers", "compat", "apiKey", "modelOverrides" or "models"')
    models: list[dict[str, Any]] = []
    for m in base.models if base else []:
        m = dict(m)
        if config.get("baseUrl"):
            m["baseUrl"] = config["baseUrl"]
        if config.get("compat"):
            m["compat"] = deep_merge(config["compat"], m.get("compat") or {})
        models.append(m)
    for definition in config.get("models") or []:
        defaults = _defaults_for(models, definition["id"], definition.get("api") or config.get("api"))
        api = definition.get("api") or config.get("api") or (defaults or {}).get("api") or (builtin or {}).get("api")
        base_url = definition.get("baseUrl") or config.get("baseUrl") or (defaults or {}).get("baseUrl") or (builtin or {}).get("baseUrl")
        model = model_from_definition(provider_id, definition, api, base_url, config.get("compat"))
        index = next((i for i, m in enumerate(models) if m["id"] == model["id"]), None)
        if index is None:
            models.append(model)
        else:
            models[index] = model
    models = [apply_model_override(m, overrides[m["id"]], edition) if m["id"] in overrides else m for m in models]
    name = config.get("name") or (base.name if base else provider_id)
    base_url = config.get("baseUrl") or (base.baseUrl if base else None)
    return Provider(provider_id, name, base_url, dict(builtin) if builtin is not None else None, dict(config), models)


@dataclass
class Registry:
    """The providers in force after loading ``models.json`` over the built-ins.

    Attributes:
        providers: composed providers by id.
        issues: the file-level issue(s) (then no entry of the file is in force) and one
            ``provider-composition`` issue per provider whose entry was dropped.
    """

    providers: dict[str, Provider]
    issues: list[ConfigIssue]


def build_registry(builtins: Mapping[str, Mapping[str, Any]], models_json: Any = None, models_json_text: str | None = None,
                   edition: str | None = None) -> Registry:
    """Load ``models.json`` (as data or as text; neither means no file) over the built-in providers,
    as ``edition`` (``None``: ``pi-0.99.4``) describes it.

    A file with a parse or schema issue is not in force at all; the built-ins stay. Implements
    PI-MODELS-COMPOSITION-ERROR (a provider whose entry cannot be composed keeps its built-in
    definition; a provider only the file defines is then absent).
    """
    issues: list[ConfigIssue] = []
    configs: dict[str, Any] = {}
    if models_json_text is not None:
        parsed, issues = parse_models_json_text(models_json_text)
        configs = parsed or {}
    elif models_json is not None:
        parsed, issues = validate_models_json(models_json)
        configs = parsed or {}
    providers: dict[str, Provider] = {}
    for provider_id in sorted(set(builtins) | set(configs)):
        builtin = builtins.get(provider_id)
        try:
            providers[provider_id] = compose_provider(provider_id, builtin, configs.get(provider_id), edition)
        except CompositionError as exc:
            issues.append(ConfigIssue("provider-composition", str(exc), provider=provider_id))
            if builtin is not None:
                providers[provider_id] = builtin_provider(provider_id, builtin)
    return Registry(providers, issues)


def find_model(registry: Registry, provider_id: str, model_id: str) -> dict[str, Any]:
    """The composed model ``provider_id/model_id``.

    Raises:
        SpecError ``model-unknown`` when the registry has no such model.
    """
    provider = registry.providers.get(provider_id)
    for m in provider.models if provider else []:
        if m["id"] == model_id:
            return m
    raise SpecError("model-unknown", f'no model "{model_id}" on provider "{provider_id}"')

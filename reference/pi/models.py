"""``models.json``: validation, composition with the built-in providers, model defaults, overrides,
image-resize defaults, prompt-cache lifetimes, credentials and availability (seed 003 "Choose a
Model"; note N23).

Shapes are plain JSON data (``dict``/``list``). A *built-in provider* is described as::

    {"name"?: str, "baseUrl": str, "api": str, "env": [VAR, ...], "requiredEnv"?: [VAR, ...],
     "models": [model definition, ...]}

``env`` lists the variables that can hold its API key (first set one wins); ``requiredEnv`` lists
variables that must also be set (or carried by a stored credential's ``env``) for the environment
or a stored credential to make the provider usable.

Pure: no file system, no clock, no process environment. Commands run through the caller's
:data:`~reference.pi.values.CommandRunner`.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reference.errors import SpecError
from reference.pi.values import (
    CommandRunner,
    ConfigValue,
    describe_unresolved,
    env_value,
    missing_env_names,
    parse_config_value,
    resolve_config_value,
)

#: Defaults of a model added through ``models.json`` (PI-MODELS-DEFAULTS).
DEFAULT_CONTEXT_WINDOW = 128000
DEFAULT_MAX_TOKENS = 16384
DEFAULT_INPUT = ("text",)
DEFAULT_COST = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}

#: Defaults of omitted ``inputLimits.images.resize`` fields (PI-MODELS-IMAGE-RESIZE):
#: 2000 x 2000 pixels, 4.5 MiB of base64-encoded payload, JPEG quality 80.
IMAGE_RESIZE_DEFAULTS = {"maxWidth": 2000, "maxHeight": 2000, "maxBytes": 4718592, "jpegQuality": 80}

PROMPT_CACHE_TIERS = ("short", "long")

SOURCE_RUNTIME = "runtime"
SOURCE_AUTH_JSON = "auth.json"
SOURCE_MODELS_JSON = "models.json"
SOURCE_ENVIRONMENT = "environment"


# --------------------------------------------------------------------------------------------------
# Schema


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class _Resize(_Strict):
    maxWidth: Optional[int] = Field(default=None, ge=1)
    maxHeight: Optional[int] = Field(default=None, ge=1)
    maxBytes: Optional[int] = Field(default=None, ge=1)
    jpegQuality: Optional[int] = Field(default=None, ge=1, le=100)


class _Images(_Strict):
    resize: Optional[_Resize] = None
    maxPerMessage: Optional[int] = Field(default=None, ge=1)
    maxPerRequest: Optional[int] = Field(default=None, ge=1)


class _InputLimits(_Strict):
    maxRequestBytes: Optional[int] = Field(default=None, ge=1)
    images: Optional[_Images] = None


class _PromptCache(_Strict):
    short: Optional[float] = Field(default=None, gt=0)
    long: Optional[float] = Field(default=None, gt=0)


class _CostTier(_Strict):
    inputTokensAbove: float
    input: float
    output: float
    cacheRead: float
    cacheWrite: float


class _Cost(_Strict):
    input: float
    output: float
    cacheRead: float
    cacheWrite: float
    tiers: Optional[list[_CostTier]] = None


class _PartialCost(_Strict):
    input: Optional[float] = None
    output: Optional[float] = None
    cacheRead: Optional[float] = None
    cacheWrite: Optional[float] = None
    tiers: Optional[list[_CostTier]] = None


class _ThinkingLevelMap(_Strict):
    off: Optional[str] = None
    minimal: Optional[str] = None
    low: Optional[str] = None
    medium: Optional[str] = None
    high: Optional[str] = None
    xhigh: Optional[str] = None
    max: Optional[str] = None


class _ModelFields(_Strict):
    name: Optional[str] = Field(default=None, min_length=1)
    reasoning: Optional[bool] = None
    thinkingLevelMap: Optional[_ThinkingLevelMap] = None
    input: Optional[list[Literal["text", "image"]]] = None
    inputLimits: Optional[_InputLimits] = None
    promptCache: Optional[_PromptCache] = None
    contextWindow: Optional[float] = Field(default=None, gt=0)
    maxTokens: Optional[float] = Field(default=None, gt=0)
    samplingParams: Optional[dict[str, Any]] = None
    samplingParamsByThinkingLevel: Optional[dict[str, dict[str, Any]]] = None
    headers: Optional[dict[str, str]] = None
    compat: Optional[dict[str, Any]] = None


class _ModelDefinition(_ModelFields):
    id: str = Field(min_length=1)
    api: Optional[str] = Field(default=None, min_length=1)
    baseUrl: Optional[str] = Field(default=None, min_length=1)
    cost: Optional[_Cost] = None


class _ModelOverride(_ModelFields):
    cost: Optional[_PartialCost] = None


class _Provider(_Strict):
    name: Optional[str] = Field(default=None, min_length=1)
    baseUrl: Optional[str] = Field(default=None, min_length=1)
    apiKey: Optional[str] = Field(default=None, min_length=1)
    api: Optional[str] = Field(default=None, min_length=1)
    oauth: Optional[Literal["radius"]] = None
    headers: Optional[dict[str, str]] = None
    compat: Optional[dict[str, Any]] = None
    authHeader: Optional[bool] = None
    models: Optional[list[_ModelDefinition]] = None
    modelOverrides: Optional[dict[str, _ModelOverride]] = None


class _ModelsFile(_Strict):
    schema_: Optional[str] = Field(default=None, alias="$schema")
    providers: dict[str, _Provider]


@dataclass(frozen=True)
class ConfigIssue:
    """A problem with ``models.json`` or with one provider in it.

    Attributes:
        code: ``models-json-parse``, ``models-json-schema`` or ``provider-composition``.
        path: dotted path of the bad field (``providers.ollama.models.0.id``), ``root`` for the
            whole document, or ``None`` for a composition issue.
        provider: the provider concerned (composition issues only).
        message: human-readable text naming the path or provider.
    """

    code: str
    message: str
    path: str | None = None
    provider: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "path": self.path, "provider": self.provider, "message": self.message}


def _format_loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "root"


def validate_models_json(data: Any) -> tuple[dict[str, Any] | None, list[ConfigIssue]]:
    """Check a parsed ``models.json`` document against the schema.

    Implements PI-MODELS-SCHEMA: any schema error invalidates the whole file; each issue names the
    dotted path of the bad field. Unknown keys are ignored.

    Args:
        data: the parsed JSON document.
    Returns:
        ``(providers, [])`` where ``providers`` maps provider id to its raw configuration (a deep
        copy of the input, unknown keys kept), or ``(None, issues)`` with the issues sorted by path.
    """
    if not isinstance(data, dict):
        return None, [ConfigIssue("models-json-schema", "root: expected an object", path="root")]
    try:
        _ModelsFile.model_validate(data)
    except ValidationError as exc:
        seen: dict[str, ConfigIssue] = {}
        for err in exc.errors():
            path = _format_loc(tuple(err["loc"]))
            if path not in seen:
                seen[path] = ConfigIssue("models-json-schema", f"{path}: {err['msg']}", path=path)
        return None, [seen[p] for p in sorted(seen)]
    return copy.deepcopy(data["providers"]), []


_STRING_OR_COMMENT = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*')
_STRING_OR_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])')


def strip_json_comments(text: str) -> str:
    """``text`` without ``//`` line comments and without commas directly before ``}`` or ``]``;
    string literals are left untouched.

    Implements PI-MODELS-JSON-COMMENTS.
    """
    text = _STRING_OR_COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)
    return _STRING_OR_TRAILING_COMMA.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(0), text)


def parse_models_json_text(text: str) -> tuple[dict[str, Any] | None, list[ConfigIssue]]:
    """Parse ``models.json`` text (a leading BOM is ignored, comments and trailing commas are
    allowed, see :func:`strip_json_comments`) and validate it.

    Text that is not JSON is reported like a schema error (:func:`validate_models_json`), with code
    ``models-json-parse`` and path ``root``.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(strip_json_comments(text))
    except json.JSONDecodeError as exc:
        return None, [ConfigIssue("models-json-parse", f"root: not valid JSON: {exc.msg} at line {exc.lineno}", path="root")]
    return validate_models_json(data)


# --------------------------------------------------------------------------------------------------
# Models and composition


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
    to ``["text"]``, ``cost`` to zero, ``contextWindow`` to 128000 tokens, ``maxTokens`` to 16384
    tokens; ``api`` and ``baseUrl`` come from the entry, else the provider (already resolved by the
    caller).

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
        "input": list(definition.get("input") or DEFAULT_INPUT),
        "contextWindow": definition.get("contextWindow", DEFAULT_CONTEXT_WINDOW),
        "maxTokens": definition.get("maxTokens", DEFAULT_MAX_TOKENS),
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


def apply_model_override(model: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``model`` with one ``modelOverrides`` entry applied.

    Implements PI-MODELS-OVERRIDE-MERGE: object fields (``cost``, ``inputLimits``, ``promptCache``,
    ``thinkingLevelMap``, ``compat``, ``samplingParams``...) merge into the model's value field by
    field, recursively; other fields (``name``, ``reasoning``, ``input``, ``contextWindow``,
    ``maxTokens``, and arrays such as ``cost.tiers``) replace it. ``headers`` are request headers and
    are applied by :func:`resolve_request_auth`.
    """
    out = copy.deepcopy(dict(model))
    for key in _OVERRIDE_REPLACED:
        if override.get(key) is not None:
            out[key] = copy.deepcopy(override[key])
    for key in _OVERRIDE_MERGED:
        if override.get(key) is not None:
            out[key] = deep_merge(out.get(key) or {}, override[key])
    return out


def _defaults_for(models: list[dict[str, Any]], model_id: str, api: str | None) -> dict[str, Any] | None:
    """The existing model whose ``api``/``baseUrl`` a new entry inherits: the same id, else the same
    api, else the first ``openai-completions`` model, else the first model."""
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


def compose_provider(provider_id: str, builtin: Mapping[str, Any] | None, config: Mapping[str, Any] | None) -> Provider:
    """Compose one provider from its built-in description and its ``models.json`` entry.

    Implements PI-MODELS-PROVIDER-FIELDS (``baseUrl`` also applies to built-in models, ``api`` is the
    default api of the provider's entries), PI-MODELS-ADD-REPLACE (a ``models`` entry adds a model,
    or replaces the model with the same id in place), and PI-MODELS-OVERRIDE-UNKNOWN (overrides
    naming no model are ignored). Overrides apply last, to built-in and added models alike.

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
            m["compat"] = deep_merge(m.get("compat") or {}, config["compat"])
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
    models = [apply_model_override(m, overrides[m["id"]]) if m["id"] in overrides else m for m in models]
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


def build_registry(builtins: Mapping[str, Mapping[str, Any]], models_json: Any = None, models_json_text: str | None = None) -> Registry:
    """Load ``models.json`` (as data or as text; neither means no file) over the built-in providers.

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
            providers[provider_id] = compose_provider(provider_id, builtin, configs.get(provider_id))
        except CompositionError as exc:
            issues.append(ConfigIssue("provider-composition", str(exc), provider=provider_id))
            if builtin is not None:
                providers[provider_id] = builtin_provider(provider_id, builtin)
    return Registry(providers, issues)


# --------------------------------------------------------------------------------------------------
# Credentials (N23)


@dataclass(frozen=True)
class Credentials:
    """The explicit inputs of credential resolution.

    Attributes:
        env: the environment variables (an empty value counts as unset).
        auth_json: stored credentials by provider id: ``{"type": "api_key", "key": str, "env"?: {...}}``
            or ``{"type": "oauth", "access": str}``.
        runtime_keys: keys given at run time (``--api-key``) by provider id.
    """

    env: Mapping[str, str] = field(default_factory=dict)
    auth_json: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    runtime_keys: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class EnvAuth:
    """How the environment authenticates a provider: ``key_vars`` (the first set one is the key) and
    ``required_vars`` (must also be set, in the environment or in a stored credential's ``env``)."""

    key_vars: tuple[str, ...] = ()
    required_vars: tuple[str, ...] = ()


def _stored_key(entry: Mapping[str, Any] | None) -> str | None:
    if not isinstance(entry, Mapping):
        return None
    key = entry.get("key") if entry.get("type", "api_key") == "api_key" else entry.get("access")
    return key if isinstance(key, str) and key else None


def _required_present(env_auth: EnvAuth, env: Mapping[str, str]) -> bool:
    return all(env_value(name, env) is not None for name in env_auth.required_vars)


def _credential_env(creds: Credentials, provider_id: str) -> dict[str, str]:
    entry = creds.auth_json.get(provider_id) or {}
    extra = entry.get("env") if isinstance(entry, Mapping) else None
    env = dict(creds.env)
    if isinstance(extra, Mapping):
        env.update({k: v for k, v in extra.items() if isinstance(v, str)})
    return env


def configured_source(provider_id: str, config: Mapping[str, Any] | None, env_auth: EnvAuth, creds: Credentials) -> str | None:
    """The credential source that decides for ``provider_id``, or ``None`` when it has none.

    Implements PI-CRED-PRECEDENCE: runtime key, then a stored ``auth.json`` credential, then the
    ``models.json`` ``apiKey``, then the environment; the first source that is configured decides
    and later ones are never consulted. A ``models.json`` ``apiKey`` naming an unset or empty
    variable makes the provider unconfigured (no fall-back to the environment, N23); a ``!command``
    key counts as configured without running it. Runs no command.

    Implements PI-CRED-REQUIRED-ENV: variables a provider needs besides its key (Cloudflare's
    ``CLOUDFLARE_ACCOUNT_ID``) must be set in the environment or carried by the stored credential's
    ``env`` for a runtime key, a stored key or the environment to make it usable.
    """
    env = _credential_env(creds, provider_id)
    if creds.runtime_keys.get(provider_id):
        return SOURCE_RUNTIME if _required_present(env_auth, env) else None
    if _stored_key(creds.auth_json.get(provider_id)) is not None:
        return SOURCE_AUTH_JSON if _required_present(env_auth, env) else None
    raw_key = (config or {}).get("apiKey")
    if raw_key is not None:
        parsed = parse_config_value(raw_key)
        if parsed.kind == "template" and missing_env_names(parsed, creds.env):
            return None
        return SOURCE_MODELS_JSON
    if any(env_value(name, creds.env) for name in env_auth.key_vars) and _required_present(env_auth, creds.env):
        return SOURCE_ENVIRONMENT
    return None


@dataclass
class AuthResult:
    """Request-time authentication of one model.

    Attributes:
        ok: whether a request can be sent.
        source: the deciding credential source (see :func:`configured_source`), or ``None``.
        apiKey: the resolved key, or ``None`` when the request cannot be sent.
        headers: the resolved request headers (``models.json`` provider headers, then model
            headers), or ``{}``.
        failure: ``None``, or ``{"code": ..., ...}`` with ``code`` one of ``auth-not-configured``,
            ``api-key-unresolved`` (with ``variables`` or ``command``), ``header-unresolved`` (with
            ``header`` and ``variables`` or ``command``), ``auth-header-without-key``.
        message: text for a failure, naming the provider, header and variable(s); ``None`` when ok.
    """

    ok: bool
    source: str | None
    apiKey: str | None
    headers: dict[str, str]
    failure: dict[str, Any] | None = None
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "source": self.source,
            "apiKey": self.apiKey,
            "headers": dict(self.headers),
            "failure": self.failure,
            "message": self.message,
        }


def _unresolved_failure(code: str, parsed: ConfigValue, env: Mapping[str, str], **extra: Any) -> dict[str, Any]:
    failure: dict[str, Any] = {"code": code, **extra}
    if parsed.kind == "command":
        failure["command"] = parsed.command
    else:
        failure["variables"] = missing_env_names(parsed, env)
    return failure


def merge_headers(base: Mapping[str, str], override: Mapping[str, str]) -> dict[str, str]:
    """``override`` over ``base``, header names compared without regard to case (the later spelling
    is kept)."""
    out = dict(base)
    for name, value in override.items():
        for existing in [k for k in out if k.lower() == name.lower()]:
            del out[existing]
        out[name] = value
    return out


def raw_request_headers(config: Mapping[str, Any] | None, model_id: str) -> dict[str, str]:
    """The unresolved header values that apply to ``model_id``.

    Implements PI-CRED-HEADER-LAYERS: the provider's ``headers``, then the model's ``models`` entry
    ``headers``, then its ``modelOverrides`` entry ``headers``; a later layer replaces a header of
    the same name compared without regard to case.
    """
    config = config or {}
    headers = dict(config.get("headers") or {})
    for definition in config.get("models") or []:
        if definition.get("id") == model_id and definition.get("headers"):
            headers = merge_headers(headers, definition["headers"])
    override = (config.get("modelOverrides") or {}).get(model_id) or {}
    if override.get("headers"):
        headers = merge_headers(headers, override["headers"])
    return headers


def resolve_request_auth(
    provider_id: str,
    model_id: str,
    config: Mapping[str, Any] | None,
    env_auth: EnvAuth,
    creds: Credentials,
    runner: CommandRunner | None,
) -> AuthResult:
    """Resolve the key and headers for one request.

    Uses the precedence of :func:`configured_source`. Implements PI-CRED-MODELS-JSON-UNRESOLVED (a
    ``models.json`` key that does not resolve fails the request, it never falls back to the
    environment) and PI-CRED-HEADER-MISSING (a header value that does not resolve fails the request's
    auth with a message naming the header and the variable). With ``authHeader: true`` the key is
    also sent as ``Authorization: Bearer KEY``.
    """
    config = config or {}
    env = _credential_env(creds, provider_id)
    source = configured_source(provider_id, config, env_auth, creds)
    key: str | None = None
    if source is None:
        raw_key = config.get("apiKey")
        if raw_key is not None:
            parsed = parse_config_value(raw_key)
            what = f'the API key of provider "{provider_id}"'
            return AuthResult(False, SOURCE_MODELS_JSON, None, {}, _unresolved_failure("api-key-unresolved", parsed, creds.env), describe_unresolved(parsed, creds.env, what))
        missing = [name for name in env_auth.required_vars if env_value(name, env) is None]
        message = f'provider "{provider_id}" has no usable credentials'
        if missing:
            message += f" ({', '.join(missing)} unset or empty)"
        return AuthResult(False, None, None, {}, {"code": "auth-not-configured"}, message)
    if source == SOURCE_RUNTIME:
        key = creds.runtime_keys[provider_id]
    elif source == SOURCE_AUTH_JSON:
        key = _stored_key(creds.auth_json.get(provider_id))
    elif source == SOURCE_MODELS_JSON:
        parsed = parse_config_value(config["apiKey"])
        key = resolve_config_value(parsed, creds.env, runner)
        if key is None:
            what = f'the API key of provider "{provider_id}"'
            return AuthResult(False, source, None, {}, _unresolved_failure("api-key-unresolved", parsed, creds.env), describe_unresolved(parsed, creds.env, what))
    else:
        key = next(env_value(n, creds.env) for n in env_auth.key_vars if env_value(n, creds.env))
    headers: dict[str, str] = {}
    for name, raw in raw_request_headers(config, model_id).items():
        parsed = parse_config_value(raw)
        value = resolve_config_value(parsed, env, runner)
        if value is None:
            what = f'header "{name}" of provider "{provider_id}"'
            return AuthResult(False, source, None, {}, _unresolved_failure("header-unresolved", parsed, env, header=name), describe_unresolved(parsed, env, what))
        headers[name] = value
    if config.get("authHeader"):
        if not key:
            return AuthResult(False, source, None, {}, {"code": "auth-header-without-key"}, f'provider "{provider_id}" sets "authHeader" but has no API key')
        headers = merge_headers(headers, {"Authorization": f"Bearer {key}"})
    return AuthResult(True, source, key, headers)


def env_auth_of(builtin: Mapping[str, Any] | None) -> EnvAuth:
    """The :class:`EnvAuth` of a built-in provider description (none for a custom provider)."""
    if not builtin:
        return EnvAuth()
    return EnvAuth(tuple(builtin.get("env") or ()), tuple(builtin.get("requiredEnv") or ()))


def available_models(registry: Registry, creds: Credentials) -> list[dict[str, Any]]:
    """The chat models offered for selection: every model of every provider that has a configured
    credential source, providers by id, models in provider order.

    Implements PI-MODELS-AVAILABILITY: a model is offered only when its provider has usable
    authentication; a keyless endpoint needs its dummy ``apiKey``. No command is run.
    """
    out = []
    for provider_id in sorted(registry.providers):
        provider = registry.providers[provider_id]
        if configured_source(provider_id, provider.config, env_auth_of(provider.builtin), creds) is None:
            continue
        out.extend({"provider": provider_id, "id": m["id"]} for m in provider.models)
    return out


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

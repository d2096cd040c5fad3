"""Credentials: which source authenticates a provider, and the key and headers of one request
(Pi's docs "Choose a Model"; PI-DECISION-MODELS).

Pure: the environment, stored credentials and runtime keys are explicit inputs
(:class:`Credentials`); commands run through the caller's
:data:`~reference.pi.core.values.CommandRunner`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from reference.pi.core.values import (
    CommandRunner,
    ConfigValue,
    describe_unresolved,
    env_value,
    missing_env_names,
    parse_config_value,
    resolve_config_value,
)

SOURCE_RUNTIME = "runtime"
SOURCE_AUTH_JSON = "auth.json"
SOURCE_MODELS_JSON = "models.json"
SOURCE_ENVIRONMENT = "environment"


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
    """The key a stored ``auth.json`` credential gives, or ``None``: ``key`` of an API key entry
    (one without ``type`` is one, PI-CRED-STORED-UNTYPED), ``access`` of an OAuth entry."""
    if not isinstance(entry, Mapping):
        return None
    key = entry.get("key") if entry.get("type", "api_key") == "api_key" else entry.get("access")
    return key if isinstance(key, str) and key else None


def _required_present(env_auth: EnvAuth, env: Mapping[str, str]) -> bool:
    return all(env_value(name, env) is not None for name in env_auth.required_vars)


def _credential_env(creds: Credentials, provider_id: str) -> dict[str, str]:
    """The environment with the provider's stored credential's ``env`` over it, for header values
    and required variables (PI-CRED-STORED-ENV)."""
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
    and later ones are never consulted; an empty runtime key, stored key or variable configures
    nothing (PI-CRED-EMPTY-NOT-CONFIGURED). A ``models.json`` ``apiKey`` naming an unset or empty
    variable makes the provider unconfigured (no fall-back to the environment, PI-DECISION-MODELS); a ``!command``
    key counts as configured without running it. Runs no command.

    Implements PI-CRED-REQUIRED-ENV: variables a provider needs besides its key (Cloudflare's
    ``CLOUDFLARE_ACCOUNT_ID``) must be set in the environment or carried by the stored credential's
    ``env`` for any source of the key (runtime, stored, ``models.json`` or the environment) to make
    it usable.
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
        return SOURCE_MODELS_JSON if _required_present(env_auth, env) else None
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
    auth with a message naming the header and the variable). Implements PI-CRED-AUTH-HEADER: with
    ``authHeader: true`` the key is also sent as ``Authorization: Bearer KEY``, replacing an
    ``Authorization`` header of any case.
    """
    config = config or {}
    env = _credential_env(creds, provider_id)
    source = configured_source(provider_id, config, env_auth, creds)
    key: str | None = None
    if source is None:
        raw_key = config.get("apiKey")
        parsed = parse_config_value(raw_key) if raw_key is not None else None
        if parsed is not None and parsed.kind == "template" and missing_env_names(parsed, creds.env):
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

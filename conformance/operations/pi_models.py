"""Operations of ``models.json`` and credentials (Pi's docs "Choose a Model", PI-DECISION-MODELS),
mapped onto Pi's model registry. Built-in providers, environment variables and ``!command`` values
come only from the case (``builtins``, ``env``), never from an implementation's own catalogue or
process, so that no case depends on catalogue data."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from conformance.judge.normalise import normaliser
from conformance.operations.base import OpModel, operation


class BuiltinModel(OpModel):
    """A built-in model definition: its ``id`` is required (every model is found by it); every
    other field of a ``models.json`` model definition may be given."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)


class BuiltinProvider(OpModel):
    """A built-in provider as a case describes it: ``env`` lists the variables that can hold its API
    key (first set one wins), ``requiredEnv`` those that must also be set; ``models`` are model
    definitions completed with the ``models.json`` defaults."""

    name: str | None = None
    baseUrl: str | None = None
    api: str | None = None
    env: list[str] = []
    requiredEnv: list[str] = []
    models: list[BuiltinModel] = []


class ValueInput(OpModel):
    """One ``apiKey`` or header value and the environment."""

    value: str
    env: dict[str, str] = {}


class ValueOutput(OpModel):
    """``form``: ``literal``, ``env`` or ``command``; ``variables``: names read, in order;
    ``resolved``: the value, or ``null`` when unresolved."""

    form: Literal["literal", "env", "command"]
    variables: list[str]
    resolved: str | None


class ModelsLoadInput(OpModel):
    """Built-in providers and ``models.json`` given as data (``modelsJson``) or as raw text
    (``modelsJsonText``); neither means no file."""

    builtins: dict[str, BuiltinProvider] = {}
    modelsJson: Any = None
    modelsJsonText: str | None = None


class ModelOut(OpModel):
    """A composed chat model. ``imageResize`` is the effective resize profile (defaults filled in);
    ``cacheWarming`` says per tier whether the model may be cache-warmed."""

    provider: str
    id: str
    name: str
    api: str
    baseUrl: str
    reasoning: bool
    input: list[str]
    contextWindow: float
    maxTokens: float
    cost: dict[str, Any]
    inputLimits: dict[str, Any] | None
    imageResize: dict[str, int]
    promptCache: dict[str, Any] | None
    cacheWarming: dict[str, bool]
    thinkingLevelMap: dict[str, Any] | None
    samplingParams: dict[str, Any] | None
    samplingParamsByThinkingLevel: dict[str, Any] | None
    compat: dict[str, Any] | None


class ProviderOut(OpModel):
    """A composed provider and its chat models (built-in order, replacements in place, additions in
    file order)."""

    id: str
    name: str
    baseUrl: str | None
    models: list[ModelOut]


class Issue(OpModel):
    """A ``models.json`` problem: ``models-json-parse`` / ``models-json-schema`` (with the dotted
    ``path`` of the bad field; the whole file is ignored) or ``provider-composition`` (with
    ``provider``; that provider keeps its built-in definition)."""

    code: str
    path: str | None
    provider: str | None
    message: str


class ModelsLoadOutput(OpModel):
    """Providers sorted by id, and the issues (file issues sorted by path, then composition issues
    by provider)."""

    providers: list[ProviderOut]
    issues: list[Issue]


class CredentialInputs(OpModel):
    """Everything credential resolution reads: ``env`` (an empty value counts as unset),
    ``authJson`` (stored credentials by provider: ``{type: api_key, key, env?}`` or ``{type: oauth,
    access}``) and ``runtimeKeys`` (``--api-key`` by provider)."""

    builtins: dict[str, BuiltinProvider] = {}
    modelsJson: Any = None
    env: dict[str, str] = {}
    authJson: dict[str, dict[str, Any]] = {}
    runtimeKeys: dict[str, str] = {}


class AuthInput(CredentialInputs):
    """Authenticate one request to ``provider``/``model``."""

    provider: str
    model: str


class AuthOutput(OpModel):
    """``source``: ``runtime``, ``auth.json``, ``models.json``, ``environment`` or ``null``;
    ``failure``: ``null`` or ``{code, header?, variables?, command?}``, the code
    ``auth-not-configured`` (no source gives a key), ``api-key-unresolved`` (the deciding source's
    key names an unset or empty variable, in ``variables``, or its command fails, in ``command``),
    ``header-unresolved`` (so does a header value, named in ``header``) or ``auth-header-without-key``
    (``authHeader`` is set and no key is); ``message`` names the
    provider, header and variable (declared normaliser ``pi.drop-messages`` removes it)."""

    ok: bool
    source: str | None
    apiKey: str | None
    headers: dict[str, str]
    failure: dict[str, Any] | None
    message: str | None


ThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh", "max"]


class SamplingInput(OpModel):
    """A request to ``provider``/``model`` (composed from ``builtins`` and ``modelsJson``) at
    ``thinkingLevel``, with the request's own ``samplingParams`` (``null``: none)."""

    builtins: dict[str, BuiltinProvider] = {}
    modelsJson: Any = None
    provider: str
    model: str
    thinkingLevel: ThinkingLevel = "off"
    samplingParams: dict[str, Any] | None = None


class SamplingOutput(OpModel):
    """``thinkingLevel``: the level the request runs at (unsupported levels clamped);
    ``supportedLevels``: the model's levels, lowest first; ``samplingParams``: the merged
    parameters the request carries, ``null`` when none is set or the model's API ignores them."""

    thinkingLevel: ThinkingLevel
    supportedLevels: list[ThinkingLevel]
    samplingParams: dict[str, Any] | None


class AvailableInput(CredentialInputs):
    """List the models offered for ``type`` (``chat``: the ``/model`` list; ``classifier``: the
    classifier models listed by type; ``image``, revision 2, edition pi-1.6.0: the image models
    listed by type)."""

    type: Literal["chat", "classifier", "image"] = "chat"


class ModelRef(OpModel):
    provider: str
    id: str


class ProviderSource(OpModel):
    provider: str
    source: str | None


class AvailableOutput(OpModel):
    """``models`` in provider-id order, each provider's models in its own order (chat), or
    catalogue order (classifier, image); ``sources`` gives the deciding credential source of
    every provider considered, sorted by provider."""

    models: list[ModelRef]
    sources: list[ProviderSource]


VALUE = operation("pi.models-value", input=ValueInput, output=ValueOutput,
                  summary="Resolve one models.json apiKey/header value: literal, $NAME, ${NAME}, $$, $!, !command (PI-DECISION-MODELS).")
LOAD = operation("pi.models-load", input=ModelsLoadInput, output=ModelsLoadOutput,
                 summary="Load models.json over the built-in providers: schema, composition, defaults, overrides.")
AUTH = operation("pi.models-auth", input=AuthInput, output=AuthOutput,
                 summary="Resolve the API key and headers of one request (credential precedence, PI-DECISION-MODELS).")
SAMPLING = operation("pi.models-sampling", input=SamplingInput, output=SamplingOutput,
                     summary="The thinking level and sampling parameters of one request (pi-1.6.0: samplingParamsByThinkingLevel).")
AVAILABLE = operation("pi.models-available", input=AvailableInput, output=AvailableOutput,
                      summary="List the chat or classifier models whose provider has usable authentication.")

@normaliser("pi.drop-messages")
def drop_messages(output: Any) -> Any:
    """Remove every ``message`` key: message wording is the implementation's own, codes, paths,
    headers and variable names are compared."""
    if isinstance(output, dict):
        return {k: drop_messages(v) for k, v in output.items() if k != "message"}
    if isinstance(output, list):
        return [drop_messages(v) for v in output]
    return output


#: The image models Pi 1.6.0's models page names as examples ('Use image models').
NAMED_IMAGE_MODELS = ("black-forest-labs/flux.2-pro", "google/gemini-2.5-flash-image")


@normaliser("pi.named-image-models")
def named_image_models(output: Any) -> Any:
    """Keep, of a listing's ``models``, only the image models the page names, sorted by id: the
    page gives them as examples ("such as"), so which other image models a catalogue holds, and
    in which order, is catalogue data, not specification (PI-160-IMAGE-MODELS)."""
    if not isinstance(output, dict) or not isinstance(output.get("models"), list):
        return output
    kept = [m for m in output["models"] if isinstance(m, dict) and m.get("provider") == "openrouter"
            and m.get("id") in NAMED_IMAGE_MODELS]
    return {**output, "models": sorted(kept, key=lambda m: m["id"])}

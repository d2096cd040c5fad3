"""Classifier models (Pi's docs "Use classifier models"): the built-in catalogue, listing by type,
request validation and usage cost. Pure: no I/O."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from reference.errors import SpecError
from reference.pi.core.editions import PI_160, check_edition
from reference.pi.core.credentials import Credentials, EnvAuth, configured_source


@dataclass(frozen=True)
class ClassifierEntry:
    """One built-in classifier model.

    Attributes:
        provider, id: the model reference.
        env_auth: the environment variables that authenticate the provider.
        login: whether the provider also accepts a credential stored through ``/login``.
        cost: the catalogue price (USD per million tokens: ``input``, ``output``, ``cacheRead``,
            ``cacheWrite``), or ``None`` when the catalogue has none.
        key_only: the service takes an API key only, so a ``/login`` (OAuth) credential stored
            for the provider hides the model (PI-160-CLASSIFIER-LUNA-KEY).
    """

    provider: str
    id: str
    env_auth: EnvAuth
    login: bool = False
    cost: Mapping[str, float] | None = None
    key_only: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "id": self.id,
            "type": "classifier",
            "env": list(self.env_auth.key_vars + self.env_auth.required_vars),
            "login": self.login,
            "cost": dict(self.cost) if self.cost is not None else None,
        }


_TYPESAFE = EnvAuth(("TYPESAFE_API_KEY",))
_OPENROUTER = EnvAuth(("OPENROUTER_API_KEY",))
_CLOUDFLARE = EnvAuth(("CLOUDFLARE_API_KEY",), ("CLOUDFLARE_ACCOUNT_ID",))
_VERCEL = EnvAuth(("AI_GATEWAY_API_KEY",))
_OPENCODE = EnvAuth(("OPENCODE_API_KEY",))

#: The built-in classifier catalogue (PI-CLASSIFIER-CATALOGUE), in the table order of Pi's docs.
CATALOGUE: tuple[ClassifierEntry, ...] = (
    ClassifierEntry("typesafe", "jev-latest", _TYPESAFE),
    ClassifierEntry("openrouter", "typesafe/jev-1.13", _OPENROUTER, login=True),
    ClassifierEntry("openrouter", "~typesafe/jev-latest", _OPENROUTER, login=True),
    ClassifierEntry("cloudflare-workers-ai", "typesafe/jev", _CLOUDFLARE),
    ClassifierEntry("vercel-ai-gateway", "typesafe-ai/jev", _VERCEL),
    ClassifierEntry("opencode", "jev-1.13", _OPENCODE),
    ClassifierEntry("opencode", "jev-1.13-free", _OPENCODE),
)


_OPENAI = EnvAuth(("OPENAI_API_KEY",))
_COPILOT = EnvAuth(("COPILOT_GITHUB_TOKEN",))

#: The built-in classifier catalogue of Pi 1.6.0's page (PI-160-CLASSIFIER-TABLE), in its table order.
CATALOGUE_160: tuple[ClassifierEntry, ...] = (
    ClassifierEntry("typesafe", "jev-latest", _TYPESAFE),
    *(ClassifierEntry("openrouter", model, _OPENROUTER, login=True) for model in (
        "typesafe/jev-1.13", "typesafe/jev-1.14", "~typesafe/jev-latest",
        "cloudflare/clef", "cloudflare/clef-flash", "cloudflare/clef-omni")),
    *(ClassifierEntry("cloudflare-workers-ai", model, _CLOUDFLARE) for model in (
        "typesafe/jev", "typesafe/jev-1.14.0",
        "@cf/cloudflare/clef", "@cf/cloudflare/clef-flash", "@cf/cloudflare/clef-omni")),
    ClassifierEntry("vercel-ai-gateway", "typesafe-ai/jev", _VERCEL),
    ClassifierEntry("opencode", "jev-1.13", _OPENCODE),
    ClassifierEntry("opencode", "jev-1.13-free", _OPENCODE),
    ClassifierEntry("openai", "gpt-6-luna", _OPENAI, key_only=True),
    ClassifierEntry("github-copilot", "microsoft-decision-1", _COPILOT, login=True),
)


def classifier_catalogue(edition: str | None = None) -> list[ClassifierEntry]:
    """Every built-in classifier model of ``edition`` (``None``: ``pi-0.99.4``), in catalogue
    order. Raises ``ValueError`` for an unknown edition.

    Implements PI-160-CLASSIFIER-TABLE: edition ``pi-1.6.0`` lists :data:`CATALOGUE_160`.

    Implements PI-CLASSIFIER-CATALOGUE: TypeSafe's Jev from ``typesafe`` (``TYPESAFE_API_KEY``),
    ``openrouter`` (``OPENROUTER_API_KEY`` or ``/login``), ``cloudflare-workers-ai``
    (``CLOUDFLARE_API_KEY`` and ``CLOUDFLARE_ACCOUNT_ID``), ``vercel-ai-gateway``
    (``AI_GATEWAY_API_KEY``) and ``opencode`` (``OPENCODE_API_KEY``).

    Implements PI-CLASSIFIER-PRICE-INPUT: no entry carries a price (``cost`` is ``None``).
    """
    return list(CATALOGUE_160 if check_edition(edition) == PI_160 else CATALOGUE)


def find_classifier(provider: str, model_id: str, edition: str | None = None) -> ClassifierEntry:
    """The catalogue entry ``provider/model_id`` of ``edition`` (:func:`classifier_catalogue`).

    Raises:
        SpecError ``classifier-unknown`` when the catalogue has no such classifier.
    """
    for entry in classifier_catalogue(edition):
        if entry.provider == provider and entry.id == model_id:
            return entry
    raise SpecError("classifier-unknown", f'no classifier model "{model_id}" on provider "{provider}"')


def available_classifiers(creds: Credentials, provider_configs: Mapping[str, Mapping[str, Any]] | None = None,
                          edition: str | None = None) -> list[dict[str, str]]:
    """The classifier models of ``edition``'s catalogue listed by type (``"classifier"``; they do
    not chat, so they are kept out of the chat model list): those whose provider has usable
    authentication and that no stored login hides (:func:`hidden_by_login`).

    Implements PI-CLASSIFIER-LISTING, with the credential precedence of
    :func:`reference.pi.core.credentials.configured_source`
    (``provider_configs`` are the ``models.json`` entries in force, whose ``apiKey`` counts).
    Catalogue order.
    """
    configs = provider_configs or {}
    out = []
    for entry in classifier_catalogue(edition):
        if hidden_by_login(entry, creds):
            continue
        if configured_source(entry.provider, configs.get(entry.provider), entry.env_auth, creds) is not None:
            out.append({"provider": entry.provider, "id": entry.id})
    return out


def hidden_by_login(entry: ClassifierEntry, creds: Credentials) -> bool:
    """Whether a ``key_only`` model is hidden because its provider is logged in through
    ``/login`` (an ``oauth`` credential stored in ``auth.json``), whatever keys are set.

    Implements PI-160-CLASSIFIER-LUNA-KEY.
    """
    stored = creds.auth_json.get(entry.provider)
    return entry.key_only and isinstance(stored, Mapping) and stored.get("type") == "oauth"


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an empty array" if not value else "an array"
    if isinstance(value, dict):
        return "{}" if not value else "{ " + ", ".join(list(value)[:6]) + (", ..." if len(value) > 6 else "") + " }"
    return type(value).__name__


def _strings(values: list[Any]) -> bool:
    return bool(values) and all(isinstance(v, str) for v in values)


def validate_classify_request(context: Any) -> list[dict[str, str]]:
    """Check a classification request ``{state, questions}``.

    Implements PI-CLASSIFIER-REQUEST: ``state`` is a JSON object; ``questions`` is a non-empty object
    mapping question ids to questions; each question has a string ``instructions`` and a ``type``:
    ``choice`` (``criteria`` maps each label to its meaning, at least one), ``bool`` (``criteria`` is
    ``{true: str, false: str}``) or ``score`` (``criteria`` lists the levels as strings, lowest
    first, at least one).

    Returns:
        ``[{"id": ..., "type": ...}]`` for the questions, in request order.
    Raises:
        SpecError with code ``classifier-context-invalid``, ``classifier-state-invalid``,
        ``classifier-questions-invalid``, ``classifier-question-invalid`` or
        ``classifier-question-type-unknown``; the message names the field (``questions.ok.criteria``).
    """
    if not isinstance(context, dict):
        raise SpecError("classifier-context-invalid", f"the request must be an object, got {_describe(context)}", path="")
    state = context.get("state")
    if not isinstance(state, dict):
        raise SpecError("classifier-state-invalid", f"state must be a JSON object, got {_describe(state)}", path="state")
    questions = context.get("questions")
    if not isinstance(questions, dict) or not questions:
        raise SpecError("classifier-questions-invalid", f"questions must map question ids to questions, got {_describe(questions)}", path="questions")
    out = []
    for qid, question in questions.items():
        at = f"questions.{qid}"
        if not isinstance(question, dict):
            raise SpecError("classifier-question-invalid", f"{at} must be a question object, got {_describe(question)}", path=at)
        qtype = question.get("type")
        if not isinstance(question.get("instructions"), str):
            raise SpecError("classifier-question-invalid", f"{at}.instructions must be a string", path=f"{at}.instructions")
        criteria = question.get("criteria")
        if qtype == "choice":
            if not isinstance(criteria, dict) or not _strings(list(criteria.values())):
                raise SpecError("classifier-question-invalid", f"{at}.criteria must map each choice label to its meaning", path=f"{at}.criteria")
        elif qtype == "bool":
            if not isinstance(criteria, dict) or not isinstance(criteria.get("true"), str) or not isinstance(criteria.get("false"), str):
                raise SpecError("classifier-question-invalid", f"{at}.criteria must be {{true: string, false: string}}", path=f"{at}.criteria")
        elif qtype == "score":
            if not isinstance(criteria, list) or not _strings(criteria):
                raise SpecError("classifier-question-invalid", f"{at}.criteria must list the score levels as strings, lowest first", path=f"{at}.criteria")
        else:
            raise SpecError("classifier-question-type-unknown", f'{at}.type must be "choice", "bool" or "score", got {_describe(qtype)}', path=f"{at}.type")
        out.append({"id": str(qid), "type": qtype})
    return out


def _tokens(value: Any) -> float:
    """A reported count as PI-CLASSIFIER-USAGE-REPORT reads it: the double JavaScript holds
    (``2**53 + 1`` is ``2**53``), or 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return 0
    return float(value)


def classifier_usage(report: Any, cost: Mapping[str, float] | None) -> dict[str, Any] | None:
    """The usage of one classification, priced from the model's catalogue price.

    Implements PI-CLASSIFIER-COST and PI-CLASSIFIER-USAGE-REPORT: the service reports
    ``{input_tokens, output_tokens}``; a missing
    report, or one with neither count, gives no usage (``None``); a count that is not a positive
    finite number counts as 0. Cost is ``rate / 1_000_000 * tokens`` in USD per kind (cache kinds
    are 0 for classifiers); a model without a catalogue price reports its tokens at zero cost.

    Returns:
        ``{"input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost": {"input",
        "output", "cacheRead", "cacheWrite", "total"}}`` or ``None``.
    """
    if not isinstance(report, dict) or ("input_tokens" not in report and "output_tokens" not in report):
        return None
    tokens_in = _tokens(report.get("input_tokens"))
    tokens_out = _tokens(report.get("output_tokens"))
    rates = cost or {}
    c_in = (rates.get("input", 0) / 1000000) * tokens_in
    c_out = (rates.get("output", 0) / 1000000) * tokens_out
    return {
        "input": tokens_in,
        "output": tokens_out,
        "cacheRead": 0,
        "cacheWrite": 0,
        "totalTokens": tokens_in + tokens_out,
        "cost": {"input": c_in, "output": c_out, "cacheRead": 0, "cacheWrite": 0, "total": c_in + c_out},
    }

"""The ``models.json`` file: its schema, comments and trailing commas, and the issues it reports
(seed 003 "Choose a Model"; note N23). Pure: it reads text or data the caller gives.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError


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
    dotted path of the bad field. Unknown keys are ignored. Implements PI-MODELS-SCHEMA-EVERY-FIELD:
    every bad field is an issue of its own (two missing fields of one object are two). Implements
    PI-160-MODELS-SCHEMA-URL: a top-level ``$schema`` string (the schema's address, as the 1.6.0
    page's example writes it) is part of the schema, never an issue.

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

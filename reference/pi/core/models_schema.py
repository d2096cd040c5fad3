"""The schema of ``models.json`` as pydantic models (Pi's docs "Choose a Model"; PI-DECISION-MODELS).

Imported by :func:`reference.pi.core.models_file.validate_models_json` when it first checks a
document, so that what never reads a ``models.json`` does not build these models.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field


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


class ModelsFile(_Strict):
    """The whole ``models.json`` document (PI-MODELS-SCHEMA): ``$schema?`` a string (pi-1.6.0,
    PI-160-MODELS-SCHEMA-URL), ``providers`` an object of provider entries; unknown keys ignored."""

    schema_: Optional[str] = Field(default=None, alias="$schema")
    providers: dict[str, _Provider]

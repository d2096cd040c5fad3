"""Sampling parameters by thinking level, as Pi 1.6.0's models page describes them (edition
``pi-1.6.0``, "Configure sampling by thinking level").

A model is a composed model as :func:`reference.pi.core.merge.model_from_definition` makes it
(``reasoning``, ``thinkingLevelMap``, ``samplingParams``, ``samplingParamsByThinkingLevel``,
``api``). Thinking levels are Pi's: ``off``, ``minimal``, ``low``, ``medium``, ``high``,
``xhigh``, ``max``.

Pure: no I/O.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

#: Pi's thinking levels, lowest first (Pi 1.6.0 docs/models.md 'Configure sampling by thinking level').
THINKING_LEVELS = ("off", "minimal", "low", "medium", "high", "xhigh", "max")

#: The APIs whose requests carry sampling parameters (PI-160-MODELS-SAMPLING-APIS).
SAMPLING_APIS = ("openai-completions", "openai-responses", "azure-openai-responses")

_ONLY_WHEN_MAPPED = ("xhigh", "max")


def supported_thinking_levels(model: Mapping[str, Any]) -> list[str]:
    """The thinking levels ``model`` supports, lowest first.

    Implements PI-160-MODELS-THINKING-SUPPORTED: a model without ``reasoning`` supports ``off``
    only; a reasoning model supports ``off`` through ``high`` and, only when its
    ``thinkingLevelMap`` maps them to a value, ``xhigh`` and ``max``; a level the map sets to
    ``null`` is unsupported.
    """
    if not model.get("reasoning"):
        return ["off"]
    mapping = model.get("thinkingLevelMap") or {}
    supported = []
    for level in THINKING_LEVELS:
        if level in mapping and mapping[level] is None:
            continue
        if level in _ONLY_WHEN_MAPPED and mapping.get(level) is None:
            continue
        supported.append(level)
    return supported


def clamp_thinking_level(model: Mapping[str, Any], level: str) -> str:
    """The level a request at ``level`` runs at on ``model``.

    Implements PI-160-MODELS-THINKING-CLAMP: a supported level is kept; an unsupported one becomes
    the nearest supported level above it, else the nearest below it, else ``off``.

    Raises ``ValueError`` for a string that is not one of :data:`THINKING_LEVELS`.
    """
    if level not in THINKING_LEVELS:
        raise ValueError(f"unknown thinking level {level!r}; the levels are {', '.join(THINKING_LEVELS)}")
    supported = supported_thinking_levels(model)
    if level in supported:
        return level
    index = THINKING_LEVELS.index(level)
    above = [lv for lv in THINKING_LEVELS[index + 1:] if lv in supported]
    below = [lv for lv in reversed(THINKING_LEVELS[:index]) if lv in supported]
    return (above or below or ["off"])[0]


def merge_sampling_params(model: Mapping[str, Any], level: str, request: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The sampling parameters of a request to ``model`` at the (already clamped) ``level``.

    Implements PI-160-MODELS-SAMPLING-MERGE: the model's ``samplingParams``, then
    ``samplingParamsByThinkingLevel[level]``, then the request's ``samplingParams``, later values
    winning per key (a key's value is replaced whole); a level without an entry inherits the
    model's defaults. ``None`` when none of the three is given.
    """
    layers = [model.get("samplingParams"), (model.get("samplingParamsByThinkingLevel") or {}).get(level), request]
    if all(layer is None for layer in layers):
        return None
    out: dict[str, Any] = {}
    for layer in layers:
        out.update(copy.deepcopy(dict(layer or {})))
    return out


def sampling_applies(api: str) -> bool:
    """Whether requests of ``api`` carry sampling parameters.

    Implements PI-160-MODELS-SAMPLING-APIS: only ``openai-completions``, ``openai-responses`` and
    ``azure-openai-responses``; other APIs ignore ``samplingParams`` and
    ``samplingParamsByThinkingLevel``.
    """
    return api in SAMPLING_APIS


def request_sampling(model: Mapping[str, Any], level: str, request: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a request to ``model`` at ``level`` runs with: ``{thinkingLevel, supportedLevels,
    samplingParams}``, the level clamped first (:func:`clamp_thinking_level`), then the parameters
    merged (:func:`merge_sampling_params`), ``samplingParams`` ``None`` when the model's API ignores
    them (:func:`sampling_applies`) or nothing is set.

    Raises ``ValueError`` for an unknown thinking level."""
    effective = clamp_thinking_level(model, level)
    params = merge_sampling_params(model, effective, request) if sampling_applies(model["api"]) else None
    return {"thinkingLevel": effective, "supportedLevels": supported_thinking_levels(model), "samplingParams": params}


def override_levels(base: Mapping[str, Any] | None, override: Mapping[str, Any]) -> dict[str, Any]:
    """A model's ``samplingParamsByThinkingLevel`` (``base``) with a ``modelOverrides`` entry's
    applied, edition ``pi-1.6.0``.

    Implements PI-160-MODELS-SAMPLING-OVERRIDE: each level the override names merges into the
    model's entry for that level per key (the override's value of a key replaces the model's
    whole, nested objects included); levels the override does not name stay as they are.
    """
    out = copy.deepcopy(dict(base or {}))
    for level, params in override.items():
        out[level] = {**(out.get(level) or {}), **copy.deepcopy(params)}
    return out

"""The input classes of ``pi.models-sampling`` (edition pi-1.6.0): the requested model's API,
reasoning and thinking-level map, the requested level and how it is clamped, and the sampling
parameters of each layer."""

from __future__ import annotations

from typing import Callable

from conformance.strategies.partitions.cells import Cell, Hit
from conformance.strategies.partitions.models import _model_entries, _override, _providers

PARTITIONS: dict[str, list[Cell]] = {}


# --- pi.models-sampling (PI-160-MODELS-SAMPLING-*, PI-160-MODELS-THINKING-*) -------------------------------------------

LEVELS = ("off", "minimal", "low", "medium", "high", "xhigh", "max")
SAMPLING_APIS = ("openai-completions", "openai-responses", "azure-openai-responses")


def sampled_model(input: dict) -> dict:
    """The requested model as the input describes it: the built-in one, replaced by a models.json
    entry of its id, with its ``modelOverrides`` fields laid over (shallowly: enough to class it)."""
    provider, model = input.get("provider"), input.get("model")
    builtin = (input.get("builtins") or {}).get(provider) or {}
    found = next((m for m in builtin.get("models") or [] if isinstance(m, dict) and m.get("id") == model), None)
    out = {"api": builtin.get("api"), **(found or {})}
    entry = _providers(input).get(provider)
    if isinstance(entry, dict):
        own = next((m for m in _model_entries(entry) if isinstance(m, dict) and m.get("id") == model), None)
        if own is not None:
            out = {"api": own.get("api") or entry.get("api") or out.get("api"), **own}
        override = (entry.get("modelOverrides") or {}).get(model)
        if isinstance(override, dict):
            out = {**out, **override}
    return out


def supported(model: dict) -> list[str]:
    """PI-160-MODELS-THINKING-SUPPORTED."""
    if not model.get("reasoning"):
        return ["off"]
    mapped = model.get("thinkingLevelMap") if isinstance(model.get("thinkingLevelMap"), dict) else {}
    return [lv for lv in LEVELS if (mapped.get(lv) is not None if lv in ("xhigh", "max") else not (lv in mapped and mapped[lv] is None))]


def _sampled(test: Callable[[dict, dict], bool]) -> Hit:
    return lambda input, tree: test(sampled_model(input), input)


def _level(input: dict) -> str:
    return input.get("thinkingLevel") or "off"


def _by_level(model: dict) -> dict:
    found = model.get("samplingParamsByThinkingLevel")
    return found if isinstance(found, dict) else {}


def _clamped(model: dict, level: str) -> str:
    """PI-160-MODELS-THINKING-CLAMP, as the classes need it."""
    levels = supported(model)
    if level in levels or level not in LEVELS:
        return level
    above = [lv for lv in levels if LEVELS.index(lv) > LEVELS.index(level)]
    below = [lv for lv in levels if LEVELS.index(lv) < LEVELS.index(level)]
    return above[0] if above else below[-1] if below else "off"


def _layers(model: dict, input: dict) -> list[dict]:
    """The three sampling layers of the request that are objects: the model's, the clamped
    level's entry, the request's (PI-160-MODELS-SAMPLING-MERGE)."""
    layers = [model.get("samplingParams"), _by_level(model).get(_clamped(model, _level(input))), input.get("samplingParams")]
    return [layer for layer in layers if isinstance(layer, dict)]


MODELS_SAMPLING = [
    *[Cell("api", api, ("PI-160-MODELS-SAMPLING-APIS",), _sampled(lambda m, i, api=api: m.get("api") == api)) for api in SAMPLING_APIS],
    Cell("api", "another api", ("PI-160-MODELS-SAMPLING-APIS",), _sampled(lambda m, i: m.get("api") not in SAMPLING_APIS)),
    Cell("reasoning", "not a reasoning model", ("PI-160-MODELS-THINKING-SUPPORTED",), _sampled(lambda m, i: not m.get("reasoning"))),
    Cell("reasoning", "a reasoning model", ("PI-160-MODELS-THINKING-SUPPORTED",), _sampled(lambda m, i: bool(m.get("reasoning")))),
    Cell("thinkingLevelMap", "a level mapped to null", ("PI-160-MODELS-THINKING-SUPPORTED",),
         _sampled(lambda m, i: isinstance(m.get("thinkingLevelMap"), dict) and None in m["thinkingLevelMap"].values())),
    Cell("thinkingLevelMap", "xhigh or max mapped", ("PI-160-MODELS-THINKING-SUPPORTED",),
         _sampled(lambda m, i: isinstance(m.get("thinkingLevelMap"), dict) and any(m["thinkingLevelMap"].get(lv) is not None for lv in ("xhigh", "max")))),
    Cell("thinkingLevelMap", "no level left", ("PI-160-MODELS-THINKING-CLAMP",),
         _sampled(lambda m, i: bool(m.get("reasoning")) and isinstance(m.get("thinkingLevelMap"), dict)
                  and all(m["thinkingLevelMap"].get(lv, "x") is None for lv in LEVELS[:5]))),
    *[Cell("thinking level", lv, ("PI-160-MODELS-THINKING-CLAMP",), (lambda i, t, lv=lv: _level(i) == lv)) for lv in LEVELS],
    Cell("clamp", "a supported level", ("PI-160-MODELS-THINKING-CLAMP",), _sampled(lambda m, i: _level(i) in supported(m))),
    Cell("clamp", "up to a level above", ("PI-160-MODELS-THINKING-CLAMP",),
         _sampled(lambda m, i: _level(i) not in supported(m) and any(LEVELS.index(s) > LEVELS.index(_level(i)) for s in supported(m)))),
    Cell("clamp", "down to a level below", ("PI-160-MODELS-THINKING-CLAMP",),
         _sampled(lambda m, i: _level(i) not in supported(m) and bool(supported(m))
                  and all(LEVELS.index(s) < LEVELS.index(_level(i)) for s in supported(m)))),
    Cell("clamp", "up, with a supported level below too", ("PI-160-MODELS-THINKING-CLAMP",),
         _sampled(lambda m, i: _level(i) not in supported(m) and any(LEVELS.index(s) > LEVELS.index(_level(i)) for s in supported(m))
                  and any(LEVELS.index(s) < LEVELS.index(_level(i)) for s in supported(m)))),
    Cell("clamp", "up, with none below", ("PI-160-MODELS-THINKING-CLAMP",),
         _sampled(lambda m, i: _level(i) not in supported(m) and bool(supported(m))
                  and all(LEVELS.index(s) > LEVELS.index(_level(i)) for s in supported(m)))),
    Cell("sampling", "none of the three", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: not m.get("samplingParams") and not _by_level(m) and not i.get("samplingParams"))),
    Cell("sampling", "the model's own", ("PI-160-MODELS-SAMPLING-MERGE",), _sampled(lambda m, i: bool(m.get("samplingParams")))),
    Cell("sampling", "an entry for the level", ("PI-160-MODELS-SAMPLING-MERGE",), _sampled(lambda m, i: bool(_by_level(m)))),
    Cell("sampling", "the request's own", ("PI-160-MODELS-SAMPLING-MERGE",), lambda i, t: bool(i.get("samplingParams"))),
    Cell("sampling", "one key in all three", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: bool(set(m.get("samplingParams") or {}) & set().union(*(set(v) for v in _by_level(m).values() if isinstance(v, dict)))
                                    & set(i.get("samplingParams") or {})))),
    Cell("sampling", "an object value replaced whole", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: any(isinstance(v, dict) for v in (i.get("samplingParams") or {}).values()))),
    Cell("sampling", "an object over an earlier layer's object", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: any(isinstance(v, dict) and isinstance(e.get(k), dict)
                                   for n, later in enumerate(_layers(m, i)) for k, v in later.items() for e in _layers(m, i)[:n]))),
    Cell("sampling", "a nested object value", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: any(isinstance(v, dict) and any(isinstance(w, dict) for w in v.values())
                                   for layer in _layers(m, i) for v in layer.values()))),
    Cell("sampling", "an empty object value", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: any(v == {} for layer in _layers(m, i) for v in layer.values()))),
    Cell("sampling", "an array value", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: any(isinstance(v, list) for layer in _layers(m, i) for v in layer.values()))),
    Cell("sampling", "a null value", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: any(v is None for layer in _layers(m, i) for v in layer.values()))),
    Cell("sampling", "levels of the map without an entry", ("PI-160-MODELS-SAMPLING-MERGE",),
         _sampled(lambda m, i: bool(_by_level(m)) and any(lv not in _by_level(m) for lv in supported(m)))),
    Cell("override", "samplingParamsByThinkingLevel in modelOverrides", ("PI-160-MODELS-SAMPLING-OVERRIDE",),
         _override(lambda v, b: isinstance(v, dict) and "samplingParamsByThinkingLevel" in v)),
]
"""The classes of ``pi.models-sampling`` (edition pi-1.6.0): each API with and without sampling,
reasoning or not, thinking-level maps with null levels, xhigh or max, or no level left; every
requested level, supported, clamped up (with supported levels below it or none) and down; each
source of sampling parameters, none, one key in all three, object values (over an earlier
layer's object, nested, empty), arrays and nulls, levels without an entry; overrides per level."""


PARTITIONS["pi.models-sampling"] = MODELS_SAMPLING

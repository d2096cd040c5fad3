"""pi.models-sampling -- PI-160-MODELS-THINKING-CLAMP.
Bug: an unsupported thinking level is clamped down to the nearest supported level below it first,
and only goes up when nothing below is supported.
"""

from __future__ import annotations

from reference.pi.core import sampling

from tests.blind.common import everywhere, swapped


def _clamp_thinking_level(model, level):
    if level not in sampling.THINKING_LEVELS:
        raise ValueError(f"unknown thinking level {level!r}")
    supported = sampling.supported_thinking_levels(model)
    if level in supported:
        return level
    index = sampling.THINKING_LEVELS.index(level)
    above = [lv for lv in sampling.THINKING_LEVELS[index + 1:] if lv in supported]
    below = [lv for lv in reversed(sampling.THINKING_LEVELS[:index]) if lv in supported]
    return (below or above or ["off"])[0]


def handle(msg, call):
    with swapped(everywhere(sampling.clamp_thinking_level, _clamp_thinking_level)):
        return call()

# shown on: {"edition": "pi-1.6.0", "input": {"builtins": {"p": {"api": "openai-completions", "baseUrl": "https://x", "models": [{"id": "m", "reasoning": true, "thinkingLevelMap": {"minimal": null, "low": null}}]}}, "provider": "p", "model": "m", "thinkingLevel": "low"}}

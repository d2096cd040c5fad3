"""The registry of hand-written strategies: the area modules of :mod:`conformance.strategies`
register theirs here with :func:`strategy`; this module imports none of them, so no module imports
back into the package that loads them."""

from __future__ import annotations

from typing import Any, Callable

Example = tuple[dict, "dict | None"]
"""One generated example: ``(input, tree or None)``."""

HAND_WRITTEN: dict[str, Callable[[], Any]] = {}


def strategy(op: str) -> Callable[[Callable[[], Any]], Callable[[], Any]]:
    """Register the decorated function (no arguments, returning a strategy of
    :data:`Example`) as the hand-written strategy of ``op``. Raises ``ValueError`` when ``op``
    already has one."""

    def register(fn: Callable[[], Any]) -> Callable[[], Any]:
        if op in HAND_WRITTEN:
            raise ValueError(f"operation {op!r} has two hand-written strategies")
        HAND_WRITTEN[op] = fn
        return fn

    return register

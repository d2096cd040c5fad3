"""The registry of hand-written strategies: the area modules of :mod:`conformance.strategies`
register theirs here with :func:`strategy`; this module imports none of them, so no module imports
back into the package that loads them."""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import strategies as st

Example = tuple[dict, "dict | None"]
"""One generated example: ``(input, tree or None)``: the operation's input (a JSON object valid
for its input model) and the file tree the kit materialises for it (a scenario ``tree`` mapping,
:mod:`conformance.corpus.trees`)."""

HAND_WRITTEN: dict[str, Callable[[], Any]] = {}

FRAMES: dict[str, Callable[[], list[Example]]] = {}


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


def frames(op: str) -> Callable[[Callable[[], list[Example]]], Callable[[], list[Example]]]:
    """Register the decorated function (no arguments, returning a list of :data:`Example`) as the
    *frames* of ``op``: examples built on purpose, each from a chosen combination of the
    operation's declared input classes (the test frames of the category-partition method), so
    that together they reach every class that one drawn example holds only one of (a message's
    role, an assistant's stop reason). ``diff`` sends them after the examples it draws, when those
    found no disagreement; they are the same every run and do not count against ``--examples``. Raises ``ValueError`` when
    ``op`` already has frames."""

    def register(fn: Callable[[], list[Example]]) -> Callable[[], list[Example]]:
        if op in FRAMES:
            raise ValueError(f"operation {op!r} has two lists of frames")
        FRAMES[op] = fn
        return fn

    return register


NUMBER_BITS = 32


def drawn_number() -> Any:
    """A strategy of one whole number in ``[0, 2**32)`` that a strategy builds a whole example
    from (a ``random.Random`` seeded by it), drawn as 32 coin flips.

    Not ``st.integers``: hypothesis also draws, now and then, the literals it finds in the source
    of every imported module that is not installed (the kit itself, when installed editable), so
    the derandomized examples of ``diff`` changed with the modules a front end had imported
    (``coverage --cells`` under pytest and on the command line drew different ones) and with any
    literal written anywhere in the kit. Coin flips are drawn from the derandomized seed alone."""
    return st.tuples(*[st.booleans()] * NUMBER_BITS).map(lambda bits: sum(b << i for i, b in enumerate(bits)))

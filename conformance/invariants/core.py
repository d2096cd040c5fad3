"""The invariants' building blocks: what a check talks to (:class:`Client`), how it fails
(:class:`Counterexample`), and the registry the area modules add to with :func:`invariant`.

The package (:mod:`conformance.invariants`) runs them; the area modules (``envelope``, ``profiles``,
``pi``) declare them. Both import this module; it imports neither.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from pydantic import ValidationError

from conformance.adapters.base import Adapter, Answer
from conformance.output.console import raise_if_interrupted

INVARIANT_TREE_PREFIX = "pi-conformance-invariant-"
"""How the folder of an invariant's tree is named: the prefix, the kit's process id, ``-`` and a
random part (the runner's trees are named alike, :data:`conformance.judge.runner.TREE_PREFIX`)."""


class Counterexample(AssertionError):
    """The property does not hold for the current example; the message says how."""


class RequestFailed(Exception):
    """A request the property needs was not answered with a result (or the expected error)."""

    def __init__(self, op: str, answer: Answer) -> None:
        from conformance.output.console import shown

        detail = answer.code if answer.kind == "error" else answer.message
        super().__init__(f"{op} answered {answer.kind}: {shown(detail)}")
        self.op = op
        self.answer = answer


class OperationUnsupported(Exception):
    """The implementation does not provide an operation the invariant needs."""


@dataclass
class Request:
    """One request made while checking an example: what a scenario case would hold."""

    op: str
    input: dict
    tree: dict | None
    answer: Answer


class Client:
    """What an invariant's check function talks to: one :meth:`call` per request.

    Records every request of the current example, so the failing example can be written out as
    scenario cases.
    """

    def __init__(self, adapter: Adapter, operations: set[str], timeout: float) -> None:
        self.adapter = adapter
        self.operations = operations
        self.timeout = timeout
        self.requests: list[Request] = []

    def call(self, op: str, input: dict, *, tree: dict | None = None, expect_error: bool = False) -> Any:
        """Send ``op`` with ``input`` (and a file ``tree``, materialised in a temporary
        directory) and return the result's output, with the tree's root shown as ``<root>``.

        With ``expect_error`` an ``error`` answer is returned as ``{"error": code}`` instead of
        failing. Raises :class:`RequestFailed` for any other answer, :class:`OperationUnsupported`
        when the implementation lacks ``op``, and ``ValueError`` when ``input`` is not valid for
        the operation (a fault of the invariant, not of the implementation).
        """
        from conformance.judge.normalise import replace_root
        from conformance.operations import catalogue
        from conformance.corpus.trees import materialise, parse_tree, tree_folder

        raise_if_interrupted()  # a signal swallowed by hypothesis's gc callback ends the run here
        if op not in self.operations:
            raise OperationUnsupported(op)
        try:
            catalogue()[op].input.model_validate(input)
        except ValidationError as exc:
            raise ValueError(f"invariant generated an invalid {op} input: {exc}") from exc
        payload = json.loads(json.dumps(input))
        if tree is None:
            answer = self.adapter.run(op, payload, root=None, timeout=self.timeout)
            roots: list[str] = []
        else:
            with tree_folder(INVARIANT_TREE_PREFIX) as (root, tmp):
                materialise(parse_tree(tree), Path(root))
                answer = self.adapter.run(op, payload, root=root, timeout=self.timeout)
                roots = [root, tmp]
        self.requests.append(Request(op, payload, tree, answer))
        if answer.kind == "result":
            return replace_root(answer.output, roots)
        if answer.kind == "error" and expect_error:
            return {"error": answer.code}
        if answer.kind == "unsupported":
            raise OperationUnsupported(f"{op}: {answer.message}")
        raise RequestFailed(op, answer)


Check = Callable[[Client, Any], None]


@dataclass(frozen=True)
class Invariant:
    """A property checked over generated inputs: a first-class case that ends with one of the
    runner's statuses (``passed``, ``failed``, ``errored``, ``unsupported``), but instead of one
    fixed input and a golden it states a property of the specification ("composing twice gives the
    same bytes"), and hypothesis generates inputs and looks for a counterexample.

    Attributes:
        id: stable id, ``inv-<area>-<name>``.
        area: ``envelope``, ``profiles`` or ``pi``.
        title: the property in one sentence.
        clauses: the ids of the catalogue clauses it checks.
        ops: the operations it sends.
        strategy: a function returning the hypothesis strategy of one example.
        check: ``check(client, example)``; raises :class:`Counterexample` when the property fails.
        frames: a function returning examples (in the strategy's shape) made from the frames of
            its operations (:func:`conformance.strategies.frames_for`), checked on every run
            before the drawn ones and not counted against the budget; ``None``: none.
    """

    id: str
    area: str
    title: str
    clauses: tuple[str, ...]
    ops: tuple[str, ...]
    strategy: Callable[[], Any]
    check: Check
    frames: Callable[[], list] | None = None


_REGISTRY: dict[str, Invariant] = {}


def invariant(id: str, *, area: str, title: str, clauses: Sequence[str], ops: Sequence[str],
              strategy: Callable[[], Any], frames: Callable[[], list] | None = None) -> Callable[[Check], Check]:
    """Register the decorated check function as an :class:`Invariant`."""

    def register(fn: Check) -> Check:
        if id in _REGISTRY:
            raise ValueError(f"invariant {id!r} registered twice")
        _REGISTRY[id] = Invariant(id, area, title, tuple(clauses), tuple(ops), strategy, fn, frames)
        return fn

    return register


def registered() -> list[Invariant]:
    """Every invariant registered so far, by id."""
    return sorted(_REGISTRY.values(), key=lambda i: i.id)

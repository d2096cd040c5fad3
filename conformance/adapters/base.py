"""The adapter protocol and its answer records: an implementation answers one request at a time
with exactly one :class:`Answer`; the Python :class:`Implementation` base class."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

AnswerKind = Literal["result", "error", "unsupported", "skipped", "errored"]

MAX_TIMEOUTS = 3
"""After this many requests in a row without an answer in time, the adapter counts as hung (an
adapter process and an implementation in process alike)."""


MAX_ANSWER_DEPTH = 100
"""How deeply an answer's output may nest arrays and objects (the output object itself is level
1); a deeper one is malformed output, its case ``errored``: no operation's output nests a tenth as
deep, and every writer of the kit's reports and diffs stays within Python's recursion at it."""


def nesting_depth(value: Any, limit: int = MAX_ANSWER_DEPTH) -> int:
    """How deeply ``value`` (JSON data) nests arrays and objects, counted without recursion; the
    count stops at ``limit`` + 1 (deeper is as bad)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def too_deep(output: Any) -> str | None:
    """Why ``output`` (an answer's output) is malformed by its nesting (:data:`MAX_ANSWER_DEPTH`),
    or ``None``: the one message for every adapter, in process, served or a process of its own."""
    if nesting_depth(output) > MAX_ANSWER_DEPTH:
        return f"malformed output: nested more than {MAX_ANSWER_DEPTH} levels deep"
    return None


def operations_problem(implementation: Any, ops: Any) -> str | None:
    """Why ``ops``, what ``implementation.operations()`` returned, is not a list of operation
    names (a list or tuple of strings), or ``None``: a string would be read letter by letter."""
    cls = type(implementation).__name__
    if not isinstance(ops, (list, tuple)):
        return (f"{cls}.operations() must give a list of operation names (strings), and gave "
                f"{_shown_repr(ops)} ({type(ops).__name__})")
    odd = [op for op in ops if not isinstance(op, str)]
    if odd:  # a name the kit cannot compare, sort or show as an operation
        return (f"{cls}.operations() must give operation names (strings), and gave {_shown_repr(odd[0])} "
                f"({type(odd[0]).__name__})")
    return None


def _shown_repr(value: Any) -> str:
    from conformance.output.console import shown

    return shown(repr(value))


MAX_ANSWER_BYTES = 64 * 1024 * 1024
"""How large an answer's output may be, counted by :func:`json_size` (64 MiB, the bound of a line
of the adapter protocol, ``conformance.adapters.protocol.MAX_LINE_BYTES``, which an adapter
process meets first); a larger one is malformed output, its case ``errored``. The same for an
implementation in process, whose answer no line bounds."""


def json_size(value: Any, limit: int = MAX_ANSWER_BYTES) -> int:
    """About how many bytes ``value`` (JSON data) takes as compact JSON in UTF-8 (strings by their
    UTF-8 length and two quotes, escapes not counted), counted without recursion; the count stops
    once past ``limit`` (larger is as bad). Costs no copy of the data."""
    total, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += (len(item) if item.isascii() else len(item.encode("utf-8", "surrogatepass"))) + 2
        elif isinstance(item, dict):
            total += 1 + len(item)
            for key, child in item.items():
                stack.append(key)
                stack.append(child)
        elif isinstance(item, (list, tuple)):
            total += 1 + max(len(item), 1)
            stack.extend(item)
        else:
            total += len(repr(item)) if isinstance(item, (int, float)) and not isinstance(item, bool) else 5
        if total > limit:
            return total
    return total


def output_problem(output: Any) -> str | None:
    """Why ``output`` (an answer's output) is malformed by the protocol's bounds, its nesting
    (:data:`MAX_ANSWER_DEPTH`) or its size (:data:`MAX_ANSWER_BYTES`), or ``None``: one message
    per bound for every adapter, in process, served or a process of its own."""
    deep = too_deep(output)
    if deep is not None:
        return deep
    if json_size(output) > MAX_ANSWER_BYTES:
        return f"malformed output: more than {MAX_ANSWER_BYTES:,} bytes as JSON (the answer bound)"
    return None


@dataclass
class Answer:
    """One answer to one request.

    Attributes:
        kind: ``result`` (the operation's output object); ``error`` (a refusal defined by the
            specification, with its stable ``code`` and a message); ``unsupported`` (the
            implementation does not provide this operation, or a field it needs); ``skipped``
            (the implementation chose not to run this case, with a reason); ``errored``, which
            the kit adds itself when the adapter crashes, hangs, or answers malformed output.
        output: the result object (``kind == "result"``).
        code: the spec error code (``kind == "error"``).
        message: error message, unsupported/skipped reason, or what went wrong (``errored``).
        stderr: the adapter's stderr tail, when the kit has one (``errored``).
        no_answer: ``True`` on an ``errored`` answer the kit wrote because the implementation
            gave none: the adapter crashed or exited, hung past the timeout, or broke the protocol
            (a malformed answer, output that is not JSON data). ``False`` on an ``errored`` the
            implementation itself answered (an ``errored`` reply, an exception raised in process).
    """

    kind: AnswerKind
    output: Any = None
    code: str | None = None
    message: str = ""
    stderr: str = ""
    no_answer: bool = False

    @classmethod
    def result(cls, output: Any) -> "Answer":
        return cls("result", output=output)

    @classmethod
    def error(cls, code: str, message: str = "") -> "Answer":
        return cls("error", code=code, message=message)


@dataclass
class Hello:
    """What an adapter says about itself at start.

    Attributes:
        name, version, language: the implementation under test (``"reference"``, ``"0.1.0"``,
            ``"python"``).
        operations: the operation names it provides; the others are answered ``unsupported``
            without being sent.
        protocol: the protocol version it speaks.
        gives: the facets it gives (:mod:`conformance.judge.facets`: output fields no clause defines,
            compared only for an implementation that declares them); ``None``: every facet (the
            bundled reference).
    """

    name: str
    version: str
    language: str
    operations: list[str] = field(default_factory=list)
    protocol: int = 1
    gives: tuple[str, ...] | None = ()


class AdapterStartError(Exception):
    """The adapter could not be started or did not complete the handshake."""


class AdapterNameError(ValueError):
    """An ``--adapter`` value that names no adapter (empty, a command that cannot be split, or a
    ``python:`` name not of the form ``python:MODULE:CLASS``): a usage error (exit 2), not an
    adapter that could not start."""


@runtime_checkable
class Adapter(Protocol):
    """What the runner talks to. Both in-process and out-of-process adapters follow it."""

    def start(self) -> Hello:
        """Start the implementation; raise :class:`AdapterStartError` when it cannot start."""

    def run(self, op: str, input: dict, *, root: str | None, timeout: float,
            edition: str | None = None) -> Answer:
        """Run one request and answer it: ``op``, its ``input`` (a JSON object already validated
        against the operation's input model) and, for operations that use a file tree, the
        absolute path ``root`` of the materialised tree. Never raises for the implementation's
        faults."""

    def stop(self) -> None:
        """Stop the implementation and release what it holds."""


class Implementation:
    """Base class for a Python implementation run in process (``--adapter python:MODULE:CLASS``).

    Subclasses set ``name``, ``version`` and ``language`` and implement :meth:`operations` and
    :meth:`run`. ``run`` returns the output object (a JSON-compatible ``dict``) or raises
    :class:`ImplementationError` for a refusal defined by the specification; any other exception
    makes the case ``errored``.

    ``edition`` is set by the adapter before each :meth:`run`: the name of the edition of the
    specification the case is judged by (``pi-1.6.0``; ``None`` for the kit's own operations or
    an older kit), as the ``run`` request's ``edition`` field carries it (PROTOCOL.md).
    """

    name = "unnamed"
    version = "0"
    language = "python"
    edition: str | None = None
    gives: tuple[str, ...] = ()
    """The facets it gives (``conformance.judge.facets.FACETS``; PROTOCOL.md, ``started``)."""

    def operations(self) -> list[str]:
        raise NotImplementedError

    def run(self, op: str, input: dict, root: str | None) -> dict:
        raise NotImplementedError

    def close(self) -> None:
        """Release resources at the end of a run."""


class ImplementationError(Exception):
    """A spec refusal raised by an :class:`Implementation`: ``code`` is compared by cases."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Unsupported(Exception):
    """Raised by an :class:`Implementation` for an operation or field it does not provide."""


class Skipped(Exception):
    """Raised by an :class:`Implementation` that chooses not to run a case."""

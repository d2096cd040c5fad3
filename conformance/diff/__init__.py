"""Differential testing: two implementations on generated inputs, every disagreement shrunk to a
minimal input and printed as a ready scenario file (:mod:`conformance.diff.scenario`)."""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Callable, Sequence

from conformance.judge import golden
from conformance.adapters.base import Adapter, Answer

if TYPE_CHECKING:
    from conformance.diff.known import KnownDivergences

DEFAULT_EXAMPLES = 20
"""Examples per operation when none are asked for."""

DEFAULT_TIMEOUT = 10.0
"""Seconds an out-of-process adapter has to answer one request."""


DIFF_TREE_PREFIX = "pi-conformance-diff-"
"""How an example's tree folder is named: the prefix, the kit's process id, ``-`` and a random
part (the runner's trees are named alike, :data:`conformance.judge.runner.TREE_PREFIX`)."""


class Disagreeing(AssertionError):
    """The two answers to the current example differ (raised inside the hypothesis test)."""


@dataclass
class Disagreement:
    """The minimal example on which two adapters disagree.

    Attributes:
        op: the operation. input, tree: the example (``tree`` a scenario ``tree`` mapping or ``None``).
        answers: the two answers, in the adapters' order. views: what was compared of each
            (:func:`answer_view`). normalisers: the normalisers applied.
    """

    op: str
    input: dict
    tree: dict | None
    answers: tuple[Answer, Answer]
    views: tuple[Any, Any]
    normalisers: list[str]


@dataclass
class OperationReport:
    """The outcome of one operation: ``examples`` drawn and compared (at most the budget),
    ``shrinks`` the steps taken to shrink a disagreement found (each a further example sent to
    both adapters), ``source`` of the strategy
    (``hand-written`` or ``fallback``), the :class:`Disagreement` found (or ``None``), ``error``
    when the kit itself failed (an invalid generated input, say), and the wall time in seconds.
    ``known``: how many examples disagreed only where a recorded divergence does
    (:mod:`conformance.diff.known`); ``known_cases``: the ids of those recorded cases, in the
    order first met. ``fault``: why the search stopped because one adapter gave no answer of its
    implementation (it crashed, hung or answered malformed output) or answered an example
    differently when it was sent again (see :func:`adapter_fault`), and ``fault_side`` which (0 the
    first, 1 the second); such an example is no disagreement."""

    op: str
    source: str
    examples: int = 0
    disagreement: Disagreement | None = None
    error: str = ""
    duration: float = 0.0
    known: int = 0
    known_cases: list[str] = field(default_factory=list)
    fault: str = ""
    fault_side: int = 0
    shrinks: int = 0


@dataclass
class SuiteFacts:
    """What the bundled suite's cases of one operation say: the normalisers they name (in the
    order first named) and how many cases cite each clause."""

    normalisers: list[str] = field(default_factory=list)
    clauses: dict[str, int] = field(default_factory=dict)


@functools.lru_cache(maxsize=1)
def suite_facts() -> dict[str, SuiteFacts]:
    """:class:`SuiteFacts` by operation, read once from the bundled suite."""
    from conformance.corpus.cases import SCENARIOS_DIR, load_suite

    facts: dict[str, SuiteFacts] = {}
    for case in load_suite(SCENARIOS_DIR).cases:
        row = facts.setdefault(case.op, SuiteFacts())
        row.normalisers += [n for n in case.normalise if n not in row.normalisers]
        for clause in case.clauses:
            row.clauses[clause] = row.clauses.get(clause, 0) + 1
    return facts


def operation_normalisers(op: str) -> tuple[str, ...]:
    """The normalisers an answer of ``op`` is compared under: those the operation declares
    (``Operation.normalisers``), else every normaliser the suite's cases of ``op`` name, in the
    order first named."""
    from conformance.operations import catalogue

    declared = catalogue()[op].normalisers
    if declared:
        return tuple(declared)
    return tuple(suite_facts().get(op, SuiteFacts()).normalisers)


def answer_view(answer: Answer, op: str, input: dict, tree: dict | None, roots: list[str],
                normalisers: Sequence[str]) -> Any:
    """What is compared of ``answer``: ``["result", OUTPUT]`` (root replaced, canonical,
    normalised), ``["error", CODE]``, or ``[KIND]`` for the other kinds (never a message)."""
    from conformance.judge.normalise import replace_root
    from conformance.corpus.trees import parse_tree

    if answer.kind == "result":
        case = SimpleNamespace(input=input, tree=parse_tree(tree) if tree is not None else None, op=op)
        try:
            output = golden.comparable(replace_root(answer.output, roots), list(normalisers), case)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            return ["result", f"<not comparable: {exc}>"]
        return ["result", output]
    if answer.kind == "error":
        return ["error", answer.code]
    return [answer.kind]


def ask(adapter: Adapter, op: str, input: dict, tree: dict | None, timeout: float,
        edition: str | None = None) -> tuple[Answer, list[str]]:
    """Send one request to ``adapter``, materialising ``tree`` in a fresh temporary folder, with
    the edition a case of ``op``'s area is judged by in a run of ``edition`` (``None``: the
    default, see :func:`conformance.corpus.editions.judged`). Returns the answer and the root paths to
    replace in it."""
    from conformance.corpus.editions import judged
    from conformance.corpus.trees import materialise, parse_tree, tree_folder

    payload = json.loads(json.dumps(input))
    edition = judged(edition, op.split(".", 1)[0]) if not op.startswith("kit.") else None
    if tree is None:
        return adapter.run(op, payload, root=None, timeout=timeout, edition=edition), []
    with tree_folder(DIFF_TREE_PREFIX) as (root, tmp):
        try:
            materialise(parse_tree(tree), Path(root))
        except OSError as exc:
            return Answer("errored", message=f"the kit could not materialise the tree: {exc}"), []
        return adapter.run(op, payload, root=root, timeout=timeout, edition=edition), [root, tmp]


def exchange(adapters: tuple[Adapter, Adapter], op: str, input: dict, tree: dict | None,
             timeout: float, edition: str | None = None) -> tuple[list[Answer], list[Any], list[str]]:
    """Send the example to both adapters (judged by ``edition``, see :func:`ask`). Returns their
    answers (tree root replaced), the views compared (:func:`answer_view`) and the normalisers.
    Raises ``ValueError`` when ``input`` is not valid for ``op`` (a fault of the strategy, not of
    an implementation)."""
    from pydantic import ValidationError

    from conformance.output.console import raise_if_interrupted
    from conformance.judge.normalise import replace_root
    from conformance.operations import catalogue

    raise_if_interrupted()  # a signal swallowed by hypothesis's gc callback ends the run here
    try:
        catalogue()[op].input.model_validate(input)
    except ValidationError as exc:
        raise ValueError(f"the strategy of {op} generated an invalid input {input!r}: {exc}") from None
    names = list(operation_normalisers(op))
    answers, views = [], []
    for adapter in adapters:
        answer, roots = ask(adapter, op, input, tree, timeout, edition)
        if answer.kind == "result" and roots:
            answer = Answer("result", output=replace_root(answer.output, roots))
        answers.append(answer)
        views.append(answer_view(answer, op, input, tree, roots, names))
    return answers, views, names


def disagreement(op: str, input: dict, tree: dict | None, answers: Sequence[Answer], views: Sequence[Any],
                 names: list[str]) -> Disagreement | None:
    """The :class:`Disagreement` when the two ``views`` differ. An ``unsupported`` or
    ``skipped`` answer from either side is no disagreement (the implementation declined the
    example)."""
    if any(v[0] in ("unsupported", "skipped") for v in views) or golden.same(views[0], views[1]):
        return None
    return Disagreement(op, input, tree, (answers[0], answers[1]), (views[0], views[1]), names)


def compare(adapters: tuple[Adapter, Adapter], op: str, input: dict, tree: dict | None,
            timeout: float, edition: str | None = None) -> Disagreement | None:
    """Send the example to both adapters (:func:`exchange`); the :class:`Disagreement` when
    their views differ (:func:`disagreement`). Raises ``ValueError`` as :func:`exchange` does."""
    answers, views, names = exchange(adapters, op, input, tree, timeout, edition)
    return disagreement(op, input, tree, answers, views, names)


def example_text(input: dict, tree: dict | None) -> str:
    """An example as one line of JSON (``input``, and ``tree`` when there is one), its keys in
    the order generated: two examples that differ only in the order of their keys are two
    examples (the order of a request's questions is the order of its answer, say), so this text
    is also what tells examples apart."""
    shown = {"input": input} if tree is None else {"input": input, "tree": tree}
    return json.dumps(shown, ensure_ascii=False)


def answer_text(answer: Answer) -> str:
    """One answer as the console shows it in a fault: its kind and code, output or message."""
    if answer.kind == "result":
        return f"result {json.dumps(answer.output, sort_keys=True, ensure_ascii=False)}"
    if answer.kind == "error":
        return f"error {answer.code}"
    return f"{answer.kind}: {answer.message}" if answer.message else answer.kind


def failure_text(answer: Answer, key: str) -> str:
    """An ``errored`` answer to the example ``key`` (:func:`example_text`) as a fault says it:
    the example, what went wrong and the end of the adapter's standard error when it has one."""
    tail = f"; its standard error ended: {answer.stderr.strip()}" if answer.stderr.strip() else ""
    return f"failed on {key}: {answer.message}{tail}"


def adapter_fault(answers: Sequence[Answer], views: Sequence[Any], key: str,
                  memo: dict[tuple[int, str], tuple[Answer, Any]]) -> tuple[int, str] | None:
    """The first adapter whose answer to this example (``key``, see :func:`example_text`) is no
    answer of its implementation, as ``(side, text)``: an ``errored`` one the kit wrote because
    the adapter crashed, hung or broke the protocol (``Answer.no_answer``;
    :func:`failure_text`), or one that differs from the answer it gave the same example before
    (kept in ``memo``; the text gives the example and both answers). Either is the adapter's
    fault, never a disagreement of the two implementations; an ``errored`` answer of the
    implementation's own (an exception it raised) is compared as any answer. ``None`` when
    both answered, as before (or for the first time)."""
    for side, answer in enumerate(answers):
        if answer.no_answer:
            return side, failure_text(answer, key)
    for side, (answer, view) in enumerate(zip(answers, views)):
        before = memo.setdefault((side, key), (answer, view))
        if not golden.same(before[1], view):
            return side, (f"answered the same example differently: {key}; first {answer_text(before[0])}; "
                          f"then {answer_text(answer)}")
    return None


def prune_tree(found: Disagreement, still: Callable[[dict], Disagreement | None]) -> tuple[Disagreement, int]:
    """``found`` with every entry of its tree that the disagreement does not need taken out:
    each entry in turn is left out, and stays out when ``still`` (the example sent again with
    that smaller tree) answers a disagreement, until no entry can go (hypothesis shrinks what a
    strategy draws, not the files a strategy always writes). Returns the smallest disagreement
    and how many examples were sent."""
    sent = 0
    shrinking = found.tree is not None
    while shrinking and found.tree:
        shrinking = False
        for path in list(found.tree):
            sent += 1
            smaller = still({k: v for k, v in found.tree.items() if k != path})
            if smaller is not None:
                found, shrinking = smaller, True
                break
    return found, sent


def diff_operation(adapters: tuple[Adapter, Adapter], op: str, *, examples: int = DEFAULT_EXAMPLES,
                   seed: int | None = None, timeout: float = DEFAULT_TIMEOUT, shrink: bool = True,
                   known: "KnownDivergences | None" = None, edition: str | None = None,
                   seen: Callable[[dict, "dict | None"], None] | None = None) -> OperationReport:
    """Compare ``adapters`` (both started) on ``examples`` generated examples of ``op``, then on
    its frames, and shrink the first disagreement (unless ``shrink`` is false: the first one found
    is kept as it was drawn). Examples come from the operation's strategy
    (:mod:`conformance.strategies`); each is sent to both adapters through the normal protocol,
    its file tree materialised in a fresh temporary folder for each adapter, as the runner does,
    and the two answers are compared as a case would compare them (:func:`answer_view`). A
    disagreement fails the hypothesis test, which shrinks it; the example database is off. The
    operation's frames (:func:`conformance.strategies.frames_for`: examples built on purpose from
    combinations of its declared input classes) are sent after the drawn ones, when those found no
    disagreement, and are not counted against ``examples``; a frame's disagreement has only its
    tree shrunk. ``seed`` ``None`` derandomizes (the same examples every run); ``edition``: the
    edition judged (``None``: the default), sent with every request. A disagreement that
    ``known`` explains is counted in the report and the search goes on. ``seen``, when given, is
    called with each drawn example's and frame's input and tree (not the shrink steps)."""
    from conformance.diff.known import signature

    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hyp_seed
    from hypothesis.errors import Flaky

    from conformance.strategies import for_operation, frames_for

    started = time.perf_counter()
    strategy, source = for_operation(op)
    report = OperationReport(op, source)
    last: list[Disagreement] = []
    memo: dict[tuple[int, str], tuple[Answer, Any]] = {}
    # ``body`` counts every call, shrink steps too; drawn examples are counted here instead:
    # a call made once a disagreement was found (``last``) is a shrink step or the final replay.
    drawn = SimpleNamespace(examples=0, known=0, known_cases=0)

    def compare(adapters: tuple[Adapter, Adapter], op: str, input: dict, tree: dict | None,
                timeout: float, edition: str | None) -> Disagreement | None:
        # Shadows the module's compare so that ``body``'s source, from which hypothesis derives
        # the derandomized examples, stays as it was: the same examples as before faults were seen.
        if report.fault:
            return None
        if last:
            report.shrinks += 1
        else:
            drawn.examples, drawn.known, drawn.known_cases = drawn.examples + 1, report.known, len(report.known_cases)
            if seen is not None:
                seen(input, tree)
        answers, views, names = exchange(adapters, op, input, tree, timeout, edition)
        fault = adapter_fault(answers, views, example_text(input, tree), memo)
        if fault is not None:
            report.fault_side, report.fault = fault
            return None
        return disagreement(op, input, tree, answers, views, names)

    def body(example: Any) -> None:
        input, tree = example
        report.examples += 1
        found = compare(adapters, op, input, tree, timeout, edition)
        explained = known.explain(op, signature(found.views)) if found is not None and known else []
        if explained:
            report.known += 1
            report.known_cases += [c.id for c in explained if c.id not in report.known_cases]
        elif found is not None:
            last[:] = [found]
            raise Disagreeing(op)

    test = settings(max_examples=examples, derandomize=seed is None, database=None, deadline=None,
                    print_blob=False, report_multiple_bugs=False,
                    phases=(Phase.explicit, Phase.generate) + ((Phase.shrink,) if shrink else ()),
                    suppress_health_check=list(HealthCheck))(given(strategy)(body))
    if seed is not None:
        test = hyp_seed(seed)(test)
    framed = False  # a frame disagreed, which hypothesis neither shrinks nor replays
    try:
        test()
        framed = True
        for example in frames_for(op):  # what the drawn examples may have missed, after them
            body(example)
    except Disagreeing:
        report.disagreement = last[0]
    except Flaky:  # a disagreement that did not come back on the replay: the fault says why
        report.fault = report.fault or "answered the same example differently when it was sent again"
    except ValueError as exc:
        report.error = str(exc)
    report.examples = drawn.examples
    if shrink and report.disagreement is not None and not report.fault:

        def still(tree: dict) -> Disagreement | None:
            found = compare(adapters, op, report.disagreement.input, tree, timeout, edition)
            explained = known.explain(op, signature(found.views)) if found is not None and known else []
            return None if explained else found

        report.disagreement = prune_tree(report.disagreement, still)[0]  # each step counted by compare
    if last:  # what the shrink steps met is no example of the budget
        report.known, report.known_cases = drawn.known, report.known_cases[:drawn.known_cases]
        report.shrinks = report.shrinks if framed else max(report.shrinks - 1, 0)  # hypothesis ends by replaying the minimal example
    if report.fault:
        report.disagreement = None
    report.duration = time.perf_counter() - started
    return report


def check_ops_in_areas(ops: Sequence[str] | None, areas: Sequence[str] | None) -> None:
    """Refuse an operation of ``ops`` outside every area of ``areas`` (an operation's area is its
    name before the first dot), as ``run`` refuses a ``--case`` outside ``--area``: the diff would
    compare an area the user left out. Nothing is refused when either is empty.

    Raises ``ValueError`` naming the operations and the areas."""
    outside = [o for o in ops or () if areas and o.split(".", 1)[0] not in areas]
    if outside:
        raise ValueError(f"--op {', '.join(outside)}: not of --area {', '.join(areas)} (an operation's "
                         "area is its name before the dot; give its --area too, or leave --area out)")


def common_operations(first: Sequence[str], second: Sequence[str], *, areas: Sequence[str] | None = None,
                      ops: Sequence[str] | None = None) -> list[str]:
    """The operations both adapters provide (``kit.*`` left out), of ``areas``, or exactly
    ``ops`` (which must be of ``areas`` when both are given, :func:`check_ops_in_areas`); sorted.
    Raises ``ValueError`` naming an operation of ``ops`` that is unknown, that one adapter lacks,
    or that is of none of ``areas``."""
    from conformance.operations import catalogue

    check_ops_in_areas(ops, areas)
    both = sorted((set(first) & set(second) & set(catalogue())) - {o for o in first if o.startswith("kit.")})
    if ops:
        missing = [o for o in ops if o not in both]
        if missing:
            raise ValueError(f"--op {', '.join(missing)}: not an operation both adapters provide "
                             f"(they share: {', '.join(both) or 'none'})")
        return sorted(set(ops))
    return [o for o in both if not areas or o.split(".", 1)[0] in areas]


def run_diff(adapters: tuple[Adapter, Adapter], *, areas: Sequence[str] | None = None,
             ops: Sequence[str] | None = None, examples: int = DEFAULT_EXAMPLES, seed: int | None = None,
             timeout: float = DEFAULT_TIMEOUT, shrink: bool = True,
             progress: Callable[[OperationReport], None] | None = None,
             expectations: Any = None, edition: str | None = None) -> list[OperationReport]:
    """Start both adapters, compare them on every shared operation (see
    :func:`common_operations`), stop them. With ``expectations`` (loaded
    :class:`~conformance.judge.expectations.Expectations`), a disagreement only at places where a
    recorded divergence differs too is counted as known (:mod:`conformance.diff.known`), not
    reported. ``edition``: the edition judged (``None``: the default; see :func:`ask`). Raises
    :class:`~conformance.adapters.base.AdapterStartError` when one cannot start and ``ValueError``
    for a bad ``ops`` selection."""
    started: list[Adapter] = []
    reports = []
    try:
        hellos = []
        for adapter in adapters:
            hellos.append(adapter.start())
            started.append(adapter)
        selected = common_operations(hellos[0].operations, hellos[1].operations, areas=areas, ops=ops)
        known = None
        if expectations is not None:
            from conformance.diff.known import recorded

            def views_of(op: str, input: dict, tree: dict | None) -> tuple[Any, Any] | None:
                found = compare(adapters, op, input, tree, timeout, edition)
                return None if found is None else found.views

            known = recorded(expectations, views_of, selected, edition)
        for op in selected:
            report = diff_operation(adapters, op, examples=examples, seed=seed, timeout=timeout, shrink=shrink,
                                    known=known, edition=edition)
            reports.append(report)
            if progress:
                progress(report)
    finally:
        for adapter in started:
            adapter.stop()
    return reports

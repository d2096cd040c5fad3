"""Property-based invariants (hypothesis), run through the adapter protocol against any
implementation; a counterexample is shrunk and printed as a ready-to-commit scenario file. The
budget is fixed and derandomized by default, so CI draws the same examples every run."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from conformance.adapters.base import Adapter
from conformance.commands.options import example_count
from conformance.output.console import shown
from conformance.invariants.core import (  # noqa: F401  (the package's public names)
    Check,
    Client,
    Counterexample,
    Invariant,
    OperationUnsupported,
    Request,
    RequestFailed,
    invariant,
    registered,
)

DEFAULT_EXAMPLES = 25
"""Examples per invariant in the default (CI) run: derandomized, so every run draws the same."""

EXAMPLES_ENV = "PI_CONFORMANCE_INVARIANT_EXAMPLES"
"""Environment variable that sets the number of examples per invariant (the on-demand budget)."""

DEFAULT_TIMEOUT = 10.0
"""Seconds an out-of-process adapter has to answer one request."""

def case_prefix(area: str, op: str, cases: Sequence[Any] | None = None) -> str:
    """The case-id prefix (``env``, ``prof``, ``msg``, ...) the suite's cases of ``op`` use.

    Taken from ``cases`` (default: the bundled suite's): the most common first word of the ids of
    the cases of ``op``, else of the cases of ``area``, else ``area`` itself. Ties go to the
    alphabetically first prefix.
    """
    counts = _prefix_counts() if cases is None else _count_prefixes(cases)
    for key in (op, area):
        found = counts.get(key)
        if found:
            return min(found, key=lambda prefix: (-found[prefix], prefix))
    return area


def _count_prefixes(cases: Sequence[Any]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for case in cases:
        prefix = case.id.split("-", 1)[0]
        for key in (case.op, case.area):
            row = counts.setdefault(key, {})
            row[prefix] = row.get(prefix, 0) + 1
    return counts


@functools.lru_cache(maxsize=1)
def _prefix_counts() -> dict[str, dict[str, int]]:
    from conformance.corpus.cases import SCENARIOS_DIR, load_suite

    return _count_prefixes(load_suite(SCENARIOS_DIR).cases)


def invariants(areas: Sequence[str] | None = None, patterns: Sequence[str] | None = None) -> list[Invariant]:
    """Every registered invariant (of ``areas``, matching an id glob of ``patterns``), by id."""
    from conformance.corpus.cases import select
    from conformance.invariants import envelope, pi, profiles  # noqa: F401  (registration)

    return select(registered(), areas=areas, patterns=patterns)


@dataclass
class InvariantResult:
    """The outcome of one invariant against one implementation.

    Attributes:
        id, area, title, clauses: from the invariant.
        status: ``passed``, ``failed``, ``errored`` or ``unsupported``.
        examples: how many examples were drawn and checked (at most the budget, ``0`` when not
            run). shrinks: how many further examples shrinking a counterexample took.
        message: why it did not pass.
        requests: the requests of the minimal failing example.
        scenario: that example as a scenario file's text (``failed``/``errored`` only).
        duration: wall time in seconds.
    """

    id: str
    area: str
    title: str
    clauses: list[str]
    status: str
    examples: int = 0
    message: str = ""
    requests: list[Request] = field(default_factory=list)
    scenario: str = ""
    duration: float = 0.0
    shrinks: int = 0

    def record(self) -> dict:
        """A plain record for JSON reports."""
        return {"id": self.id, "area": self.area, "title": self.title, "clauses": self.clauses,
                "status": self.status, "examples": self.examples, "message": self.message,
                "scenario": self.scenario, "duration": round(self.duration, 6)}


def example_budget(examples: int | None = None) -> int:
    """Examples per invariant: ``examples`` when given, else ``$PI_CONFORMANCE_INVARIANT_EXAMPLES``,
    else :data:`DEFAULT_EXAMPLES`. Raises ``ValueError``, naming where the value came from, for a
    value below 1 or above :data:`~conformance.commands.options.MAX_EXAMPLES`, or a variable that is not
    a whole number."""
    source = "--examples"
    if examples is None:
        raw = os.environ.get(EXAMPLES_ENV, "").strip()
        source = f"${EXAMPLES_ENV}"
        try:
            examples = int(raw) if raw else DEFAULT_EXAMPLES
        except ValueError:
            raise ValueError(f"{source}: the number of examples must be a whole number, got {raw!r}") from None
    return example_count(examples, source)


def calls_in(statistics: dict, phase: str) -> int:
    """How many times hypothesis called the test function in ``phase`` (``generate``,
    ``shrink``), from the statistics of one run (``hypothesis.statistics.collector``): its test
    cases that were not cut short while their example was drawn."""
    cases = statistics.get(f"{phase}-phase", {}).get("test-cases", [])
    return sum(1 for case in cases if case.get("status") in ("valid", "interesting"))


def run_invariant(inv: Invariant, adapter: Adapter, operations: set[str], *, examples: int | None = None,
                  seed: int | None = None, timeout: float = DEFAULT_TIMEOUT, shrink: bool = True) -> InvariantResult:
    """Check ``inv`` through a started ``adapter`` whose hello lists ``operations``. Every request
    goes through the adapter exactly as a scenario's does, its input validated against the
    operation's input model before it is sent; a failing example is shrunk, and
    :func:`scenario_text` prints it as a scenario file ready to commit.

    ``seed`` ``None`` derandomizes hypothesis (the CI default: the same examples every run); an
    integer seeds it instead (explore other inputs). ``shrink`` false keeps the first failing
    example as it was found instead of shrinking it (as ``diff_operation``'s). Returns the
    :class:`InvariantResult`.
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import example as hyp_example
    from hypothesis import seed as hyp_seed

    started = time.perf_counter()
    result = InvariantResult(inv.id, inv.area, inv.title, list(inv.clauses), "passed")
    missing = [op for op in inv.ops if op not in operations]
    if missing:
        result.status, result.message = "unsupported", f"the implementation lacks {', '.join(missing)}"
        return result
    from hypothesis.errors import Flaky

    client = Client(adapter, operations, timeout)
    count = [0]
    unsupported: list[str] = []
    failed: list[tuple[str, list[Request]]] = []

    def body(example: Any) -> None:
        if failed:
            return
        client.requests = []
        count[0] += 1
        try:
            inv.check(client, example)
        except OperationUnsupported as exc:
            unsupported.append(str(exc))
        except RequestFailed as exc:
            if exc.answer.kind != "errored":
                raise
            # The adapter itself failed (crashed, hung, malformed output): the kit restarts it, so
            # the example is neither shrunk nor replayed; its own reason is reported as it is.
            stderr = shown(exc.answer.stderr.strip())
            failed.append((f"{exc.op}: {exc.answer.message}"
                           + (f"; its standard error ended: {stderr}" if stderr else ""), list(client.requests)))

    test = given(inv.strategy())(body)
    for framed in reversed(inv.frames() if inv.frames is not None else []):
        test = hyp_example(framed)(test)
    test = settings(
        max_examples=example_budget(examples), derandomize=seed is None, database=None, deadline=None,
        print_blob=False, report_multiple_bugs=False,
        phases=(Phase.explicit, Phase.reuse, Phase.generate) + ((Phase.shrink,) if shrink else ()),
        suppress_health_check=list(HealthCheck),
    )(test)
    if seed is not None:
        test = hyp_seed(seed)(test)
    from hypothesis.statistics import collector

    phases: dict = {}
    try:
        with collector.with_value(phases.update):
            test()
    except (Counterexample, RequestFailed) as exc:
        result.status = "failed" if isinstance(exc, Counterexample) or exc.answer.kind in ("result", "error") \
            else "errored"
        result.message = str(exc)
    except Flaky:  # a failure that did not come back on the replay
        result.status = "errored"
        result.message = "the adapter answered the same example differently when it was sent again"
    except ValueError as exc:  # an invalid generated input: the invariant's own fault
        result.status, result.message = "errored", f"invariant error: {exc}"
    except Exception as exc:  # noqa: BLE001 - any other failure of the check is reported, not raised
        result.status = "errored"
        result.message = f"{type(exc).__name__}: {exc}\n" + "".join(traceback.format_exception(exc))[-2000:]
    # ``body`` counts every call it checked, the shrink steps and the final replay of a
    # counterexample too; the examples drawn are the generate phase's
    result.examples = min(count[0], calls_in(phases, "generate"))
    result.shrinks = calls_in(phases, "shrink")
    if failed:
        result.status, result.message = "errored", f"the adapter failed: {failed[0][0]}"
        client.requests = failed[0][1]
    if result.status in ("failed", "errored") and client.requests:
        result.requests = list(client.requests)
        result.scenario = scenario_text(inv, result.requests, result.message)
    if result.status == "passed" and unsupported:
        result.status, result.message = "unsupported", unsupported[0]
    result.duration = time.perf_counter() - started
    return result


def run_invariants(adapter: Adapter, selected: Sequence[Invariant] | None = None, *, examples: int | None = None,
                   seed: int | None = None, timeout: float = DEFAULT_TIMEOUT,
                   progress: Callable[[InvariantResult], None] | None = None) -> list[InvariantResult]:
    """Start ``adapter``, check every invariant of ``selected`` (default: all), stop it.

    Raises :class:`~conformance.adapters.base.AdapterStartError` when the adapter cannot start.
    """
    hello = adapter.start()
    ops = set(hello.operations)
    results = []
    try:
        for inv in (invariants() if selected is None else selected):
            r = run_invariant(inv, adapter, ops, examples=examples, seed=seed, timeout=timeout)
            results.append(r)
            if progress:
                progress(r)
    finally:
        adapter.stop()
    return results


# ---------------------------------------------------------------------------------------------
# Counterexamples as scenario files


def scenario_yaml(data: Any) -> str:
    """A scenario file's data as YAML text (block style, multi-line strings as literal blocks
    where that reads back exactly); shared by the invariants' and ``diff``'s printed cases."""
    from ruamel.yaml import YAML
    from ruamel.yaml.scalarstring import LiteralScalarString

    def node(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: node(v) for k, v in value.items()}
        if isinstance(value, list):
            return [node(v) for v in value]
        if isinstance(value, str) and "\n" in value and _literal_round_trips(value):
            return LiteralScalarString(value)
        return value

    yaml = YAML(typ="rt", pure=True)
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.allow_unicode = True
    buf = io.StringIO()
    yaml.dump(node(data), buf)
    return buf.getvalue()


def _literal_round_trips(text: str) -> bool:
    from ruamel.yaml import YAML
    from ruamel.yaml.scalarstring import LiteralScalarString

    buf = io.StringIO()
    YAML(typ="rt", pure=True).dump({"v": LiteralScalarString(text)}, buf)
    try:
        return YAML(typ="safe", pure=True).load(buf.getvalue())["v"] == text
    except Exception:  # noqa: BLE001
        return False


def scenario_case_id(inv: Invariant, req: Request) -> str:
    """A stable id for a request of a counterexample: ``<prefix>-strength-<8 hex digits>`` of a
    hash of the invariant id, the operation, the input and the tree."""
    digest = hashlib.sha256(json.dumps([inv.id, req.op, req.input, req.tree],
                                       ensure_ascii=False).encode("utf-8")).hexdigest()[:8]
    return f"{case_prefix(inv.area, req.op)}-strength-{digest}"


def scenario_data(inv: Invariant, requests: Sequence[Request], message: str = "") -> dict:
    """The counterexample's requests as a scenario file's data (format 1), one case per distinct
    request, in the order they were made."""
    cases = []
    seen: set[str] = set()
    for req in requests:
        cid = scenario_case_id(inv, req)
        if cid in seen:
            continue
        seen.add(cid)
        case: dict[str, Any] = {"id": cid, "title": f"{inv.title} (counterexample of {inv.id})",
                                "clauses": [c for c in inv.clauses], "op": req.op}
        if req.tree is not None:
            case["tree"] = req.tree
        case["input"] = req.input
        cases.append(case)
    return {"format": 1, "area": inv.area, "title": f"Counterexamples found by {inv.id}", "cases": cases}


def scenario_text(inv: Invariant, requests: Sequence[Request], message: str = "") -> str:
    """:func:`scenario_data` as YAML text, with a header saying what failed and how to commit it:
    into ``conformance/scenarios/<area>/`` with goldens written by the reference
    (``pi-conformance run --update-goldens --case ID``), the example becomes a permanent case."""
    first = message.strip().splitlines()[0] if message.strip() else "the property does not hold"
    header = (
        f"# Found by invariant {inv.id}: {inv.title}\n"
        f"# {first}\n"
        f"# Save as conformance/scenarios/{inv.area}/strength-<topic>.yaml, give the cases real titles,\n"
        f"# write their goldens with `pi-conformance run --update-goldens --case ID` and read them\n"
        f"# against the spec before committing.\n"
    )
    return header + scenario_yaml(scenario_data(inv, requests, message))

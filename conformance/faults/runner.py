"""Seeded faults: deliberately broken variants of the reference, run as adapters, and the catch
matrix of which cases catch which fault (a suite is only as good as the faults it catches). The
faults themselves ship in :mod:`conformance.faults.seeded`."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection, Iterator, Sequence

from conformance.adapters.base import Adapter
from conformance.adapters.reference import ReferenceImplementation
from conformance.commands.options import DEFAULT_FAULTS_PACKAGE
from conformance.faults.patches import FaultError, Patch, applied, cannot_apply, mutate, replace, unknown_clause, wrap
from conformance.errors import ExitCode

__all__ = ["Fault", "FaultError", "FaultResult", "FaultyReference", "Matrix", "Patch", "applied", "catch_matrix",
           "format_matrix", "load_faults", "mutate", "replace", "rewrites", "select_faults", "wrap"]



@dataclass(frozen=True)
class Fault:
    """One deliberate mistake (a wrong tie-break, the environment message not last, an off-by-one
    at a limit, ...) and the patches that make it, each replacing one attribute of a module of
    :mod:`reference` (a function or a constant) while a request runs.

    Attributes:
        id: stable id, ``<part>-<what>`` (``env-environment-first``).
        area: the area whose cases can catch it (``envelope``, ``profiles``, ``pi``).
        title: the mistake in one sentence.
        clauses: the clause ids it breaks.
        patches: what to replace while a request runs.
        ops: the operations it can change (``None``: the operations of the cases that cite one
            of ``clauses``, or every operation of ``area`` when no case does); only cases of these
            operations are run against it.
    """

    id: str
    area: str
    title: str
    clauses: tuple[str, ...]
    patches: tuple[Patch, ...]
    ops: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.patches:
            raise ValueError(f"fault {self.id} has no patch")


def rewrites(area: str, prefix: str, rows: Sequence[tuple[str, str, str, str]]) -> list[Fault]:
    """One fault per row ``(clause id, target, old, new)``: the function ``target`` with the text
    ``old`` rewritten as ``new`` (:func:`mutate`), declaring that one clause. Its id is ``prefix``
    and the clause id (``ENV-AUDIT-GROUP`` -> ``env-audit-group``); its operations are those of the
    cases citing the clause."""
    faults = []
    for clause, target, old, new in rows:
        rest = clause.split("-", 1)[1].lower()
        fid = f"{prefix}-{rest[len(prefix) + 1:] if rest.startswith(prefix + '-') else rest}"
        def shown(text: str) -> str:
            return text.strip().splitlines()[0] + (" ..." if "\n" in text.strip() else "") if text.strip() else "nothing"

        faults.append(Fault(fid, area, f"{target.partition(':')[2]}: `{shown(old)}` written `{shown(new)}`", (clause,),
                            (mutate(target, old, new),)))
    return faults


class FaultyReference(ReferenceImplementation):
    """The reference with one :class:`Fault` applied while each request runs: an ordinary
    :class:`~conformance.adapters.base.Implementation`, so it runs through the in-process adapter
    (``--via inprocess``, the default) or through the JSON-lines protocol (``--via serve``:
    ``python -m conformance.faults.runner serve FAULT-ID``), exactly like any other implementation
    under test."""

    language = "python"

    def __init__(self, fault: Fault) -> None:
        self.fault = fault
        self.name = f"fault:{fault.id}"

    def run(self, op: str, input: dict, root: str | None) -> dict:
        with applied(self.fault):
            return super().run(op, input, root)


# ---------------------------------------------------------------------------------------------
# Loading faults


def load_faults(module: str | None = None, clauses: Collection[str] | None = None) -> list[Fault]:
    """The faults of ``module`` (a package or module exposing ``FAULTS``; default the seeded faults shipped in ``conformance.faults.seeded``). Raises
    :class:`FaultError` for a module that cannot be imported, a bad or empty ``FAULTS``, a fault id twice,
    or (given the catalogue's clause ids as ``clauses``) a fault naming a clause not among them."""
    import pkgutil

    from conformance.adapters.inprocess import look_in_working_folder_first, where_looked

    name = module or DEFAULT_FAULTS_PACKAGE
    if module:  # like --adapter python:MODULE:CLASS, the user's own folder first
        look_in_working_folder_first()
    try:  # a faults module is anyone's code: any error while importing it is reported, not raised
        pkg = importlib.import_module(name)
        mods = [pkg] + [importlib.import_module(f"{name}.{info.name}") for info in sorted(
            pkgutil.iter_modules(getattr(pkg, "__path__", [])), key=lambda m: m.name) if not info.name.startswith("_")]
    except Exception as exc:  # noqa: BLE001
        raise FaultError(f"cannot import the faults module {name}: {type(exc).__name__}: {exc}"
                         + ("" if name == DEFAULT_FAULTS_PACKAGE else where_looked(exc, name))) from exc
    faults: dict[str, Fault] = {}
    for mod in mods:
        listed = getattr(mod, "FAULTS", [])
        if not isinstance(listed, (list, tuple)) or not all(hasattr(f, "id") and hasattr(f, "area") for f in listed):
            raise FaultError(f"{mod.__name__}.FAULTS must be a list of Fault objects, not {listed!r:.80}")
        for fault in listed:
            if fault.id in faults:
                raise FaultError(f"fault id {fault.id} defined twice")
            faults[fault.id] = fault
            if clauses is not None:
                unknown_clause(mod.__name__, fault, clauses)
    if faults:
        return sorted(faults.values(), key=lambda f: f.id)
    raise FaultError(f"the faults module {name} defines no FAULTS")


def select_faults(faults: Sequence[Fault], *, areas: Sequence[str] | None = None,
                  patterns: Sequence[str] | None = None) -> list[Fault]:
    """The faults of ``areas`` whose id matches one of the globs ``patterns``."""
    from conformance.corpus.cases import select

    return select(faults, areas=areas, patterns=patterns)


# ---------------------------------------------------------------------------------------------
# The catch matrix


@dataclass
class FaultResult:
    """What the suite did to one fault.

    Attributes:
        id, area, title, clauses: from the fault.
        cases: how many cases were run against it.
        caught_by: ids of the cases that caught it (passed against the reference, not against the
            fault), in the order run.
        statuses: status of each catching case against the fault.
        ops: per operation, ``[cases run, cases that did not pass]`` against the fault.
        proves: the fault's clauses that a catching case citing them proves able to fail: the
            case's operation has a case that still passes against the fault (a fault that fails
            every case of an operation shows nothing about its clause).
        invariants: ids of the invariants that failed against it (when run).
        cannot_apply: why its patches cannot be applied (then nothing was run), or ``""``.
        duration: wall time, seconds.
    """

    id: str
    area: str
    title: str
    clauses: list[str]
    cases: int = 0
    caught_by: list[str] = field(default_factory=list)
    statuses: dict[str, str] = field(default_factory=dict)
    ops: dict[str, list[int]] = field(default_factory=dict)
    proves: list[str] = field(default_factory=list)
    invariants: list[str] = field(default_factory=list)
    cannot_apply: str = ""
    duration: float = 0.0

    @property
    def caught(self) -> bool:
        return bool(self.caught_by or self.invariants)

    @property
    def too_broad(self) -> bool:
        """Caught only by cases of operations it breaks entirely."""
        return bool(self.caught_by) and not self.proves and not self.invariants and all(
            run == failing for run, failing in self.ops.values() if failing)

    def record(self) -> dict:
        return {"id": self.id, "area": self.area, "title": self.title, "clauses": self.clauses,
                "cases": self.cases, "caughtBy": self.caught_by, "statuses": self.statuses,
                "ops": self.ops, "proves": self.proves, "tooBroad": self.too_broad,
                "invariants": self.invariants, "caught": self.caught, "cannotApply": self.cannot_apply,
                "duration": round(self.duration, 3)}


@dataclass
class Matrix:
    """The catch matrix: one :class:`FaultResult` per fault, and the cases that were checked
    against the reference (because a fault made them fail) and did not pass there either: they
    catch nothing until the reference or their golden is fixed."""

    results: list[FaultResult]
    reference_failures: list[str] = field(default_factory=list)
    uncited: list[tuple[str, str, list[str]]] = field(default_factory=list)
    """``(case id, fault id, the fault's clauses)`` for each case that a fault narrow in the case's
    operation catches though the case cites none of the fault's clauses (:func:`uncited_catches`;
    a matrix run with ``first_only`` has not looked)."""

    @property
    def survivors(self) -> list[FaultResult]:
        """The faults no case catches; the suite's tests fail while one survives
        (``tests/test_faults.py``)."""
        return [r for r in self.results if not r.caught and not r.cannot_apply]

    @property
    def unapplied(self) -> list[FaultResult]:
        """The faults whose patches cannot be applied: broken faults, not survivors."""
        return [r for r in self.results if r.cannot_apply]

    @property
    def too_broad(self) -> list[FaultResult]:
        return [r for r in self.results if r.too_broad]

    def record(self) -> dict:
        return {"faults": len(self.results), "caught": sum(r.caught for r in self.results),
                "survivors": [r.id for r in self.survivors], "tooBroad": [r.id for r in self.too_broad],
                "cannotApply": [r.id for r in self.unapplied],
                "referenceFailures": self.reference_failures,
                "uncited": [{"case": case, "fault": fault, "clauses": clauses} for case, fault, clauses in self.uncited],
                "results": [r.record() for r in self.results]}


def fault_adapter(fault: Fault, via: str = "inprocess", faults_module: str | None = None) -> Adapter:
    """An adapter over the reference with ``fault`` applied: in process, or served over the
    JSON-lines protocol by ``python -m conformance.faults.runner serve`` (``via="serve"``)."""
    if via == "inprocess":
        from conformance.adapters.inprocess import InProcessAdapter

        return InProcessAdapter(FaultyReference(fault))
    if via == "serve":
        from conformance.adapters.client import JsonLinesAdapter
        from conformance.adapters.connect import kit_module_command

        command = kit_module_command("conformance.faults.runner", "serve", fault.id)
        if faults_module:
            command += ["--faults", faults_module]
        return JsonLinesAdapter(command, name=f"fault:{fault.id}")
    raise ValueError(f"unknown --via {via!r}: inprocess or serve")


def fault_ops(fault: Fault, cases: Sequence[Any]) -> set[str] | None:
    """The operations ``fault`` is run against: its declared ``ops``, else those of the cases of its
    area that cite one of its clauses (``None``, every operation, when no case does)."""
    if fault.ops is not None:
        return set(fault.ops)
    named = set(fault.clauses)
    return {c.op for c in cases if c.area == fault.area and named & set(_citations(c))} or None


def _citations(case: Any, runner: Any = None) -> list[str]:
    """The clauses ``case`` cites when judged in ``runner``'s run, or in any edition without one
    (:func:`conformance.corpus.cases.citations`)."""
    from conformance.corpus.cases import citations

    return citations(case, runner.edition_of(case) if runner is not None else None, every=runner is None)


def _cases_for(fault: Fault, cases: Sequence[Any]) -> list[Any]:
    ops = fault_ops(fault, cases)
    return [c for c in cases if c.area == fault.area and (ops is None or c.op in ops)]


@contextmanager
def _cached_goldens() -> Iterator[None]:
    """Read each golden once while the matrix runs (the same goldens are compared for every fault)."""
    from functools import lru_cache

    from conformance.judge import golden

    originals = golden.read_stored, golden.read_folder
    golden.read_stored, golden.read_folder = (lru_cache(maxsize=None)(f) for f in originals)  # type: ignore
    try:
        yield
    finally:
        golden.read_stored, golden.read_folder = originals  # type: ignore[assignment]


def _run_fault(fault: Fault, result: FaultResult, run: list[Any], runner: Any,
               passes_on_reference: Callable[[Any], bool], first_only: bool) -> None:
    """Run ``run`` against the fault into ``result``: the cases citing its clauses first, then the
    others, those of the operations already caught first; with ``first_only``, only until the
    fault is caught and each catching case's operation has a case that still passes."""
    named = set(fault.clauses)
    citing = [c for c in run if named & set(_citations(c, runner))]
    citing_ids = {c.id for c in citing}
    by_id = {c.id: c for c in run}

    def check(case: Any) -> None:
        status = runner.run_case(case).status
        counts = result.ops.setdefault(case.op, [0, 0])
        counts[0] += 1
        result.cases += 1
        if status != "passed":
            counts[1] += 1
            if passes_on_reference(case):
                result.caught_by.append(case.id)
                result.statuses[case.id] = status

    def settled() -> bool:  # caught, and every catching operation has a case that still passes
        return bool(result.caught_by) and all(
            result.ops[by_id[cid].op][0] > result.ops[by_id[cid].op][1] for cid in result.caught_by)

    for case in citing:
        check(case)
    caught_ops = {by_id[cid].op for cid in result.caught_by}
    for case in sorted((c for c in run if c.id not in citing_ids), key=lambda c: c.op not in caught_ops):
        if first_only and settled():
            break
        check(case)
    counting = [by_id[cid] for cid in result.caught_by
                if result.ops[by_id[cid].op][0] > result.ops[by_id[cid].op][1]]
    result.proves = [cl for cl in fault.clauses if any(cl in _citations(c, runner) for c in counting)]


def catch_matrix(faults: Sequence[Fault], cases: Sequence[Any], session: Any = None, *,
                 via: str = "inprocess", faults_module: str | None = None, invariants: bool = False,
                 examples: int | None = None, timeout: float = 10.0, first_only: bool = False,
                 progress: Callable[[FaultResult], None] | None = None) -> Matrix:
    """Run ``cases`` against each fault; which cases catch which fault.

    Only the cases of a fault's area and operations (:func:`fault_ops`) are run against it. A case
    that does not pass against the fault is checked against the reference too: it catches the
    fault only when it passes there. The cases citing the fault's clauses run first; with
    ``first_only`` the others run only until the fault is caught and each catching case's
    operation has a case that still passes -- enough to tell proven, too broad and survived
    apart, and much faster. With ``invariants`` the invariants of the fault's area are checked against it as
    well (``examples`` each). ``session`` (a :class:`conformance.session.Session`; default: the
    kit's own folders) gives the goldens; each case is judged by an edition it holds in.
    """
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.judge.runner import ByEdition, Runner
    from conformance.session import Session

    gdir = (session or Session()).golden_dir
    matrix = Matrix([])
    reference_status: dict[str, str] = {}
    ref = ByEdition(lambda e: Runner(InProcessAdapter(ReferenceImplementation()), golden_dir=gdir,
                                      timeout=timeout, edition=e))

    def passes_on_reference(case: Any) -> bool:
        if case.id not in reference_status:
            reference_status[case.id] = ref.run_case(case).status
        return reference_status[case.id] == "passed"

    try:
        with _cached_goldens():
            for fault in faults:
                started = time.perf_counter()
                result = FaultResult(fault.id, fault.area, fault.title, list(fault.clauses),
                                     cannot_apply=cannot_apply(fault.patches) or "")
                if result.cannot_apply:
                    matrix.results.append(result)
                    continue
                runner = ByEdition(lambda e: Runner(fault_adapter(fault, via, faults_module), golden_dir=gdir,
                                                     timeout=timeout, edition=e, details=False))
                try:
                    _run_fault(fault, result, _cases_for(fault, cases), runner, passes_on_reference, first_only)
                finally:
                    runner.stop()
                if invariants:
                    from conformance.invariants import invariants as all_invariants, run_invariants

                    selected = [i for i in all_invariants([fault.area])
                                if fault.ops is None or set(i.ops) & set(fault.ops)]
                    for r in run_invariants(fault_adapter(fault, via, faults_module), selected,
                                            examples=examples, timeout=timeout):
                        if r.status in ("failed", "errored"):
                            result.invariants.append(r.id)
                result.duration = time.perf_counter() - started
                matrix.results.append(result)
                if progress:
                    progress(result)
    finally:
        ref.stop()
    matrix.reference_failures = sorted(cid for cid, status in reference_status.items() if status != "passed")
    if not first_only:
        matrix.uncited = uncited_catches(matrix.results, cases)
    return matrix


NARROW = 0.05
"""A fault that fails at most this share of an operation's cases is narrow there: it breaks what its
clauses state and little else, so a case of that operation it fails exercises those clauses."""


def uncited_catches(results: Sequence[FaultResult], cases: Sequence[Any]) -> list[tuple[str, str, list[str]]]:
    """``(case id, fault id, the fault's clauses)``, sorted, for each case (objects with ``id``,
    ``op`` and ``clauses``) that a fault catches while failing at most :data:`NARROW` of the cases
    of the case's operation, and that cites none of the fault's clauses: a case should cite the
    clauses it exercises, and breaking one of these changes its verdict."""
    by_id = {c.id: c for c in cases}
    found = []
    for r in results:
        for case_id in r.caught_by:
            case = by_id.get(case_id)
            ran, failing = r.ops.get(case.op, (0, 0)) if case is not None else (0, 0)
            if ran and failing <= NARROW * ran and not set(_citations(case)) & set(r.clauses):
                found.append((case_id, r.id, list(r.clauses)))
    return sorted(found)


def format_matrix(matrix: Matrix, *, verbose: bool = False) -> str:
    """One line per fault (caught or SURVIVED, how many cases caught it, the first few), then the
    count."""
    lines = []
    for r in matrix.results:
        if r.cannot_apply:
            lines.append(f"CANNOT APPLY {r.id}: {r.cannot_apply}")
            continue
        mark = "TOO BROAD" if r.too_broad else "caught   " if r.caught else "SURVIVED "
        shown = r.caught_by if verbose else r.caught_by[:4]
        more = "" if verbose or len(r.caught_by) <= 4 else f" (+{len(r.caught_by) - 4})"
        inv = f"; invariants: {', '.join(r.invariants)}" if r.invariants else ""
        lines.append(f"{mark} {r.id:<40} {len(r.caught_by):>3}/{r.cases:<4} {' '.join(shown)}{more}{inv}")
    caught = sum(r.caught for r in matrix.results)
    lines.append(f"{caught}/{len(matrix.results)} seeded faults caught"
                 + (f"; survivors: {', '.join(r.id for r in matrix.survivors)}" if matrix.survivors else "")
                 + (f"; too broad (fail every case of their operation): {', '.join(r.id for r in matrix.too_broad)}"
                    if matrix.too_broad else "")
                 + (f"; cannot apply (fix the fault): {', '.join(r.id for r in matrix.unapplied)}"
                    if matrix.unapplied else ""))
    if matrix.reference_failures:
        lines.append(f"{len(matrix.reference_failures)} case(s) do not pass against the reference and catch "
                     f"nothing: {' '.join(matrix.reference_failures[:10])}")
    if matrix.uncited:
        lines.append(f"{len(matrix.uncited)} case(s) caught a fault narrow in their operation without citing its "
                     "clauses (cite them, or say why not):")
        lines += [f"  {case} cites none of {', '.join(clauses)} ({fault})" for case, fault, clauses in matrix.uncited]
    return "\n".join(lines)


def no_fault_matches(patterns: Sequence[str] | None, areas: Sequence[str] | None = None,
                     faults_module: str | None = None) -> str:
    """The message for a selection (``--fault`` globs ``patterns``, ``--area`` ``areas``, of the
    faults of ``faults_module``) that matches no fault: what was asked and where the ids are
    listed."""
    asked = [f"--fault {p}" for p in patterns or []] + [f"--area {a}" for a in areas or []]
    listing = "pi-conformance faults " + (f"--faults {faults_module} " if faults_module else "") + "--list"
    return (f"no fault matches {' '.join(asked)}" if asked else "no fault to run") + f"; `{listing}` lists the faults"


def serve_fault(fault_id: str, faults_module: str | None = None) -> int:
    """``python -m conformance.faults.runner serve FAULT-ID``: serve the reference with one fault over the
    JSON-lines protocol on standard input and output."""
    from conformance.adapters.server import serve_main

    matches = [f for f in load_faults(faults_module) if f.id == fault_id]
    if not matches:
        print(no_fault_matches([fault_id], faults_module=faults_module), file=sys.stderr)
        return ExitCode.USAGE
    return serve_main(FaultyReference(matches[0]))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conformance.faults.runner serve FAULT-ID [--faults MODULE]`` (the command itself
    is ``pi-conformance faults``, :mod:`conformance.commands.faults`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(prog="python -m conformance.faults.runner serve")
    p.add_argument("fault_id")
    p.add_argument("--faults", default=None)
    if argv[:1] != ["serve"]:
        p.error("give serve FAULT-ID (the faults command is pi-conformance faults)")
    a = p.parse_args(argv[1:])
    return serve_fault(a.fault_id, a.faults)


if __name__ == "__main__":
    sys.exit(main())

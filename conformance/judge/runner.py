"""The runner: sends each case to an adapter and judges the answer against its golden or expected
error, then applies the implementation's expectations (:data:`STATUSES`)."""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from pydantic import ValidationError

from conformance.judge import diffs, golden, sizes
from conformance.corpus import editions
from conformance.corpus.yamlio import FileError
from conformance.errors import validation_problem
from conformance.adapters.base import Adapter, Answer, Hello, output_problem
from conformance.corpus.cases import Case, citations
from conformance.output.console import shown
from conformance.judge.normalise import replace_root
from conformance.operations import get as get_operation
from conformance.operations.error_codes import RENAMED
from conformance.corpus.shell import commands_allowed, isolation_note, runs_command
from conformance.corpus.trees import materialise, symlinks_supported, tree_folder

if TYPE_CHECKING:  # its models are built only when an expectations file is read
    from conformance.judge.expectations import Expectations

STATUSES = ("passed", "failed", "errored", "unsupported", "xfail", "xpass", "skipped")
"""The statuses of a case. ``passed``: the answer is what the case expects (its golden, or its
expected error code). ``failed``: a wrong result or error, or a result that breaks the operation's
output schema. ``errored``: the adapter crashed, hung, or answered malformed output; or the case's
golden is missing (with a hint on how to write it), unreadable or another case's, which is a suite
error (exit 2), never the implementation's failure. ``unsupported``: the implementation does not
provide the operation. ``skipped``: the implementation or the expectations file skipped it, or a
required capability is missing on this machine. ``xfail``: failed (or errored) as the
expectations file says. ``xpass``: the expectations file says it fails or is unsupported, but it
passed."""
BAD = frozenset({"failed", "errored", "xpass"})
"""The statuses that make a run fail."""
DEFAULT_TIMEOUT = 10.0


@dataclass
class CaseResult:
    """The judged outcome of one case.

    Attributes:
        id, area, op, title, clauses: from the case.
        status: one of :data:`STATUSES`.
        duration: wall time of the adapter call, in seconds.
        message: why it did not pass (or the expectation's reason for xfail/skip).
        diff: unified diff of golden and answer (canonical YAML), for wrong results.
        stderr: the adapter's stderr tail, for errored cases.
        output: the answer's output after root replacement (for reports and updates); of a case
            that did not pass, at most :data:`conformance.judge.sizes.REPORTED_ANSWER_BYTES` of it
            (:func:`conformance.judge.sizes.cut`).
    """

    id: str
    area: str
    op: str
    title: str
    clauses: list[str]
    status: str
    duration: float = 0.0
    message: str = ""
    diff: str = ""
    stderr: str = ""
    output: Any = None
    golden_written: bool = False

    def record(self) -> dict:
        """A plain record for reports (without the raw output)."""
        data = asdict(self)
        data.pop("output")
        data["duration"] = round(self.duration, 6)
        return data


@dataclass
class Verdict:
    """What an answer means for a case before expectations apply."""

    status: str
    message: str = ""
    diff: str = ""
    output: Any = None


class Runner:
    """Runs cases through one adapter.

    Args:
        adapter: a started-or-not :class:`~conformance.adapters.base.Adapter`.
        golden_dir: the ``golden/`` directory.
        timeout: per-case timeout in seconds (an in-process implementation's too, see
            :mod:`conformance.adapters.inprocess`).
        expectations: the implementation's expectations, if any.
        update: write goldens from the answers; only allowed for the bundled reference
            (``ValueError`` otherwise).
        required: operation globs the implementation must provide (``["*"]``: every operation):
            a case of such an operation answered ``unsupported`` fails, unless its expectation
            says ``unsupported``. ``None``: declining an operation is never a failure.
        edition: the edition judged (``conformance.corpus.editions``; ``None``: the default); cases of
            another area are judged by their area's default edition. The adapter is told the
            edition of each case (PROTOCOL.md, ``run`` field ``edition``) and the golden is that
            edition's (``golden.golden_path``).
        details: whether a failure shows the answer (as YAML) and its diff from the golden;
            without them a run judges the same, only faster (the seeded faults' catch matrix
            reads statuses only).
    """

    def __init__(self, adapter: Adapter, *, golden_dir: Path = golden.GOLDEN_DIR,
                 timeout: float = DEFAULT_TIMEOUT, expectations: Expectations | None = None,
                 update: bool = False, required: list[str] | None = None, edition: str | None = None,
                 details: bool = True, scenarios_dir: Path | None = None, allow_commands: bool = False) -> None:
        if update and not is_bundled_reference(adapter):
            raise ValueError("goldens can only be written by the bundled reference implementation")
        if update:
            from conformance.output.report_paths import check_update_folders

            check_update_folders(golden_dir, scenarios_dir)
        self.adapter = adapter
        self.golden_dir = golden_dir
        self.timeout = timeout
        self.expectations = expectations
        self.update = update
        self.required = required
        self.edition = editions.get(edition or editions.DEFAULT).name
        self.details = details
        self.allow_commands = commands_allowed(scenarios_dir, allow_commands)
        """Whether cases may run ``!command`` values: those of the kit's own scenarios
        (``scenarios_dir`` ``None``, or that folder) do; others only with ``allow_commands``
        (``--allow-commands``; :func:`conformance.corpus.shell.commands_allowed`)."""
        self.hello: Hello | None = None
        self.stop_error: str | None = None
        self._caps: dict[str, bool] = {}
        self._folders: dict[Path, dict[str, Any]] = {}
        self.golden_problems: dict[str, FileError] = {}
        """Cases whose golden is missing, unreadable or another case's, by case id: suite errors,
        never the implementation's failure (the case is ``errored``)."""
        self.unwritten_goldens: dict[str, list] = {}
        """Golden folders ``--update-goldens`` could not write in: folder -> [first reason, count]."""

    @property
    def gives(self) -> tuple[str, ...] | None:
        """The facets the implementation declared (``Hello.gives``): only those are compared;
        ``None`` (every facet) before the start."""
        return self.hello.gives if self.hello is not None else None

    def compared_facets(self, case: Any) -> tuple[str, ...] | None:
        """The facets compared for ``case``: those the implementation declared and those the
        case's clauses decide (``Case.facets``); ``None``: every facet."""
        gives = self.gives
        if gives is None:
            return None
        return tuple(sorted(set(gives) | set(getattr(case, "facets", ()) or ())))

    def start(self) -> Hello:
        """Start the adapter (raises ``AdapterStartError``)."""
        self.hello = self.adapter.start()
        return self.hello

    def stop(self) -> None:
        """Stop the adapter. ``stop_error`` then says how it did not stop cleanly (no ``stopped``,
        something else on standard output, a non-zero exit code, a kill: PROTOCOL.md, "Faults,
        timeouts and restarts"), or is ``None``; the CLI and the plugin make it a suite error."""
        self.adapter.stop()
        problem = getattr(self.adapter, "stop_problem", None)
        name = getattr(self.adapter, "name", None) or (self.hello.name if self.hello else "")
        self.stop_error = f"the adapter {shown(name)} did not stop cleanly: {problem}" if problem else None

    def abort(self) -> None:
        """Kill the adapter at once, without asking it to stop (a run cut short by Ctrl-C or a
        termination signal); an adapter without ``abort`` is stopped instead."""
        getattr(self.adapter, "abort", self.adapter.stop)()

    def capability(self, name: str) -> bool:
        if name not in self._caps:
            self._caps[name] = symlinks_supported() if name == "symlinks" else False
        return self._caps[name]

    def run_case(self, case: Case) -> CaseResult:
        """Run and judge one case (expectations applied)."""
        pre = self.precheck(case)
        if pre is not None:
            return pre
        answer, roots, duration = self.execute(case)
        malformed = output_problem(answer.output) if answer.kind == "result" else None
        if malformed is not None:
            answer = Answer("errored", no_answer=True, stderr=answer.stderr, message=malformed)
        verdict = self.judge(case, answer, roots)
        result = self.result(case, verdict, answer, duration)
        if self.update and answer.kind == "result" and case.error_code is None and verdict.output is not None \
                and (verdict.status == "passed" or verdict.message.startswith(("no golden", "answer differs"))):
            # Goldens keep the reference's raw output, so a change hidden by a normaliser is
            # still written.
            path = self.golden_to_write(case, verdict.output)
            scratch = _scratch_shown(verdict.output)
            if scratch is not None:  # made anew for each run: such a golden could never pass again
                result.status, result.diff = "errored", ""
                result.message = (f"golden not written: the answer shows the command's scratch folder {scratch}, made "
                                  "anew for each run; a command of this case prints its working folder")
                return self.settle(result, case)
            try:
                result.golden_written = path is not None and golden.write(path, case.id, case.op, verdict.output)
            except OSError as exc:  # a read-only or full golden folder: this golden is lost, not the run
                return self.settle(self._unwritten(result, path, exc), case)
            path = path or golden.golden_path(self.golden_dir, case.area, case.id)
            self.golden_problems.pop(case.id, None)
            if verdict.status != "passed":
                result.status, result.message, result.diff = "passed", f"golden written: {path}", ""
        if result.status != "passed" and result.output is not None:
            result.output = sizes.cut(result.output)  # what the run keeps of it, for the reports
        return self.settle(result, case)

    def _unwritten(self, result: CaseResult, path: Path, exc: OSError) -> CaseResult:
        """``result`` of a case whose golden ``--update-goldens`` could not write at ``path``:
        ``errored``, and counted in :attr:`unwritten_goldens` under its folder."""
        why = exc.strerror or str(exc)
        entry = self.unwritten_goldens.setdefault(str(path.parent), [why, 0])
        entry[1] += 1
        result.status, result.message, result.diff = "errored", f"golden not written: {path}: {why}", ""
        return result

    @property
    def golden_write_errors(self) -> list[FileError]:
        """One suite error per golden folder in which ``--update-goldens`` could not write (read
        only, full), with the first reason and how many goldens were not written."""
        return [FileError(folder, 0, 0, "", f"cannot write goldens there: {why} ({count} not written)")
                for folder, (why, count) in self.unwritten_goldens.items()]

    def edition_of(self, case: Case) -> str | None:
        """The edition ``case`` is judged by in this run (``None`` for the kit's own cases)."""
        return editions.judged(self.edition, case.area)

    def golden_to_write(self, case: Case, output: Any) -> Path | None:
        """Where ``--update-goldens`` writes ``output`` for ``case``: the area's golden, except
        when a non-default edition is judged for a case that also holds in the area's default
        edition: then the edition's own golden, or nothing when the area's golden already says
        the same."""
        main = golden.golden_path(self.golden_dir, case.area, case.id)
        own = golden.edition_golden_path(self.golden_dir, case.area, case.id, self.edition_of(case))
        if own is None or editions.default_of(case.area) not in (case.editions or ()):
            return main
        stored = golden.read(main)
        if stored is not None and not own.exists() and golden.same(golden.canonical(stored["output"]),
                                                                  golden.canonical(output)):
            return None
        return own

    def settle(self, result: CaseResult, case: Case) -> CaseResult:
        """``result`` with the case's expectation applied, then the required operations."""
        expectation = self.expectation(case)
        return require_support(apply_expectation(result, expectation), expectation, self.required)

    def expectation(self, case: Case) -> Any:
        return self.expectations.match(case.id, self.edition_of(case)) if self.expectations else None

    def precheck(self, case: Case) -> CaseResult | None:
        """The result of a case that is not to be run (skipped by expectations or capabilities)."""
        expectation = self.expectation(case)
        if expectation is not None and expectation.status == "skip":
            return self.result(case, Verdict("skipped", f"expectations: {expectation.reason}"))
        missing = [c for c in case.requires if not self.capability(c)]
        if missing:
            return self.result(case, Verdict("skipped", f"this machine lacks: {', '.join(missing)}"))
        if runs_command(case.op, case.input):
            if not self.allow_commands:
                return self.result(case, Verdict("skipped", COMMANDS_REFUSED))
            isolation_note()
        return None

    def execute(self, case: Case) -> tuple[Answer, list[str], float]:
        """Send the case to the adapter: the answer, the tree roots to hide, the wall time (s)."""
        started = time.perf_counter()
        answer, roots = self._ask(case)
        return answer, roots, time.perf_counter() - started

    def result(self, case: Case, verdict: "Verdict", answer: Answer | None = None, duration: float = 0.0) -> CaseResult:
        """The result of ``case`` by ``verdict``; its clauses are those the case cites in the
        edition that judges it (its ``clauses@`` of that edition after its ``clauses``)."""
        return CaseResult(id=case.id, area=case.area, op=case.op, title=case.title,
                          clauses=citations(case, self.edition_of(case)),
                          status=verdict.status, duration=duration, message=sizes.cut_text(verdict.message),
                          diff=verdict.diff,
                          stderr=answer.stderr if answer is not None and answer.kind == "errored" else "",
                          output=verdict.output)

    def _ask(self, case: Case) -> tuple[Answer, list[str]]:
        if case.tree is None:
            return self.adapter.run(case.op, case.input, root=None, timeout=self.timeout,
                                    edition=self.edition_of(case)), []
        with tree_folder(TREE_PREFIX, tree_parent()) as (root, made):
            try:
                materialise(case.tree, Path(root))
            except OSError as exc:
                return Answer("errored", message=f"the kit could not materialise the case's tree: {exc}"), []
            answer = self.adapter.run(case.op, case.input, root=root, timeout=self.timeout,
                                      edition=self.edition_of(case))
            return answer, [root, made]

    def _golden_problem(self, case: Case, path: Path, message: str, output: Any,
                        exc: Exception | None = None) -> "Verdict":
        """A golden the suite should hold and does not: the case is ``errored`` (the answer was
        not judged) and the problem is recorded as a suite error in :attr:`golden_problems`, at
        the line and column of a malformed golden (``exc``, a ``golden.GoldenError``)."""
        if isinstance(exc, golden.GoldenError):
            error = FileError(str(path), exc.line, exc.column, "", f"a suite error: {exc.message}")
        else:
            error = FileError(str(path), 0, 0, "", f"a suite error: {message}")
        self.golden_problems[case.id] = error
        return Verdict("errored", message, output=output)

    def _stored(self, path: Path) -> golden.Stored | None:
        """The golden at ``path`` in compared form (``None``: there is none). Its folder is read
        whole the first time (``golden.read_folder``) unless goldens are being written."""
        if self.update:
            return golden.read_stored(path)
        if path.parent not in self._folders:
            self._folders[path.parent] = golden.read_folder(path.parent)
        found = self._folders[path.parent].get(path.name)
        if found is None:
            return golden.read_stored(path)
        if isinstance(found, golden.GoldenError):
            raise found
        return found

    def _expected_result(self, case: Case) -> str:
        """What a case expecting a result expected, for the message of a refusal in its place: the
        golden's output (``:`` then the output, indented), or where no golden could be read; ``""``
        when the runner shows no details."""
        if not self.details:
            return ""
        path = golden.golden_path(self.golden_dir, case.area, case.id, self.edition_of(case))
        try:
            stored = self._stored(path)
        except ValueError:
            stored = None
        if stored is None:
            return f"; the case expects a result (no readable golden at {path})"
        return f"; the case expects the result of {path}:\n{_indented(golden.dump(stored.output))}"

    def judge(self, case: Case, answer: Answer, roots: list[str], *, compare_golden: bool = True) -> Verdict:
        """Compare an answer with what the case expects. Comparison is on data, not text: both
        sides are canonicalised (:func:`conformance.judge.golden.canonical`) and the case's
        declared normalisers are applied to both.

        With ``compare_golden=False`` a schema-valid result gets the status ``"result"`` and its
        output, for the caller (the pytest plugin's syrupy extension) to compare with the golden.
        """
        if answer.kind == "errored":
            return Verdict("errored", answer.message or "the adapter failed")
        if answer.kind in ("unsupported", "skipped"):
            return Verdict(answer.kind, shown(answer.message))
        if answer.kind == "error":
            if case.error_code is None:
                return Verdict("failed", f"unexpected error {_refusal(answer)}{self._expected_result(case)}")
            if answer.code != case.error_code:
                renamed = (f" ({answer.code} is this code's former name, renamed {case.error_code}: see "
                           "PROTOCOL.md, 'Versions')" if RENAMED.get(answer.code or "") == case.error_code else "")
                return Verdict("failed", f"expected error {case.error_code}, got {_refusal(answer)}{renamed}")
            return Verdict("passed")
        # a result
        output = replace_root(answer.output, roots)
        if case.error_code is not None:
            dump = f":\n{_indented(golden.dump(sizes.cut(output, SHOWN_ANSWER_BYTES)))}" if self.details else ""
            return Verdict("failed", f"expected error {case.error_code}, got a result{dump}", output=output)
        op = get_operation(case.op)
        try:
            op.output.model_validate(output)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(output)'}: {validation_problem(e)}"
                                 for e in exc.errors()[:5])
            return Verdict("failed", f"output does not match the {case.op} output schema: {problems}",
                           output=output)
        try:
            actual = golden.comparable(output, case.normalise, case, self.compared_facets(case))
        except ValueError as exc:
            return Verdict("failed", f"output is not JSON data: {exc}", output=output)
        if not compare_golden:
            return Verdict("result", output=output)
        path = golden.golden_path(self.golden_dir, case.area, case.id, self.edition_of(case))
        try:
            stored = self._stored(path)
        except ValueError as exc:
            return self._golden_problem(case, path, golden.located(path, exc), output, exc)
        if stored is None:
            return self._golden_problem(
                case, path, f"no golden at {path}{golden.misnamed_beside(path)}: write it with `pi-conformance run "
                            f"--update-goldens --case {case.id}` (reference only), then read it against the spec", output)
        problem = golden.header_problem(path, stored, case.id, case.op)
        if problem:
            return self._golden_problem(case, path, golden.located(path, problem), output, problem)
        if not case.normalise and stored.text == golden.encoded(golden.canonical(output)):
            return Verdict("passed", output=output)
        expected = golden.comparable(stored.output, case.normalise, case, self.compared_facets(case))
        if golden.same(expected, actual):
            return Verdict("passed", output=output)
        diff = ""
        if self.details:
            diff = sizes.too_large_to_diff(expected, actual) or diffs.shown(golden.diff(expected, actual), case.id)
        return Verdict("failed", "answer differs from the golden", diff=diff, output=output)


def _refusal(answer: Answer) -> str:
    """An error answer as a person reads it: its code, and its message when it has one (both
    adapter text, made safe to show by :func:`conformance.output.console.shown`)."""
    code = shown(answer.code)
    return f"{code}: {shown(answer.message)}" if answer.message.strip() else f"{code} (no message)"


def _scratch_shown(output: Any) -> str | None:
    """The path of a ``!command``'s scratch folder (:data:`conformance.corpus.shell.SCRATCH_PREFIX`)
    that ``output`` holds, or ``None``."""
    import json
    import re

    from conformance.corpus.shell import SCRATCH_PREFIX

    found = re.search(rf"[^\s\"]*{re.escape(SCRATCH_PREFIX)}[^\s\"/]*", json.dumps(output, ensure_ascii=False))
    return found.group() if found else None


def _indented(text: str, limit: int = 40) -> str:
    """``text`` indented by four spaces, cut to ``limit`` lines."""
    lines = text.rstrip("\n").splitlines()
    shown = ["    " + line for line in lines[:limit]]
    if len(lines) > limit:
        shown.append(f"    ... {len(lines) - limit} more line(s)")
    return "\n".join(shown)


SHOWN_ANSWER_BYTES = 16 * 1024
"""The most of an answer a message quotes (a result given where an error was expected), before
its first 40 lines are shown (:func:`conformance.judge.sizes.cut`)."""


COMMANDS_REFUSED = ("it runs a !command, and scenarios from outside the kit run commands only with "
                    "--allow-commands (a scenario folder is code: read it first)")
"""Why a case that would run a command is skipped when :attr:`Runner.allow_commands` is off."""


TREE_PREFIX = "pi-conformance-tree-"
"""How a case's tree folder is named in :func:`tree_parent`: the prefix, the kit's process id,
``-`` and a random part, so that the trees of a kit killed outright are removed by the next run
(:func:`conformance.adapters.environment.remove_leftovers`)."""


def tree_parent() -> str | None:
    """The folder in which each case's tree is made and removed: ``$TMPDIR`` when set, else
    memory-backed ``/dev/shm`` where it is a writable folder (on a busy disk, writing and removing
    a tree for every case took most of the kit's time), else the system's temporary folder."""
    if os.environ.get("TMPDIR") or not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK | os.X_OK):
        return None
    return "/dev/shm"


def apply_expectation(result: CaseResult, expectation: Any) -> CaseResult:
    """Turn a raw status into ``xfail``/``xpass`` according to the matching expectation."""
    if expectation is None:
        return result
    if expectation.status == "fail":
        if result.status in ("failed", "errored"):
            result.message = f"expected failure ({expectation.reason}); {result.message}"
            result.status = "xfail"
        elif result.status == "passed":
            result.status = "xpass"
            result.message = f"expected to fail ({expectation.reason}) but passed"
    elif expectation.status == "unsupported" and result.status == "passed":
        result.status = "xpass"
        result.message = f"expected to be unsupported ({expectation.reason}) but passed"
    elif expectation.status == "unsupported" and result.status == "unsupported":
        result.message = f"expected unsupported ({expectation.reason}); {result.message}".rstrip("; ")
    return result


def require_support(result: CaseResult, expectation: Any, required: list[str] | None) -> CaseResult:
    """Fail an ``unsupported`` result of a required operation (``required``: operation globs;
    ``None`` requires nothing), unless the expectation declares the case ``unsupported``."""
    if result.status != "unsupported" or not required:
        return result
    if expectation is not None and expectation.status == "unsupported":
        return result
    if any(fnmatchcase(result.op, pattern) for pattern in required):
        result.status = "failed"
        result.message = f"{UNSUPPORTED_BUT_REQUIRED}{result.op} is required (--fail-on-unsupported): {result.message}"
    return result


NOT_JUDGED = frozenset({"unsupported", "skipped"})
"""The statuses of a case whose answer was never compared with its golden or refusal."""

UNSUPPORTED_BUT_REQUIRED = "unsupported, but "
"""How :func:`require_support` begins the message of the case it fails (judged no more than before)."""


def _judged(result: CaseResult) -> bool:
    return result.status not in NOT_JUDGED and not (result.status == "failed"
                                                    and result.message.startswith(UNSUPPORTED_BUT_REQUIRED))


def unproven(results: list[CaseResult], globs: list[str] | None, every: bool) -> tuple[list[str], bool]:
    """What a run asked for proof by ``--fail-on-unsupported`` (``every``) or ``--require-op GLOB``
    (``globs``) failed to prove: one line for each required operation with selected cases none of
    which was judged (skipped or unsupported, by the adapter or the expectations file), and a line
    when no selected case at all was judged. Returns the lines and whether they fail the run (only
    when proof was asked); a plain run gets the no-case line as a warning."""
    lines = []
    if globs:
        by_op: dict[str, list[CaseResult]] = {}
        for r in results:
            if any(fnmatchcase(r.op, glob) for glob in globs):
                by_op.setdefault(r.op, []).append(r)
        for op, rs in sorted(by_op.items()):
            if not any(map(_judged, rs)):
                lines.append(f"{op} is required (--require-op) but none of its {len(rs)} selected case(s) was judged")
    if results and not any(map(_judged, results)):
        skipped = sum(r.status == "skipped" for r in results)
        lines.append(f"no selected case was judged ({len(results) - skipped} unsupported, {skipped} skipped): "
                     "the run proves nothing" + ("" if every or globs else
                                                  "; --fail-on-unsupported or --require-op makes such a run fail"))
    return lines, bool(lines) and (every or bool(globs))


def is_bundled_reference(adapter: Any) -> bool:
    """Whether ``adapter`` is the in-process bundled reference (the only golden writer)."""
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.adapters.reference import ReferenceImplementation

    return isinstance(adapter, InProcessAdapter) and type(adapter.implementation) is ReferenceImplementation


@dataclass
class RunSummary:
    """Counts per area and status, and whether the run is good."""

    counts: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, results: list[CaseResult]) -> "RunSummary":
        counts: dict[str, dict[str, int]] = {}
        for r in results:
            row = counts.setdefault(r.area, {s: 0 for s in STATUSES})
            row[r.status] += 1
        return cls(counts)

    @property
    def ok(self) -> bool:
        return not any(row[s] for row in self.counts.values() for s in BAD)


class ByEdition:
    """Runners made on demand by ``make(edition)`` (a :class:`Runner` for that edition): each case
    runs under the first edition it holds for (``None``: the default), so a case of one edition
    only is judged too (PI-DECISION-EDITIONS). Used by the seeded faults' catch matrix."""

    def __init__(self, make: Callable[[str | None], Any]) -> None:
        self.make, self.runners = make, {}

    @staticmethod
    def edition_of(case: Any) -> str | None:
        """The edition ``case`` runs under: the first it holds for (``None``: the default)."""
        return case.editions[0] if case.editions else None

    def run_case(self, case: Any) -> Any:
        edition = self.edition_of(case)
        if edition not in self.runners:
            self.runners[edition] = self.make(edition)
            self.runners[edition].start()
        return self.runners[edition].run_case(case)

    def stop(self) -> None:
        for runner in self.runners.values():
            runner.stop()

"""The ``pi-conformance`` command.

Exit codes: 0 all good; 1 a case failed, errored or passed unexpectedly; 2 usage or suite errors
(bad scenario, catalogue or expectations files, stale expectations, orphaned goldens, a missing
or unreadable golden);
3 the adapter could not start; 130 interrupted by Ctrl-C, 143 by ``SIGTERM``, 129 by ``SIGHUP``
(the adapter's process group is killed at once, no report is written).
"""

from __future__ import annotations

import argparse
from fnmatch import fnmatchcase
import os
import sys
from pathlib import Path
from typing import Sequence

from conformance.judge import golden
from conformance.adapters.base import AdapterStartError
from conformance.adapters.connect import AdapterNameError
from conformance.commands.parser import build_parser
from conformance.output.console import (LINE_LIMIT, interrupted_exit_code, quoted, shown, shown_lines, terminate_as_interrupt,
                                 tolerate_any_encoding, tolerate_closed_stdout)
from conformance.corpus.editions import held_elsewhere, holds, judged, judging, label, print_editions
from conformance.commands.options import required_operations
from conformance.operations import names as operation_names
from conformance.errors import ExitCode, UsageError

PROGRESS = {"passed": ".", "failed": "F", "errored": "E", "unsupported": "u", "xfail": "x", "xpass": "X",
            "skipped": "s"}


def _err(msg: str) -> None:
    print(f"pi-conformance: {msg}", file=sys.stderr)


def _session(args: argparse.Namespace, *, select: bool = True):
    """The :class:`~conformance.session.Session` of ``args`` (see :meth:`Session.from_args`)."""
    from conformance.session import Session

    return Session.from_args(args, select=select)


def _report_paths(args: argparse.Namespace) -> dict[str, Path]:
    """The requested report paths, checked before the run so a bad path costs nothing
    (:func:`conformance.output.report_paths.check_report_paths`)."""
    from conformance.output.report_paths import check_report_paths, kit_folders

    given = (("--report-json", args.report_json), ("--junit", args.junit),
             ("--report-md", args.report_md), ("--report-html", args.report_html))
    try:
        return check_report_paths(given, inputs={"--expectations": args.expectations},
                                  folders=kit_folders(args.scenarios_dir, args.golden_dir, args.spec_dir))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _out_folder(value: str, *given: str | None, allowed: Path | None = None) -> Path:
    """The ``--out`` folder of ``docs`` or ``schema``, refused (:class:`UsageError`) when it lies among
    the kit's own files or ``given`` suite folders, save ``allowed``
    (:func:`conformance.output.report_paths.check_out_folder`)."""
    from conformance.output.report_paths import check_out_folder, kit_folders

    try:
        return Path(os.path.abspath(check_out_folder("--out", value, kit_folders(*given), allowed=allowed)))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cmd_run(args: argparse.Namespace) -> int:
    """``pi-conformance run``: check the suite, run the selected cases, print and write reports."""
    from conformance.corpus.yamlio import SuiteFileError

    report_paths = _report_paths(args)
    # Absolute now, as the report paths: an implementation run in process may change the working
    # folder, and goldens, catalogue and expectations are read again after its answers.
    args.golden_dir, args.spec_dir = (os.path.abspath(d) if d else d for d in (args.golden_dir, args.spec_dir))
    if not Path(args.golden_dir).is_dir():
        raise UsageError(f"no goldens at {args.golden_dir}: install the kit from its wheel or sdist, "
                         "or from a source checkout with `pip install -e .` (see README.md)")
    session = _session(args)
    suite, cases = session.suite(), session.cases()
    session.check_edition_fits(cases)
    # A bad expectations file would change every verdict: stop before running anything.
    try:
        expectations = session.expectations(args.expectations)
    except SuiteFileError as exc:
        return _print_suite_errors(exc.errors)
    if expectations is not None and not expectations.entries:
        _err(f"note: {args.expectations} lists no expectations: every case is expected to pass")
    args.expectations = os.path.abspath(args.expectations) if args.expectations else None  # as the header keeps it
    suite_errors = list(suite.errors) + session.stray_goldens()
    if args.case and not cases:
        _print_suite_errors(suite_errors)
        raise UsageError(_nothing_selected(suite, args))
    try:
        runner = _start_runner(args, session, expectations, cases)
    except AdapterStartError as exc:
        _err(f"the adapter could not start: {exc}")
        return ExitCode.START
    results, interrupted = _run_cases(runner, cases, quiet=args.quiet)
    if interrupted is not None:
        _err(f"interrupted after {len(results)} of {len(cases)} cases; no report written")
        return interrupted
    if runner.stop_error:
        suite_errors.append(runner.stop_error)
    try:
        _apply_locale_check(args, session, runner.adapter, cases, results)
    except AdapterStartError as exc:
        _err(f"the adapter could not start under another locale: {exc}")
        return ExitCode.START
    _print_results(results, session)
    suite_errors += list(runner.golden_problems.values())
    suite_errors += _write_reports(args, session, runner.hello, cases, results, suite_errors, report_paths)
    for e in suite_errors:
        _err(str(e))
    if suite_errors:
        _err(f"{len(suite_errors)} suite error(s)")
        return ExitCode.USAGE
    from conformance.judge.runner import RunSummary, unproven

    lines, fails = unproven(results, args.require_op, args.fail_on_unsupported)
    for line in lines:
        _err(line if fails else f"warning: {line}")
    return ExitCode.OK if RunSummary.of(results).ok and not fails else ExitCode.FAILED


def _start_runner(args: argparse.Namespace, session, expectations, cases: list):
    """The started :class:`~conformance.judge.runner.Runner` over ``--adapter``, announced on stdout
    with the number of ``cases`` and the editions that judge their areas.

    Raises ``AdapterStartError`` (exit 3), :class:`UsageError` for a bad runner option.
    """
    adapter = session.adapter(args.adapter)
    try:
        runner = session.runner(adapter, timeout=args.timeout, expectations=expectations, update=args.update_goldens,
                                required=required_operations(args.fail_on_unsupported, args.require_op, operation_names()),
                                allow_commands=args.allow_commands)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    hello = runner.start()
    count, editions = len(cases), label(judging(args.edition, {c.area for c in cases}))
    print(f"implementation: {shown(hello.name)} {shown(hello.version)} ({shown(hello.language)}); "
          f"{count} case{'' if count == 1 else 's'}" + (f"; {editions}" if editions else ""))
    unknown_ops = sorted(set(hello.operations) - set(operation_names()))
    if unknown_ops:
        _err(f"warning: the adapter lists operations the suite does not know: {', '.join(map(shown, unknown_ops))} "
             "(see `pi-conformance list` for the operation names)")
    return runner


def _run_cases(runner, cases, *, quiet: bool) -> tuple[list, int | None]:
    """Run ``cases`` in order with a progress line (72 marks a line); stop the runner at the end.

    Returns the results and, when Ctrl-C or a termination signal cut the run short, its exit code
    (the adapter is then killed at once instead of being asked to stop).
    """
    out = sys.stdout
    results = []
    try:
        for i, case in enumerate(cases, 1):
            result = runner.run_case(case)
            results.append(result)
            if not quiet:
                out.write(PROGRESS[result.status])
                if i % 72 == 0 or i == len(cases):
                    out.write(f" {i}/{len(cases)}\n")
                out.flush()
    except KeyboardInterrupt as exc:
        if not quiet:
            out.write("\n")
        runner.abort()
        return results, interrupted_exit_code(exc)
    finally:
        runner.stop()
    return results, None


def _print_results(results, session) -> None:
    """Every case that did not pass (message, the statements of its clauses, diff, adapter
    stderr), goldens written, the counts."""
    from conformance.output import reports
    from conformance.corpus.catalogue import describe_clauses
    from conformance.judge.runner import RunSummary

    catalogue = None  # read only when a case is to be described
    for r in results:
        if r.status in ("failed", "errored", "xpass"):
            catalogue = catalogue or session.catalogue()
            print(f"\n{r.status.upper()} {r.id} ({r.op}): {r.title}\n  " + "\n  ".join(shown_lines(r.message, LINE_LIMIT)))
            print("  clauses:\n" + describe_clauses(catalogue, r.clauses, indent="    "))
            if r.diff:
                print(_indent(r.diff))
            if r.stderr:
                print("  adapter stderr (tail):\n" + quoted(r.stderr, last=20))
    _print_not_run(results)
    written = [r for r in results if r.golden_written]
    if written:
        print(f"\n{len(written)} golden(s) written; read each against the spec before committing:")
        for r in written:
            print(f"  {session.golden_path(r.area, r.id)}")
    editions = label(judging(session.edition, {r.area for r in results}))
    if editions:
        print(f"\n{editions}")
    print(reports.text_table(reports.table(RunSummary.of(results).counts, short=True)))
    print(reports.CONSOLE_LEGEND)


def _print_not_run(results, examples: int = 3) -> None:
    """Unsupported and skipped cases, grouped by their reason (the adapter's or the
    expectations'), with a count and the first few case ids of each group."""
    groups: dict[tuple[str, str], list[str]] = {}
    for r in results:
        if r.status in ("unsupported", "skipped"):
            groups.setdefault((r.status, r.message or "no reason given"), []).append(r.id)
    if not groups:
        return
    print(f"\n{sum(len(ids) for ids in groups.values())} case(s) not run, by reason:")
    for (status, reason), ids in sorted(groups.items(), key=lambda g: (g[0][0], -len(g[1]), g[0][1])):
        more = f", ... ({len(ids) - examples} more)" if len(ids) > examples else ""
        print(f"  {status} ({len(ids)}): {reason}\n    {', '.join(ids[:examples])}{more}")


def _write_reports(args: argparse.Namespace, session, hello, cases, results, suite_errors, paths: dict[str, Path]) -> list:
    """Write every requested report; a suite error for each that could not be written."""
    if not paths:
        return []
    from conformance.output import reports
    from conformance.corpus.yamlio import FileError

    head = reports.header(hello, args.adapter or "reference", sorted({c.area for c in cases}),
                          expectations=args.expectations, suite_errors=[str(e) for e in suite_errors],
                          edition=args.edition)
    report = reports.build(head, results, session.catalogue().clauses)
    writers = {"--report-json": reports.write_json, "--junit": reports.write_junit, "--report-md": reports.write_markdown,
               "--report-html": _write_html}
    failed = []
    for flag, path in paths.items():
        try:
            writers[flag](path, report)
        except OSError as exc:
            _err(f"{flag} {path}: cannot write the report: {exc.strerror or exc}")
            failed.append(FileError(str(path), 0, 0, "", "report not written"))
    return failed


def _write_html(path: Path, report: dict) -> None:
    from conformance.output.site.report import write_html  # Jinja2 is imported only for an HTML report

    write_html(path, report)


def _print_suite_errors(errors) -> int:
    for e in errors:
        _err(str(e))
    return ExitCode.USAGE if errors else ExitCode.OK


def _nothing_selected(suite, args: argparse.Namespace) -> str:
    """Why ``--case`` (with ``--area`` and ``--edition``) selected no case: the matching cases
    belong to another area or edition (named, with the option that selects them), are in a file
    that does not load, or do not exist."""
    patterns = args.case
    text = " ".join(patterns)
    matching = [c for c in suite.cases if any(fnmatchcase(c.id, p) for p in patterns)]
    if matching:
        areas = sorted({c.area for c in matching})
        if args.area and not set(areas) & set(args.area):
            return f"{text}: the matching case(s) are of area {', '.join(areas)}, not of --area {', '.join(args.area)}"
        elsewhere = held_elsewhere(text, matching, args.edition)
        if elsewhere:
            return elsewhere
    if any(fnmatchcase(cid, p) for cid in suite.ids for p in patterns):
        if not suite.errors and args.area:
            return f"{text}: the matching case(s) are not of --area {', '.join(args.area)}"
        return f"{text}: the matching case(s) did not load (their file's errors are above)"
    return f"no case matches {text}"


def cmd_list(args: argparse.Namespace) -> int:
    session = _session(args)
    suite, cases = session.suite(), session.cases()
    session.check_edition_fits(cases)
    for c in cases:
        print(f"{c.id}\t{c.op}\t{','.join(c.clauses)}\t{c.title}")
    code = _print_suite_errors(suite.errors)
    if args.case and not cases:
        raise UsageError(_nothing_selected(suite, args))
    return code


def cmd_show(args: argparse.Namespace) -> int:
    session = _session(args, select=False)
    session.patterns = [args.case_id]
    suite = session.suite()
    case = suite.by_id().get(args.case_id)
    if case is None:
        _print_suite_errors(suite.errors)
        if args.case_id in suite.ids:
            raise UsageError(f"case {args.case_id!r} did not load (its file's errors are above)")
        import difflib

        near = difflib.get_close_matches(args.case_id, sorted(suite.ids), n=3)
        raise UsageError(f"no case {args.case_id!r}" + (f"; did you mean {', '.join(near)}?" if near else ""))
    session.check_edition_fits([case])
    from conformance.corpus.catalogue import describe_clauses

    print(f"{case.id}: {case.title}\n  file: {case.file}:{case.line}\n  op: {case.op}\n"
          f"  editions: {', '.join(case.editions) if case.editions is not None else '-'}\n"
          f"  tags: {', '.join(case.tags) or '-'}\n  facets its clauses decide: {', '.join(case.facets) or '-'}\n  clauses:\n"
          + describe_clauses(session.catalogue(), case.clauses, indent="    "))
    if case.normalise:
        print(f"  normalise: {', '.join(case.normalise)}")
    if case.tree is not None:
        from conformance.corpus.trees import tree_data

        print("tree:")
        print(_indent(golden.dump(tree_data(case.tree))))
    print("input:")
    print(_indent(golden.dump(case.input)))
    if case.error_code:
        print(f"expected error: {case.error_code}")
    elif not holds(case.editions, case.area, args.edition):
        print(f"golden: none in edition {judged(args.edition, case.area)} (the case does not hold in it)")
    else:
        path = session.golden_path(case.area, case.id)
        try:
            stored = golden.read_case(path, case.id, case.op)
        except ValueError as exc:
            stored, note = None, golden.located(path, exc)
        else:
            note = "missing"
        if stored is None:
            print(f"golden ({path}): {note}{golden.misnamed_beside(path) if note == 'missing' else ''}")
        else:
            print(f"golden ({path}):")
            print(_indent(golden.dump(stored["output"])))
    misnamed = golden.misnamed(Path(args.golden_dir), (case.area, case.id, judged(args.edition, case.area)))
    return _print_suite_errors(suite.errors + misnamed)  # as `list` and `run` report them


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.rstrip("\n").splitlines())


def cmd_coverage(args: argparse.Namespace) -> int:
    from conformance.judge.coverage import clause_coverage, cmd_fault_coverage, format_coverage

    if args.json and args.faults is None:
        raise UsageError("--json is an option of coverage --faults or --cells (the clause table is text only)")
    if args.faults is not None and getattr(args, "edition_given", False):
        raise UsageError("--edition is not an option of coverage --faults, which judges every case, each "
                         "under an edition it holds for (every edition's clauses at once)")
    session = _session(args, select=False)
    suite = session.suite()
    if args.faults is not None:
        return cmd_fault_coverage(args, session)
    cov = clause_coverage(suite.cases, session, areas=args.area)
    print(format_coverage(cov))
    code = _print_suite_errors([e for e in cov.errors if e not in suite.errors] + suite.errors)  # the catalogue's once
    if code:
        return code
    if cov.uncovered_must:
        _err(f"{len(cov.uncovered_must)} MUST clause(s) without a case: {', '.join(cov.uncovered_must)}")
        return ExitCode.FAILED
    if cov.missing_refusal:
        _err(f"{len(cov.missing_refusal)} refusal clause(s) without a refusal case: {', '.join(cov.missing_refusal)}")
        return ExitCode.FAILED
    return ExitCode.OK


def cmd_compare(args: argparse.Namespace) -> int:
    from conformance.output.reports import compare, load_report
    from conformance.output.site.report import render_report

    try:
        reports_ = [load_report(Path(p)) for p in args.reports]
        if args.cases:
            from conformance.output.history import compare_cases
            return compare_cases(reports_, table_form=args.markdown or args.html or args.by_op)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(render_report(reports_) if args.html else compare(reports_, markdown=args.markdown, by_op=args.by_op))
    return ExitCode.OK


def cmd_docs(args: argparse.Namespace) -> int:
    from conformance.output.docs import write

    out = _out_folder(args.out, args.scenarios_dir, args.golden_dir, args.spec_dir)
    session = _session(args, select=False)
    suite = session.suite()
    warnings: list[str] = []
    try:
        written = write(out, session.cases(), session, fmt=args.format, results=args.results, warnings=warnings)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write the pages: {exc.strerror or exc}") from None
    for warning in warnings:
        _err(f"warning: {warning}")
    print(f"wrote {len(written)} page(s) to {args.out}")
    return _print_suite_errors(suite.errors)


SCHEMA_DIR = Path(__file__).resolve().parent / "schema"
"""The kit's own published schemas (package data)."""


def cmd_schema(args: argparse.Namespace) -> int:
    from conformance.output.schema import write_schemas, stale_schemas

    if args.check:
        out = Path(args.out) if args.out else SCHEMA_DIR
        if not out.is_dir():
            raise UsageError(f"--out {out}: no such folder of schemas to check")
        stale = stale_schemas(out)
        for s in stale:
            _err(f"{s} is out of date: run `pi-conformance schema --out {out}`")
        if not stale:
            print(f"the schemas in {out} are current")
        return ExitCode.FAILED if stale else ExitCode.OK
    if not args.out:
        raise UsageError("say where to write the schemas: --out DIR (the kit's own copy is regenerated "
                         f"with --out {SCHEMA_DIR}); --check compares them with the operation models")
    out = _out_folder(args.out, allowed=SCHEMA_DIR)
    try:
        written = write_schemas(out)
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write the schemas: {exc.strerror or exc}") from None
    print(f"wrote {len(written)} schema file(s) to {args.out}")
    return ExitCode.OK


def cmd_smoke(args: argparse.Namespace) -> int:
    from conformance.adapters.smoke import smoke_adapter

    session = _session(args, select=False)
    try:
        adapter = session.adapter(args.adapter)
    except AdapterStartError as exc:
        _err(f"the adapter could not start: {exc}")
        return ExitCode.START
    from conformance.adapters.connect import out_of_process

    check = None
    if args.locales and out_of_process(adapter):
        check = _locale_check(args, session, adapter, session.suite().cases)
    return smoke_adapter(adapter, timeout=args.timeout, locale_check=check)


def _locale_check(args: argparse.Namespace, session, adapter, cases, *, quiet: bool = False):
    """The locale check of ``--locales`` over the collation cases among ``cases``; ``None`` (with a
    warning unless ``quiet``) for an in-process adapter, which shares the kit's locale."""
    from conformance.adapters.connect import out_of_process
    from conformance.judge.locales import LocaleCheck, collation_cases, not_installed

    if not out_of_process(adapter):
        if not quiet:
            _err("warning: --locales is for adapters the kit starts as a process; an in-process "
                 "implementation shares the kit's locale")
        return None
    missing = not_installed(args.locales)
    if missing and not quiet:
        _err(f"warning: {', '.join(missing)} not installed on this machine: an adapter that orders text through "
             "the C library runs under it as under C, so the check cannot show its dependence (Node's ICU needs none)")
    return LocaleCheck(session.adapter_factory(args.adapter), session.environment(), collation_cases(cases),
                       args.locales, timeout=getattr(args, "timeout", 10.0))


def _apply_locale_check(args: argparse.Namespace, session, adapter, cases, results) -> None:
    """With ``--locales``: fail every case whose answer changes under one of them, naming it.

    Raises ``AdapterStartError`` when the adapter cannot start under a locale.
    """
    check = _locale_check(args, session, adapter, cases) if args.locales else None
    if check is None:
        return
    by_id = {r.id: r for r in results}
    for change in check.run():
        result = by_id[change.case_id]
        first = result.status != "failed" or not result.message.startswith("the answer changes")
        result.status = "failed"
        result.message = change.message if first else f"{result.message}\n  {change.message}"


def cmd_serve_reference(args: argparse.Namespace) -> int:
    from conformance.adapters.server import serve_reference_main

    return serve_reference_main()


def parser() -> argparse.ArgumentParser:
    """The ``pi-conformance`` argument parser over this module's commands."""
    return build_parser({"run": cmd_run, "list": cmd_list, "show": cmd_show, "coverage": cmd_coverage,
                         "smoke": cmd_smoke, "editions": print_editions, "serve-reference": cmd_serve_reference,
                         "compare": cmd_compare, "docs": cmd_docs, "schema": cmd_schema})


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # A closed standard output (`| head -1`) or one whose encoding cannot hold an answer's text
    # (PYTHONIOENCODING=ascii) loses console text only: never a verdict or a report.
    with tolerate_any_encoding(), tolerate_closed_stdout(), terminate_as_interrupt():
        return _dispatch(args)


def _dispatch(args: argparse.Namespace) -> int:
    try:
        _session(args).check_edition_areas()
        return args.fn(args)
    except (UsageError, AdapterNameError) as exc:
        _err(str(exc))
        return ExitCode.USAGE
    except KeyboardInterrupt as exc:
        _err("interrupted")
        return interrupted_exit_code(exc)


if __name__ == "__main__":
    from conformance.output.console import leave

    leave(main())  # as conformance.program runs it

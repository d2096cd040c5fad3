"""``pi-conformance run``: check the suite, run the selected cases against an implementation, print
the cases that did not pass and write the reports asked for."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from conformance.adapters.base import AdapterStartError
from conformance.corpus.areas import AREAS
from conformance.commands.common import (add_suite_arguments, err, indent, locale_check, nothing_selected,
                                         print_suite_errors, session_of)
from conformance.commands.options import Once, path_argument, pattern_argument, required_operations, timeout_seconds
from conformance.corpus.editions import judging, label
from conformance.errors import ExitCode, UsageError
from conformance.operations import names as operation_names
from conformance.output.console import LINE_LIMIT, interrupted_exit_code, quoted, shown, shown_lines


PROGRESS = {"passed": ".", "failed": "F", "errored": "E", "unsupported": "u", "xfail": "x", "xpass": "X",
            "skipped": "s"}


def add_arguments(r: argparse.ArgumentParser) -> None:
    """Add the ``run`` subcommand's options to ``r``."""
    add_suite_arguments(r, adapter=True)
    r.add_argument("--expectations", type=path_argument, action=Once, metavar="FILE", help="the implementation's expectations file")
    r.add_argument("--report-json", action=Once, metavar="FILE", help="write the JSON report (header and one record per case)")
    r.add_argument("--junit", action=Once, metavar="FILE", help="write a JUnit XML report")
    r.add_argument("--report-md", action=Once, metavar="FILE", help="write a Markdown report")
    r.add_argument("--report-html", action=Once, metavar="FILE", help="write an HTML report page")
    r.add_argument("--timeout", type=timeout_seconds, default=10.0, metavar="SECONDS",
                   help="per-case timeout, in process too (default 10; the start has its own 30 s, see PROTOCOL.md)")
    r.add_argument("--update-goldens", action="store_true",
                   help="write missing or changed goldens (bundled reference only)")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    r.add_argument("--fail-on-unsupported", action="store_true",
                   help="an unsupported answer fails its case, unless the expectations say unsupported")
    r.add_argument("--require-op", action="append", type=pattern_argument, metavar="GLOB",
                   help="as --fail-on-unsupported, for the operations matching GLOB only (repeatable)")
    r.add_argument("--allow-commands", action="store_true",
                   help="let the cases of a scenario folder other than the kit's own run their !command "
                        "values (a scenario folder is code; without this those cases are skipped)")


def run(args: argparse.Namespace) -> ExitCode:
    """``pi-conformance run``: check the suite, run the selected cases, print and write reports."""
    from conformance.corpus.yamlio import SuiteFileError

    report_paths = _report_paths(args)
    # Absolute now, as the report paths: an implementation run in process may change the working
    # folder, and goldens, catalogue and expectations are read again after its answers.
    args.golden_dir, args.spec_dir = (os.path.abspath(d) if d else d for d in (args.golden_dir, args.spec_dir))
    if not Path(args.golden_dir).is_dir():
        from conformance.corpus.places import GOLDEN_DIR

        if Path(args.golden_dir) != Path(os.path.abspath(GOLDEN_DIR)):  # a folder the user named
            raise UsageError(f"--golden-dir {args.golden_dir}: not a folder; make it (goldens are written into it "
                             "with --update-goldens) or name the folder that holds them")
        raise UsageError(f"no goldens at {args.golden_dir}: install the kit from its wheel or sdist, "
                         "or from a source checkout with `pip install -e .` (see README.md)")
    session = session_of(args)
    suite, cases = session.suite(), session.cases()
    session.check_edition_fits(cases)
    # A bad expectations file would change every verdict: stop before running anything.
    try:
        expectations = session.expectations(args.expectations)
    except SuiteFileError as exc:
        return print_suite_errors(exc.errors)
    if expectations is not None and not expectations.entries:
        err(f"note: {args.expectations} lists no expectations: every case is expected to pass")
    args.expectations = os.path.abspath(args.expectations) if args.expectations else None  # as the header keeps it
    suite_errors = list(suite.errors) + session.stray_goldens()
    if (args.case or args.op) and not cases:
        print_suite_errors(suite_errors)
        raise UsageError(nothing_selected(suite, args))
    if not cases and not suite_errors:  # a run that judges nothing proves nothing
        where = args.scenarios_dir or "the kit's scenarios"
        areas = f" of --area {', '.join(args.area)}" if args.area else ""
        raise UsageError(f"no case{areas} in {where}: scenario files are <area>/<topic>.yaml, "
                         f"an area being one of {', '.join(AREAS)}")
    try:
        runner = _start_runner(args, session, expectations, cases)
    except AdapterStartError as exc:
        err(f"the adapter could not start: {exc}")
        return ExitCode.START
    results, interrupted = _run_cases(runner, cases, quiet=args.quiet)
    if interrupted is not None:
        err(f"interrupted after {len(results)} of {len(cases)} cases; no report written")
        return interrupted
    if runner.stop_error:
        suite_errors.append(runner.stop_error)
    try:
        _apply_locale_check(args, session, runner.adapter, cases, results)
    except AdapterStartError as exc:
        err(f"the adapter could not start under another locale: {exc}")
        return ExitCode.START
    _print_results(results, session)
    suite_errors += list(runner.golden_problems.values()) + runner.golden_write_errors
    suite_errors += _write_reports(args, session, runner.hello, cases, results, suite_errors, report_paths)
    for e in suite_errors:
        err(str(e))
    if suite_errors:
        err(f"{len(suite_errors)} suite error(s)")
        return ExitCode.USAGE
    from conformance.judge.runner import RunSummary, unproven

    lines, fails = unproven(results, args.require_op, args.fail_on_unsupported)
    for line in lines:
        err(line if fails else f"warning: {line}")
    return ExitCode.OK if RunSummary.of(results).ok and not fails else ExitCode.FAILED


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
        err(f"warning: the adapter lists operations the suite does not know: {', '.join(map(shown, unknown_ops))} "
             "(see `pi-conformance list` for the operation names)")
    meant = expectations.implementation if expectations is not None else None
    if meant is not None and meant.split() != [hello.name, hello.version]:
        err(f"warning: {expectations.file} is written for {shown(meant)}; the adapter is {shown(hello.name)} "
            f"{shown(hello.version)} (its entries apply all the same)")
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
                print(indent(r.diff))
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
               "--report-html": lambda path, report: _write_html(path, report, session)}
    failed = []
    for flag, path in paths.items():
        try:
            writers[flag](path, report)
        except OSError as exc:
            err(f"{flag} {path}: cannot write the report: {exc.strerror or exc}")
            failed.append(FileError(str(path), 0, 0, "", "report not written"))
    return failed


def _write_html(path: Path, report: dict, session) -> None:
    from conformance.output.site.report import write_html  # Jinja2 is imported only for an HTML report

    write_html(path, report, session)


def _apply_locale_check(args: argparse.Namespace, session, adapter, cases, results) -> None:
    """With ``--locales``: fail every case whose answer changes under one of them, naming it.

    Raises ``AdapterStartError`` when the adapter cannot start under a locale.
    """
    check = locale_check(args, session, adapter, cases) if args.locales else None
    if check is None:
        return
    by_id = {r.id: r for r in results}
    for change in check.run():
        result = by_id[change.case_id]
        first = result.status != "failed" or not result.message.startswith("the answer changes")
        result.status = "failed"
        result.message = change.message if first else f"{result.message}\n  {change.message}"

"""The ``pi-conformance`` command line: its subcommands, options and their values.

Kept apart from :mod:`conformance.cli`, which carries the commands out, so that the parser is read
in one place; it imports nothing of the commands themselves.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Callable, Mapping, Sequence

from conformance.judge import golden
from conformance.adapters.connect import ADAPTER_NAMES
from conformance.corpus.areas import AREAS
from conformance.judge.cells import with_cells
from conformance.corpus.editions import DEFAULT as DEFAULT_EDITION
from conformance.judge.locales import DEFAULT_LOCALES
from conformance.commands.options import (DEFAULT_FAULTS_PACKAGE, Once, add_edition_argument, folder_argument,
                                 module_argument, path_argument, pattern_argument, timeout_seconds)


EPILOG = ("exit codes: 0 all good; 1 a case failed, errored or passed unexpectedly; 2 usage or suite errors; "
          "3 the adapter could not start; 130 or 143 interrupted (Ctrl-C, SIGTERM)")


def _locales(text: str) -> tuple[str, ...]:
    from conformance.judge.locales import parse_locales

    if text.strip().lower() == "none":
        return ()
    try:
        return parse_locales(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_environment_arguments(sp: argparse.ArgumentParser, *, locales: Sequence[str] | None = None) -> None:
    """``--adapter-env KEY=VALUE`` (repeatable) and ``--locales LIST`` for ``sp``; ``locales``:
    the default list (``None``: no locale check unless asked)."""
    sp.add_argument("--adapter-env", action="append", metavar="KEY=VALUE",
                    help="add a variable to the out-of-process adapter's environment (repeatable; "
                         "see PROTOCOL.md for the rest of it)")
    default = ",".join(locales) if locales else "none"
    sp.add_argument("--locales", type=_locales, default=tuple(locales or ()), metavar="LIST",
                    help="repeat the collation cases with the adapter started under these locales "
                         f"(comma-separated, 'none' for no check; default {default}) and fail a case "
                         "whose answer changes")


class _Subcommands(argparse._SubParsersAction):
    """Subcommands of which some get their arguments only when chosen (``deferred``: the name of a
    subcommand and what adds its arguments), so that a command line imports the modules of the
    command it runs only; ``--help`` lists them all, and ``COMMAND --help`` shows the arguments."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.deferred: dict[str, Callable[[argparse.ArgumentParser], None]] = {}

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        fill = self.deferred.pop(values[0], None) if values else None
        if fill is not None:
            fill(self._name_parser_map[values[0]])
        super().__call__(parser, namespace, values, option_string)
        # argparse leaves a subcommand's unknown arguments to the top parser, whose usage line
        # shows no option of the command: the command's own parser reports them instead
        unknown = getattr(namespace, argparse._UNRECOGNIZED_ARGS_ATTR, None)
        if unknown and values and values[0] in self._name_parser_map:
            self._name_parser_map[values[0]].error(f"unrecognized arguments: {' '.join(unknown)}")


def _from_module(module: str, command: str) -> Callable[[argparse.ArgumentParser], None]:
    """What adds a subcommand's arguments from ``module`` (its ``add_arguments``) and makes its
    ``command`` function carry it out, importing ``module`` then."""

    def fill(sp: argparse.ArgumentParser) -> None:
        found = importlib.import_module(module)
        found.add_arguments(sp)
        sp.set_defaults(fn=getattr(found, command))

    return fill


def build_parser(commands: Mapping[str, Callable[[argparse.Namespace], int]]) -> argparse.ArgumentParser:
    """The ``pi-conformance`` argument parser; ``commands`` maps each subcommand name (``run``,
    ``list``, ``show``, ``coverage``, ``smoke``, ``editions``, ``serve-reference``, ``compare``,
    ``docs``, ``schema``) to the function that carries it out (``faults`` and ``invariants``
    come from their own modules)."""
    p = argparse.ArgumentParser(prog="pi-conformance", epilog=EPILOG,
                                description="Conformance suite for how Pi and its extensions compose what a model receives.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", action=_Subcommands)
    sub.required = True

    def common(sp: argparse.ArgumentParser, *, adapter: bool = False, select: bool = True,
               edition_default: str | None = DEFAULT_EDITION, edition_help: str = DEFAULT_EDITION) -> None:
        if select:
            sp.add_argument("--area", action="append", choices=AREAS,
                            help="only this area (repeatable)")
            sp.add_argument("--case", action="append", type=pattern_argument, metavar="PATTERN",
                            help="only cases whose id matches this glob (repeatable)")
        sp.add_argument("--golden-dir", type=path_argument, default=str(golden.GOLDEN_DIR), help=argparse.SUPPRESS)
        sp.add_argument("--scenarios-dir", type=path_argument, default=None, help=argparse.SUPPRESS)
        sp.add_argument("--spec-dir", type=path_argument, default=None, help=argparse.SUPPRESS)
        add_edition_argument(sp, edition_default, edition_help)
        if adapter:
            sp.add_argument("--adapter", metavar="ADAPTER",
                            help=ADAPTER_NAMES)
            add_environment_arguments(sp)

    r = sub.add_parser("run", help="run the scenarios against an implementation", epilog=EPILOG)
    common(r, adapter=True)
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
    r.set_defaults(fn=commands["run"])

    ls = sub.add_parser("list", help="list the cases")
    common(ls)
    ls.set_defaults(fn=commands["list"])

    sh = sub.add_parser("show", help="show one case: input, golden, clauses")
    sh.add_argument("case_id", metavar="CASE-ID")
    common(sh, select=False)
    sh.set_defaults(fn=commands["show"])

    cv = sub.add_parser("coverage", help="clause x cases; fails when a MUST clause has no case")
    common(cv, select=False, edition_default=None, edition_help="every edition")
    cv.add_argument("--area", action="append", choices=AREAS, help="only this area's clauses")
    cv.add_argument("--faults", nargs="?", const=DEFAULT_FAULTS_PACKAGE, type=module_argument, metavar="MODULE", help="each MUST clause proven by a seeded fault?")
    cv.add_argument("--json", action="store_true", help="with --faults or --cells: one JSON object")
    cv.add_argument("--cells", action="store_true", help="each declared input class with the suite cases and generated examples that hit it")
    cv.add_argument("--examples", type=int, metavar="N", help="with --cells: the examples generated per operation (default: diff's)")
    cv.set_defaults(fn=with_cells(commands["coverage"]))

    sm = sub.add_parser("smoke", help="check an adapter before its results count")
    sm.add_argument("--adapter", required=True, metavar="ADAPTER", help="as for run --adapter")
    add_environment_arguments(sm, locales=DEFAULT_LOCALES)
    sm.add_argument("--timeout", type=timeout_seconds, default=10.0, metavar="SECONDS",
                    help="per-request timeout, for the checks and the locale check's cases (default 10; the start has its own 30 s, see PROTOCOL.md)")
    sm.add_argument("--scenarios-dir", type=path_argument, default=None, help=argparse.SUPPRESS)
    sm.add_argument("--spec-dir", type=path_argument, default=None, help=argparse.SUPPRESS)
    sm.set_defaults(fn=commands["smoke"])

    ed = sub.add_parser("editions", help="list the editions of the specification with their sources")
    ed.set_defaults(fn=commands["editions"])

    sv = sub.add_parser("serve-reference", help="serve the reference over the JSON-lines protocol on stdin/stdout")
    sv.set_defaults(fn=commands["serve-reference"])

    cp = sub.add_parser("compare", help="side-by-side table of several JSON reports (--cases: what changed between two)")
    cp.add_argument("reports", type=path_argument, nargs="+", metavar="REPORT", help="JSON reports written by run --report-json")
    form = cp.add_mutually_exclusive_group()  # one form to standard output: both is a usage error
    form.add_argument("--markdown", action="store_true", help="print a Markdown table")
    form.add_argument("--html", action="store_true", help="print an HTML report page of them all")
    cp.add_argument("--by-op", action="store_true", help="a row per operation (within its area) instead of per area")
    cp.add_argument("--cases", action="store_true",
                    help="with two reports, OLD then NEW: list every case whose status changed; exit 1 when "
                         "a case that passed in OLD does not pass in NEW")
    cp.set_defaults(fn=commands["compare"])

    dc = sub.add_parser("docs", help="render the spec catalogue with its cases as a static HTML site")
    dc.add_argument("--out", type=folder_argument, required=True, metavar="DIR", help="folder for the index and one page per area")
    dc.add_argument("--format", choices=["html", "md"], default="html", help="HTML site (default) or Markdown")
    dc.add_argument("--results", type=path_argument, nargs="+", metavar="REPORT.json", help="show these reports' results under each case")
    common(dc, select=False)
    dc.set_defaults(fn=commands["docs"])

    sub.add_parser("faults", help="run the suite against each seeded fault; show which cases catch it")
    sub.deferred["faults"] = _from_module("conformance.faults.runner", "cmd_faults")
    sub.add_parser("diff", help="compare two adapters on generated inputs; print disagreements as cases")
    sub.deferred["diff"] = _from_module("conformance.diff.command", "cmd_diff")
    sub.add_parser("history", help="run the suite against several releases; per case and clause, what changed between them")
    sub.deferred["history"] = _from_module("conformance.commands.history", "cmd_history")
    sub.add_parser("invariants", help="check the property-based invariants through an adapter")
    sub.deferred["invariants"] = _from_module("conformance.invariants", "cmd_invariants")
    sub.add_parser("skeleton", help="print a skeleton adapter for a language, to copy and fill in")
    sub.deferred["skeleton"] = _from_module("conformance.commands.skeleton", "cmd_skeleton")

    sc = sub.add_parser("schema", help="write the JSON Schemas of the scenario format and every operation")
    sc.add_argument("--out", type=folder_argument, default=None, metavar="DIR", help="write the JSON Schemas into DIR")
    sc.add_argument("--check", action="store_true",
                    help="only check that the schemas (the kit's own, or those in --out DIR) are current")
    sc.set_defaults(fn=commands["schema"])
    return p

"""What several ``pi-conformance`` commands share: the arguments that name the suite, the
selection, the edition and the adapter's environment; the session built from them; and the messages
of a suite error, an empty selection and the locale check."""

from __future__ import annotations

import argparse
import os
import sys
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Sequence

from conformance.adapters.connect import ADAPTER_NAMES
from conformance.commands.options import add_edition_argument, path_argument, pattern_argument
from conformance.corpus.areas import AREAS
from conformance.corpus.editions import DEFAULT as DEFAULT_EDITION, held_elsewhere
from conformance.errors import ExitCode, UsageError
from conformance.judge import golden


def add_suite_arguments(sp: argparse.ArgumentParser, *, adapter: bool = False, select: bool = True,
                        edition_default: str | None = DEFAULT_EDITION, edition_help: str = DEFAULT_EDITION) -> None:
    """The arguments of a command that reads the suite: with ``select``, ``--area``, ``--case``
    and ``--op``;
    ``--scenarios-dir``, ``--golden-dir`` and ``--spec-dir`` (a suite of scenarios other than the
    kit's, which the kit's own tests use too); ``--edition`` (``edition_default`` when not given, named in the help as
    ``edition_help``); with ``adapter``, ``--adapter`` and the adapter's environment
    (:func:`add_environment_arguments`)."""
    if select:
        sp.add_argument("--area", action="append", choices=AREAS,
                        help="only this area (repeatable)")
        sp.add_argument("--case", action="append", type=pattern_argument, metavar="PATTERN",
                        help="only cases whose id matches this glob (repeatable)")
        sp.add_argument("--op", action="append", type=pattern_argument, metavar="PATTERN",
                        help="only cases of an operation whose name matches this glob (repeatable)")
    sp.add_argument("--scenarios-dir", type=path_argument, default=None, metavar="DIR",
                    help="read the scenarios (a folder per area) from DIR instead of the kit's; give their goldens "
                         "with --golden-dir, and their clauses with --spec-dir when they cite others")
    sp.add_argument("--golden-dir", type=path_argument, default=str(golden.GOLDEN_DIR), metavar="DIR",
                    help="the goldens of the scenarios (default: the kit's)")
    sp.add_argument("--spec-dir", type=path_argument, default=None, metavar="DIR",
                    help="the clause catalogue the scenarios cite (default: the kit's)")
    add_edition_argument(sp, edition_default, edition_help)
    if adapter:
        sp.add_argument("--adapter", metavar="ADAPTER",
                        help=ADAPTER_NAMES)
        add_environment_arguments(sp)


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


def err(msg: str) -> None:
    """Print ``msg`` on standard error as the kit's (``pi-conformance: ...``)."""
    print(f"pi-conformance: {msg}", file=sys.stderr)


def session_of(args: argparse.Namespace, *, select: bool = True):
    """The :class:`~conformance.session.Session` of ``args`` (see :meth:`Session.from_args`)."""
    from conformance.session import Session

    for flag in ("scenarios_dir", "spec_dir"):  # a folder that is not one would read as an empty suite
        folder = getattr(args, flag, None)
        if folder is not None and not os.path.isdir(folder):
            raise UsageError(f"--{flag.replace('_', '-')} {folder}: not a folder (or a loop of symbolic links)")
    return Session.from_args(args, select=select)


def print_suite_errors(errors) -> ExitCode:
    """Print each suite error; :attr:`ExitCode.USAGE` when there was one, else :attr:`ExitCode.OK`."""
    for e in errors:
        err(str(e))
    return ExitCode.USAGE if errors else ExitCode.OK


def nothing_selected(suite, args: argparse.Namespace) -> str:
    """Why ``--case`` and ``--op`` (with ``--area`` and ``--edition``) selected no case: the
    matching cases belong to another area, edition or operation (named, with the option that
    selects them), are in a file that does not load, or do not exist (with the operations whose
    names are close to ``--op``'s)."""
    patterns, ops = args.case or [], getattr(args, "op", None) or []
    text = " ".join([*patterns, *(f"--op {op}" for op in ops)])
    by_id = [c for c in suite.cases if not patterns or any(fnmatchcase(c.id, p) for p in patterns)]
    matching = [c for c in by_id if not ops or any(fnmatchcase(c.op, p) for p in ops)]
    if matching:
        areas = sorted({c.area for c in matching})
        if args.area and not set(areas) & set(args.area):
            return f"{text}: the matching case(s) are of area {', '.join(areas)}, not of --area {', '.join(args.area)}"
        elsewhere = held_elsewhere(text, matching, args.edition)
        if elsewhere:
            return elsewhere
    elif ops and by_id and patterns:
        return f"{text}: the cases matching {' '.join(patterns)} are of {', '.join(sorted({c.op for c in by_id}))}"
    if patterns and any(fnmatchcase(cid, p) for cid in suite.ids for p in patterns):
        if not suite.errors and args.area:
            return f"{text}: the matching case(s) are not of --area {', '.join(args.area)}"
        return f"{text}: the matching case(s) did not load (their file's errors are above)"
    if ops and not matching:
        from conformance.operations import close_names, names

        known = [name for name in names() if any(fnmatchcase(name, op) for op in ops)]
        areas = sorted({name.partition(".")[0] for name in known})
        if known and args.area and not set(areas) & set(args.area):
            return f"{text}: the matching operation(s) are of area {', '.join(areas)}, not of --area {', '.join(args.area)}"
        close = sorted({name for op in ops for name in close_names(op)})
        return f"no case is of an operation matching {' '.join(ops)}" + (f" (did you mean {', '.join(close)}?)" if close else "")
    return f"no case matches {text}"


def indent(text: str) -> str:
    """``text`` with each line indented by two spaces."""
    return "\n".join("  " + line for line in text.rstrip("\n").splitlines())


def out_folder(value: str, *given: str | None, allowed: Path | None = None) -> Path:
    """The ``--out`` folder of ``docs`` or ``schema``, refused (:class:`UsageError`) when it lies among
    the kit's own files or ``given`` suite folders, save ``allowed``
    (:func:`conformance.output.report_paths.check_out_folder`)."""
    from conformance.output.report_paths import check_out_folder, kit_folders

    try:
        return Path(os.path.abspath(check_out_folder("--out", value, kit_folders(*given), allowed=allowed)))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def locale_check(args: argparse.Namespace, session, adapter, cases, *, quiet: bool = False):
    """The locale check of ``--locales`` over the collation cases among ``cases``; ``None`` (with a
    warning or a note unless ``quiet``) for an in-process adapter, which shares the kit's locale,
    and when no case of ``cases`` orders text."""
    from conformance.adapters.connect import out_of_process
    from conformance.judge.locales import LocaleCheck, collation_cases, not_installed

    if not out_of_process(adapter):
        if not quiet:
            err("warning: --locales is for adapters the kit starts as a process; an in-process "
                "implementation shares the kit's locale")
        return None
    collating = collation_cases(cases)
    if not collating:
        if not quiet:
            err("note: --locales: none of the selected cases orders text, so none is repeated under another locale")
        return None
    missing = not_installed(args.locales)
    if missing and not quiet:
        err(f"warning: {', '.join(missing)} not installed on this machine: an adapter that orders text through "
            "the C library runs under it as under C, so the check cannot show its dependence (Node's ICU needs none)")
    return LocaleCheck(session.adapter_factory(args.adapter), session.environment(), collating,
                       args.locales, timeout=getattr(args, "timeout", 10.0))

"""``pi-conformance show CASE-ID``: one case: its input, tree, golden (as the edition judges it) and
the statements of its clauses."""

from __future__ import annotations

import argparse

from conformance.commands.common import add_suite_arguments, indent, print_suite_errors, session_of
from conformance.corpus.editions import holds, judged
from conformance.errors import ExitCode, UsageError
from conformance.judge import golden


def add_arguments(sh: argparse.ArgumentParser) -> None:
    """Add the ``show`` subcommand's arguments to ``sh``."""
    sh.add_argument("case_id", metavar="CASE-ID")
    add_suite_arguments(sh, select=False)


def run(args: argparse.Namespace) -> ExitCode:
    """Print the case; exit 2 for suite errors. Raises :class:`UsageError` for an unknown case id
    (with the nearest ids) or one that did not load."""
    session = session_of(args, select=False)
    session.patterns = [args.case_id]
    suite = session.suite()
    case = suite.by_id().get(args.case_id)
    if case is None:
        print_suite_errors(suite.errors)
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
          + describe_clauses(session.catalogue(), case.clauses, indent="    ")
          + "".join(f"\n  clauses@{name} (cited when judged in {name}):\n"
                    + describe_clauses(session.catalogue(), ids, indent="    ") for name, ids in case.clauses_at.items()))
    if case.normalise:
        print(f"  normalise: {', '.join(case.normalise)}")
    if case.tree is not None:
        from conformance.corpus.trees import tree_data

        print("tree:")
        print(indent(golden.dump(tree_data(case.tree))))
    print("input:")
    print(indent(golden.dump(case.input)))
    if case.error_code:
        print(f"expected error: {case.error_code}")
    elif not holds(case.editions, case.area, session.edition):
        print(f"golden: none in edition {judged(session.edition, case.area)} (the case does not hold in it)")
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
            print(indent(golden.dump(stored["output"])))
    misnamed = golden.misnamed(session.golden_dir, (case.area, case.id, judged(session.edition, case.area)))
    return print_suite_errors(suite.errors + misnamed)  # as `list` and `run` report them

"""The ``pi-conformance`` command line: its subcommands, each added from its own module under
:mod:`conformance.commands` only when chosen, so that a command line imports the modules of the
command it runs only.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Callable


EPILOG = ("exit codes: 0 all good; 1 a case failed, errored or passed unexpectedly; 2 usage or suite errors; "
          "3 the adapter could not start; 130, 143 or 129 interrupted (Ctrl-C, SIGTERM, SIGHUP)")


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


COMMANDS = (
    ("run", "run the scenarios against an implementation"),
    ("list", "list the cases"),
    ("show", "show one case: input, golden, clauses"),
    ("coverage", "clause x cases; fails when a MUST clause has no case"),
    ("smoke", "check an adapter before its results count"),
    ("editions", "list the editions of the specification with their sources"),
    ("serve-reference", "serve the reference over the JSON-lines protocol on stdin/stdout"),
    ("compare", "side-by-side table of several JSON reports (--cases: what changed between two)"),
    ("docs", "render the spec catalogue with its cases as a static HTML site"),
    ("faults", "run the suite against each seeded fault; show which cases catch it"),
    ("diff", "compare two adapters on generated inputs; print disagreements as cases"),
    ("history", "run the suite against several releases; per case and clause, what changed between them"),
    ("invariants", "check the property-based invariants through an adapter"),
    ("skeleton", "print a skeleton adapter for a language, to copy and fill in"),
    ("schema", "write the JSON Schemas of the scenario format and every operation"),
)
"""Each subcommand, in the order ``--help`` lists them, with its one-line help; its module is
``conformance.commands.<name>`` (``-`` written ``_``)."""


def module_of(command: str) -> str:
    """The module of ``command``: its ``add_arguments(parser)`` and ``run(args) -> ExitCode``."""
    return f"conformance.commands.{command.replace('-', '_')}"


def build_parser() -> argparse.ArgumentParser:
    """The ``pi-conformance`` argument parser: every subcommand of :data:`COMMANDS`, each getting
    its arguments from its module when it is chosen (``fn``: the module's ``run``)."""
    p = argparse.ArgumentParser(prog="pi-conformance", epilog=EPILOG,
                                description="Conformance suite for how Pi and its extensions compose what a model receives.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", action=_Subcommands)
    sub.required = True
    for name, text in COMMANDS:
        sub.add_parser(name, help=text, **({"epilog": EPILOG} if name == "run" else {}))
        sub.deferred[name] = _from_module(module_of(name), "run")
    return p

"""conformance.commands: one module per subcommand, each with its arguments and its ``run``, and a
thin cli.py that only parses and dispatches."""

from __future__ import annotations

import argparse
import importlib
import inspect
from pathlib import Path

from conformance.commands.parser import COMMANDS, build_parser, module_of

ROOT = Path(__file__).resolve().parent.parent
HELPERS = {"__init__", "parser", "common", "options", "cli_reference", "history_fork"}
"""The modules of conformance/commands/ that are no subcommand."""


def test_every_subcommand_is_one_module_with_its_arguments_and_its_run():
    for name, _help in COMMANDS:
        module = importlib.import_module(module_of(name))
        assert callable(module.add_arguments) and callable(module.run), name
        assert inspect.signature(module.run).return_annotation in ("ExitCode", "ExitCode | int"), name


def test_every_module_of_the_commands_is_a_subcommand_or_a_named_helper():
    modules = {p.stem for p in (ROOT / "conformance" / "commands").glob("*.py")}
    assert modules - HELPERS == {name.replace("-", "_") for name, _ in COMMANDS}


def test_the_parser_dispatches_each_subcommand_to_its_modules_run():
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(sub.choices) == [name for name, _ in COMMANDS]
    args = build_parser().parse_args(["list", "--area", "pi"])
    assert args.fn.__module__ == "conformance.commands.list" and args.fn.__name__ == "run"


def test_the_cli_module_only_parses_and_dispatches():
    assert len((ROOT / "conformance" / "cli.py").read_text(encoding="utf-8").splitlines()) <= 150

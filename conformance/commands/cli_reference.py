"""The command-line reference, docs/cli.md, printed from the ``pi-conformance`` parser itself so
that the page cannot drift from the options:
``python -m conformance.commands.cli_reference > docs/cli.md``. It only formats the parser's help;
it runs no command."""

from __future__ import annotations

import argparse

from conformance.cli import parser

WIDTH = 100  # the help is wrapped at a fixed width, whatever the terminal's


def _fixed_width(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.formatter_class = lambda prog: argparse.HelpFormatter(prog, width=WIDTH)
    return p


def reference() -> str:
    """The Markdown page: the top-level help, then each subcommand's help in the parser's order
    (the subcommands whose arguments are added when they run are filled in first)."""
    top = _fixed_width(parser())
    (sub,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    parts = ["# Command-line reference", "",
             "Every command of `pi-conformance` and its options, as `--help` prints them. The page is",
             "generated from the parser:", "", "```sh",
             "python -m conformance.commands.cli_reference > docs/cli.md", "```", "",
             "A test fails when it differs.", "", "```text", top.format_help().rstrip(), "```"]
    for name, sp in sub.choices.items():
        fill = sub.deferred.pop(name, None)
        if fill is not None:
            fill(sp)
        parts += ["", f"## `pi-conformance {name}`", "", "```text", _fixed_width(sp).format_help().rstrip(), "```"]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    print(reference(), end="")

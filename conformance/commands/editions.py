"""``pi-conformance editions``: the editions of the specification, with their sources."""

from __future__ import annotations

import argparse

from conformance.errors import ExitCode


def add_arguments(ed: argparse.ArgumentParser) -> None:
    """``editions`` takes no option."""


def run(args: argparse.Namespace) -> ExitCode:
    """Print each edition, its area, whether it is the area's default and its sources
    (tab-separated, one a line)."""
    from conformance.corpus.editions import EDITIONS

    for e in EDITIONS:
        print(f"{e.name}\t{e.area}\t{'default' if e.default else '-'}\t{e.sources}")
    return ExitCode.OK

"""``pi-conformance schema``: write the JSON Schemas of the scenario format and every operation, or
check that the kit's own (or those in ``--out``) are current."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.commands.common import err, out_folder
from conformance.commands.options import folder_argument
from conformance.errors import ExitCode, UsageError


SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
"""The kit's own published schemas (package data)."""


def add_arguments(sc: argparse.ArgumentParser) -> None:
    """Add the ``schema`` subcommand's options to ``sc``."""
    sc.add_argument("--out", type=folder_argument, default=None, metavar="DIR", help="write the JSON Schemas into DIR")
    sc.add_argument("--check", action="store_true",
                    help="only check that the schemas (the kit's own, or those in --out DIR) are current")


def run(args: argparse.Namespace) -> ExitCode:
    """Write the schemas into ``--out``, or with ``--check`` exit 1 when one is out of date.
    Raises :class:`UsageError` for a missing or refused folder."""
    from conformance.output.schema import write_schemas, stale_schemas

    if args.check:
        out = Path(args.out) if args.out else SCHEMA_DIR
        if not out.is_dir():
            raise UsageError(f"--out {out}: no such folder of schemas to check")
        stale = stale_schemas(out)
        for s in stale:
            err(f"{s} is out of date: run `pi-conformance schema --out {out}`")
        if not stale:
            print(f"the schemas in {out} are current")
        return ExitCode.FAILED if stale else ExitCode.OK
    if not args.out:
        raise UsageError("say where to write the schemas: --out DIR (the kit's own copy is regenerated "
                         f"with --out {SCHEMA_DIR}); --check compares them with the operation models")
    out = out_folder(args.out, allowed=SCHEMA_DIR)
    try:
        written = write_schemas(out)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write the schemas: {exc.strerror or exc}") from None
    print(f"wrote {len(written)} schema file(s) to {args.out}")
    return ExitCode.OK

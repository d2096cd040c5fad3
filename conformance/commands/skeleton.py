"""``pi-conformance skeleton``: print (or write) a skeleton adapter for one language, the file an
implementer copies and fills in. The skeletons ship inside the package
(``conformance/adapters/skeleton/``); each passes ``pi-conformance smoke`` as it stands
(PROTOCOL.md, version 1)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from conformance.commands.options import path_argument
from conformance.errors import ExitCode

SKELETON_DIR = Path(__file__).resolve().parent.parent / "adapters" / "skeleton"
"""The folder of the shipped skeletons (package data)."""


@dataclass(frozen=True)
class Skeleton:
    """One language's skeleton: its ``file`` in :data:`SKELETON_DIR`, the name the user's copy
    takes in the examples (``copy``) and the ``--adapter`` command that runs that copy."""

    file: str
    copy: str
    command: str

    def text(self) -> str:
        """The skeleton's source text. Raises ``OSError`` when the installed kit lacks the file."""
        return (SKELETON_DIR / self.file).read_text(encoding="utf-8")


SKELETONS = {
    "js": Skeleton("adapter.mjs", "my-adapter.mjs", "node my-adapter.mjs"),
    "python": Skeleton("adapter.py", "my_adapter.py", "python3 my_adapter.py"),
}
"""The skeletons by ``--lang`` name."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``skeleton`` subcommand's options to ``parser``."""
    parser.add_argument("--lang", required=True, choices=sorted(SKELETONS),
                        help="the language of the adapter: js (Node 18 or newer, as my-adapter.mjs) or python (3.8 or newer, as my_adapter.py)")
    parser.add_argument("--out", type=path_argument, metavar="FILE",
                        help="write the skeleton to FILE (never over an existing one) instead of standard output")


def run(args: argparse.Namespace) -> ExitCode:
    """Print the ``--lang`` skeleton to standard output, or write it to ``--out FILE``.

    Exit code: 0 written; 2 when ``--out`` names an existing path (left as it was) or cannot be
    written, or the installed kit lacks the skeleton."""
    skeleton = SKELETONS[args.lang]
    try:
        text = skeleton.text()
    except OSError as exc:
        print(f"pi-conformance: the {args.lang} skeleton is missing from the kit ({exc}): reinstall it", file=sys.stderr)
        return ExitCode.USAGE
    if args.out is None:
        sys.stdout.write(text)
        return ExitCode.OK
    try:  # its missing folders are made, as a report's are (docs/running.md, "Report paths")
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"pi-conformance: --out {args.out}: cannot make its folder {Path(args.out).parent}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return ExitCode.USAGE
    try:  # "x": made here or not at all, so a file of the user's is never replaced
        with open(args.out, "x", encoding="utf-8", newline="\n") as out:
            out.write(text)
    except FileExistsError:
        print(f"pi-conformance: --out {args.out}: already exists; give a new file name", file=sys.stderr)
        return ExitCode.USAGE
    except OSError as exc:
        print(f"pi-conformance: --out {args.out}: cannot write the skeleton: {exc.strerror or exc}", file=sys.stderr)
        return ExitCode.USAGE
    command = skeleton.command.replace(skeleton.copy, shlex.quote(os.fspath(args.out)))
    print(f"wrote {args.out}; check it with: pi-conformance smoke --adapter \"{command}\"")
    return ExitCode.OK

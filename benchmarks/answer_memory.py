"""What large failing answers cost in memory: peak memory of a run against their number.

Run on demand (none of this is a timed test)::

    .venv/bin/python benchmarks/answer_memory.py [--mb N] [--few N] [--many N]

It writes a suite of ``kit.echo`` cases in a temporary folder and runs ``pi-conformance run``
(every report asked for: JSON, JUnit, Markdown, HTML) in a fresh process against an
implementation in process that answers each case wrongly, with ``--mb`` megabytes of text
(default 8), and once with a one-word wrong answer. It prints each run's peak resident memory (as
the system counts it for the process) and two ratios: a run of ``--many`` such answers (default
24) against one of ``--few`` (default 3), which must stay within 1.25 (the target: what a run
keeps of a failing answer is bounded, so memory does not grow with their number), and the cost
of one large answer beside the small run, in multiples of its size. Exit code 0 when the target
is met, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from conformance.adapters.base import Implementation

TARGET = 1.25

SPEC = """\
area: envelope
clauses:
  - id: ENV-BENCH-ECHO
    level: MUST
    statement: Echo returns its value.
    source: benchmark
"""


class Big(Implementation):
    """An implementation of ``kit.echo`` (for ``python:answer_memory:Big``) that answers every
    case with ``$ANSWER_MB`` megabytes of numbered lines (a one-word answer for 0)."""

    name, version = "big", "1"

    def operations(self) -> list[str]:
        return ["kit.echo"]

    def run(self, op: str, input: dict, root: str | None) -> dict:
        megabytes = float(os.environ.get("ANSWER_MB", "0"))
        if not megabytes:
            return {"value": "wrong"}
        line = f"line of a wrong answer to {input['value']}\n"
        return {"value": line * int(megabytes * 1024 * 1024 / len(line))}


def _suite(folder: Path, count: int) -> list[str]:
    """A suite of ``count`` echo cases with their goldens under ``folder``; the folder options."""
    from conformance.judge import golden

    (folder / "spec").mkdir(parents=True)
    (folder / "spec" / "bench.yaml").write_text(SPEC, encoding="utf-8")
    (folder / "scenarios" / "kit").mkdir(parents=True)
    cases = "".join(f"  - id: kit-echo-{i}\n    title: echo {i}\n    clauses: [ENV-BENCH-ECHO]\n    input: {{value: v{i}}}\n"
                    for i in range(count))
    (folder / "scenarios" / "kit" / "echo.yaml").write_text(
        f"format: 1\narea: kit\ntitle: Echo\nop: kit.echo\ncases:\n{cases}", encoding="utf-8")
    for i in range(count):
        golden.write(folder / "golden" / "kit" / f"kit-echo-{i}.yaml", f"kit-echo-{i}", "kit.echo", {"value": f"v{i}"})
    return ["--scenarios-dir", str(folder / "scenarios"), "--spec-dir", str(folder / "spec"),
            "--golden-dir", str(folder / "golden")]


def peak_kib(count: int, megabytes: float, work: Path) -> int:
    """The peak resident memory (KiB) of one ``run`` of ``count`` cases answered with
    ``megabytes`` each, every report written."""
    folder = work / f"{count}-{megabytes}"
    options = _suite(folder, count)
    reports = [x for flag, name in (("--report-json", "r.json"), ("--junit", "r.xml"), ("--report-md", "r.md"),
                                    ("--report-html", "r.html")) for x in (flag, str(folder / name))]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent), "ANSWER_MB": str(megabytes),
           "PI_CONFORMANCE_CACHE": str(work / "cache")}
    child = subprocess.Popen([sys.executable, "-m", "conformance.cli", "run", "-q", "--adapter", "python:answer_memory:Big",
                              *options, *reports], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 1:
        sys.exit(f"the run of {count} x {megabytes} MB exited {child.returncode}:\n{stderr.decode()[-2000:]}")
    return usage.ru_maxrss  # KiB on Linux


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=8.0)
    parser.add_argument("--few", type=int, default=3)
    parser.add_argument("--many", type=int, default=24)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="answer-memory-") as work:
        small = peak_kib(args.many, 0, Path(work))
        few = peak_kib(args.few, args.mb, Path(work))
        many = peak_kib(args.many, args.mb, Path(work))
    growth = many / few
    print(f"{args.many} one-word wrong answers: peak {small / 1024:.0f} MiB")
    print(f"{args.few} wrong answers of {args.mb:g} MB: peak {few / 1024:.0f} MiB; "
          f"{args.many}: peak {many / 1024:.0f} MiB")
    print(f"{args.many} against {args.few}: {growth:.2f}x (target: at most {TARGET}x)")
    print(f"one large answer costs {(few - small) / 1024 / args.mb:.1f}x its size at its peak")
    return 0 if growth <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())

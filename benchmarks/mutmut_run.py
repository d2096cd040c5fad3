"""Mutation testing of ``reference/`` with mutmut, on demand (see ``benchmarks/mutmut.md``).

The suite's strength is what it kills: mutmut changes ``reference/`` one small edit at a time
(an operator, a constant, a comparison, a returned value) and runs the conformance scenarios and
the property-based invariants against each mutant. A mutant that no test notices *survives*:
either a case is missing (write one in ``conformance/scenarios/<area>/strength-*.yaml``) or the
edit does not change behaviour (explain it in ``benchmarks/mutmut.md``).

The run never touches the working tree: it exports a commit (default ``HEAD``) into a work
directory, writes mutmut's ``setup.cfg`` there and runs mutmut from a separate environment::

    python3 -m venv /tmp/mutvenv
    /tmp/mutvenv/bin/pip install mutmut pydantic ruamel.yaml pytest syrupy pyuca wcmatch hypothesis
    python benchmarks/mutmut_run.py --python /tmp/mutvenv/bin/python --workdir /tmp/mutmut-work
    python benchmarks/mutmut_run.py --python /tmp/mutvenv/bin/python --workdir /tmp/mutmut-work --only \\
        'reference/profiles/core/*'     # one part only

It prints the counts (killed, survived, timeout, ...) and the kill rate, killed / (killed +
survived + timeout + suspicious), and writes them as JSON with ``--report-json``. ``--survivors``
lists the surviving mutants' names (show one with ``mutmut show NAME`` in the work directory);
``--rejudge DIR`` judges again only the survivors of the finished run in DIR with this commit's tests;
``--analyse`` classifies the survivors of a finished run: *wording* (only a string literal changed:
an error or diagnostic message, which cases do not compare) or *behaviour*, with each diff.
"""

from __future__ import annotations

import argparse
import ast
import copy
import difflib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TESTS = ("tests/test_scenarios.py", "tests/test_scenarios_editions.py", "tests/test_invariants.py")
"""What judges a mutant: every scenario (in process) under its area's default edition and under
every other edition it holds for, and the invariants -- the suite, not the reference's own unit
tests."""

SETUP_CFG = """\
[mutmut]
source_paths=reference/
also_copy=
    conformance/
    golden/
pytest_add_cli_args=
    -p
    conformance.plugin
    -q
    -x
    -p
    no:cacheprovider
pytest_add_cli_args_test_selection=
{tests}
{only}
"""


def export(commit: str, workdir: Path) -> None:
    """Write the tree of ``commit`` into ``workdir`` (made empty first)."""
    if workdir.exists() and any(workdir.iterdir()):
        raise SystemExit(f"{workdir} is not empty; give an empty or new --workdir")
    workdir.mkdir(parents=True, exist_ok=True)
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(workdir, filter="data")


def configure(workdir: Path, tests: list[str], only: list[str]) -> None:
    """Write mutmut's ``setup.cfg`` (the project's ``pyproject.toml`` has no mutmut section)."""
    only_lines = "only_mutate=\n" + "".join(f"    {p}\n" for p in only) if only else ""
    text = SETUP_CFG.format(tests="".join(f"    {t}\n" for t in tests).rstrip("\n"), only=only_lines)
    (workdir / "setup.cfg").write_text(text, encoding="utf-8")


def stats(workdir: Path, python: str) -> dict:
    """mutmut's own counts (``mutmut export-cicd-stats``) plus the kill rate."""
    subprocess.run([python, "-m", "mutmut", "export-cicd-stats"], cwd=workdir, check=True,
                   stdout=subprocess.DEVNULL)
    data = json.loads((workdir / "mutants" / "mutmut-cicd-stats.json").read_text(encoding="utf-8"))
    judged = sum(data.get(k, 0) for k in ("killed", "survived", "timeout", "suspicious"))
    data["kill_rate"] = round(100 * (data.get("killed", 0) + data.get("timeout", 0)) / judged, 1) if judged else None
    return data


def survivors(workdir: Path, python: str) -> list[str]:
    out = subprocess.run([python, "-m", "mutmut", "results"], cwd=workdir, check=True, capture_output=True,
                         text=True).stdout
    return [line.split(":")[0].strip() for line in out.splitlines() if line.strip().endswith("survived")]


def exit_codes(workdir: Path) -> dict[str, int | None]:
    """Every mutant's exit code as mutmut recorded it (``0``: survived), by mutant name."""
    out: dict[str, int | None] = {}
    for meta in (workdir / "mutants").rglob("*.py.meta"):
        out.update(json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {}))
    return out


def rejudge(source: Path, workdir: Path, python: str, max_children: int) -> dict:
    """Judge again, with the tests of the exported tree in ``workdir``, only the mutants that
    survived the finished run in ``source``; every other mutant keeps its verdict.

    Adding cases can only kill more mutants, so this gives the figure of a whole run at a far
    smaller cost -- provided ``reference/`` is unchanged (``SystemExit`` otherwise, and when the
    mutant set differs). mutmut resets every verdict when the test selection changes, so the
    verdicts of ``source`` are written back for the mutants not judged again. Returns
    ``{"rejudged": n, "now_killed": n}``."""
    old, new = source / "reference", workdir / "reference"
    changed = [p for p in sorted(new.rglob("*.py"))
               if not (old / p.relative_to(new)).is_file() or (old / p.relative_to(new)).read_bytes() != p.read_bytes()]
    if changed or len(list(old.rglob("*.py"))) != len(list(new.rglob("*.py"))):
        raise SystemExit(f"reference/ differs from {source} ({', '.join(map(str, changed[:3]))}...): run it whole")
    skip = shutil.ignore_patterns("tests", "conformance", "golden", "setup.cfg", "pyproject.toml")
    shutil.copytree(source / "mutants", workdir / "mutants", ignore=lambda d, names: skip(d, names)
                    if Path(d) == source / "mutants" else set())
    before = exit_codes(source)
    names = sorted(k for k, v in before.items() if v == 0)
    env = {**os.environ, "PYTHONPATH": str(workdir)}
    subprocess.run([python, "-m", "mutmut", "run", "--max-children", str(max_children), *names], cwd=workdir,
                   env=env, check=False)
    after = exit_codes(workdir)
    if set(after) != set(before):
        raise SystemExit(f"the mutant set changed ({len(before)} before, {len(after)} now)")
    for meta in (workdir / "mutants").rglob("*.py.meta"):
        data = json.loads(meta.read_text(encoding="utf-8"))
        data["exit_code_by_key"] = {k: (v if k in names else before[k]) for k, v in data["exit_code_by_key"].items()}
        meta.write_text(json.dumps(data), encoding="utf-8")
    return {"rejudged": len(names), "now_killed": sum(1 for n in names if after[n] not in (0, None))}


def _functions(path: Path) -> dict[str, ast.AST]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _without_strings(node: ast.AST) -> str:
    class Blank(ast.NodeTransformer):
        def visit_Constant(self, c: ast.Constant) -> ast.AST:
            return ast.Constant("") if isinstance(c.value, str) else c

        def visit_FunctionDef(self, f: ast.FunctionDef) -> ast.AST:
            f.name = "f"
            self.generic_visit(f)
            return f

    return ast.dump(Blank().visit(copy.deepcopy(node)))


_MESSAGE_LINE = re.compile(r"raise |SpecError\(|_invalid\(|Diagnostic\(|message|describe_|AuthResult\(False")


def classify(workdir: Path) -> dict[str, list[dict]]:
    """The surviving mutants, each ``{name, kind, diff}``, grouped by module. ``kind`` is
    ``wording`` when the mutant only changes string literals, ``message`` when every line it
    changes builds a refusal or a diagnostic (its wording or arguments: cases compare codes, not
    messages), and ``behaviour`` otherwise."""
    out: dict[str, list[dict]] = {}
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
        survived = [k for k, v in codes.items() if v == 0]
        if not survived:
            continue
        source = meta.with_suffix("")
        funcs = _functions(source)
        for name in survived:
            func = name.rsplit(".", 1)[1]
            orig = funcs.get(func.split("__mutmut_")[0] + "__mutmut_orig")
            mutant = funcs.get(func)
            kind, diff = "behaviour", []
            if orig is not None and mutant is not None:
                if _without_strings(orig) == _without_strings(mutant):
                    kind = "wording"
                a, b = ast.unparse(orig).splitlines(), ast.unparse(mutant).splitlines()
                diff = [line for line in difflib.unified_diff(a, b, lineterm="", n=0)
                        if line[:1] in "+-" and not line.startswith(("+++", "---"))][1:]
                diff = [d for d in diff if "__mutmut_" not in d]
                if kind == "behaviour" and diff and all(_MESSAGE_LINE.search(d) for d in diff if d.startswith("-")):
                    kind = "message"
            out.setdefault(name.rsplit(".", 1)[0], []).append({"name": name, "kind": kind, "diff": diff})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="a Python with mutmut and the project's dependencies")
    parser.add_argument("--workdir", required=True, type=Path, help="an empty or new directory for the run")
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="mutate only files matching this glob (repeatable), e.g. 'reference/pi/*'")
    parser.add_argument("--tests", action="append", default=None, metavar="PATH",
                        help=f"test files that judge the mutants (default: {' '.join(TESTS)})")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--report-json", type=Path)
    parser.add_argument("--survivors", action="store_true", help="list the surviving mutants")
    parser.add_argument("--resume", action="store_true", help="continue a run in an existing --workdir")
    parser.add_argument("--rejudge", type=Path, metavar="DIR",
                        help="judge again only the survivors of the finished run in DIR (same reference/), "
                             "with this commit's tests, in the new --workdir")
    parser.add_argument("--analyse", action="store_true",
                        help="only classify the survivors of a finished run in --workdir (wording or behaviour)")
    args = parser.parse_args(argv)
    workdir = args.workdir.resolve()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.commit], capture_output=True,
                            text=True).stdout.strip()
    if args.analyse:
        groups = classify(workdir)
        counts = {"wording": 0, "message": 0, "behaviour": 0}
        for module, items in groups.items():
            for item in items:
                counts[item["kind"]] += 1
            behaviour = [i for i in items if i["kind"] == "behaviour"]
            print(f"{module}: {len(items)} survived, {len(behaviour)} change behaviour")
            for i in behaviour:
                print(f"  {i['name'].rsplit('.', 1)[1]}: " + " | ".join(d.strip() for d in i["diff"][:2]))
        print(json.dumps(counts))
        if args.report_json:
            args.report_json.write_text(json.dumps({"counts": counts, "survivors": groups}, indent=2) + "\n",
                                        encoding="utf-8")
        return 0
    rejudged = None
    if not args.resume:
        export(commit, workdir)
        configure(workdir, args.tests or list(TESTS), args.only)
    if args.rejudge:
        rejudged = rejudge(args.rejudge.resolve(), workdir, args.python, args.max_children)
    else:
        env = {**os.environ, "PYTHONPATH": str(workdir)}
        subprocess.run([args.python, "-m", "mutmut", "run", "--max-children", str(args.max_children)], cwd=workdir,
                       env=env, check=False)
    result = stats(workdir, args.python)
    if rejudged:
        result.update(rejudged)
    result["commit"] = commit if not args.resume else None
    result["only"] = args.only
    print(json.dumps(result, indent=2))
    if args.survivors:
        print("\n".join(survivors(workdir, args.python)))
    if args.report_json:
        args.report_json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
``--rejudge DIR`` judges again only the survivors of the run in DIR with this commit's tests (again
with ``--resume`` once DIR has finished);
``--analyse`` classifies the survivors of a finished run: *wording* (nothing changed but the text
of an error or diagnostic message, which cases do not compare), *message* (a line building a
refusal or a diagnostic changed, perhaps more than its text) or *behaviour*, with each diff.
"""

from __future__ import annotations

import argparse
import ast
import copy
import difflib
import fnmatch
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TESTS = ("tests/test_scenarios.py", "tests/test_scenarios_editions.py", "tests/test_invariants.py")
"""What judges a mutant: every scenario (in process) under its area's default edition and under
every other edition it holds for, and the invariants -- the suite, not the reference's own unit
tests."""

KILLED = frozenset({1, 3, 24, -24, 36, 152, 255})
"""mutmut's exit codes of a mutant the tests noticed: failed (1), internal error (3), or timed out."""
NO_TESTS = frozenset({5, 33})
"""mutmut's exit codes of a mutant no test ran."""

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
    """Every mutant's exit code as mutmut recorded it (``0``: survived, ``None``: not judged yet),
    by mutant name. A run still going may be read: a file caught while mutmut rewrites it is read
    again."""
    out: dict[str, int | None] = {}
    for meta in (workdir / "mutants").rglob("*.py.meta"):
        out.update(exit_codes_of(meta))
    return out


def rejudge(source: Path, workdir: Path, python: str, max_children: int, only: list[str] | None = None) -> dict:
    """Judge again, with the tests of the exported tree in ``workdir``, only the mutants that
    survived the run in ``source``; every other mutant keeps ``source``'s verdict.

    Adding cases can only kill more mutants, so this gives the figure of a whole run at a far
    smaller cost -- provided ``reference/``'s code is unchanged, docstrings aside (``SystemExit``
    otherwise, and when the mutant set differs). ``source`` may still be running: call again (``--resume``) once it has
    finished, and only the survivors not yet judged again are run. The verdicts of the mutants
    judged again are kept in ``workdir/rejudged.json``; mutmut resets every verdict when the test
    selection changes, so ``source``'s verdicts are written back for the others. With ``only``
    (globs over mutant names), only the survivors matching one are judged again: the others stay
    survivors, so the figure is a lower bound. Returns
    ``{"rejudged": n, "now_killed": n, "not_judged_in_source": n}``."""
    old, new = source / "reference", workdir / "reference"
    changed = [p for p in sorted(new.rglob("*.py"))
               if not (old / p.relative_to(new)).is_file() or _code(old / p.relative_to(new)) != _code(p)]
    if changed or len(list(old.rglob("*.py"))) != len(list(new.rglob("*.py"))):
        raise SystemExit(f"reference/ differs from {source} ({', '.join(map(str, changed[:3]))}...): run it whole")
    if not (workdir / "mutants").exists():
        skip = shutil.ignore_patterns("tests", "conformance", "golden", "setup.cfg", "pyproject.toml")
        shutil.copytree(source / "mutants", workdir / "mutants", ignore=lambda d, names: skip(d, names)
                        if Path(d) == source / "mutants" else set())
        # which tests run which function is recorded again with this commit's tests: mutmut would
        # otherwise keep the source's record and add only tests it has not seen, so a function
        # new since (or reached by existing tests in a new way) would be judged by too few tests
        for stale in ("mutmut-stats.json", "mutmut-cicd-stats.json"):
            (workdir / "mutants" / stale).unlink(missing_ok=True)
    state = workdir / "rejudged.json"
    done: dict[str, int | None] = json.loads(state.read_text(encoding="utf-8")) if state.exists() else {}
    before = exit_codes(source)
    names = sorted(k for k, v in before.items() if v == 0 and k not in done
                   and (not only or any(fnmatch.fnmatchcase(k, g) for g in only)))
    if names:
        env = {**os.environ, "PYTHONPATH": str(workdir)}
        subprocess.run([python, "-m", "mutmut", "run", "--max-children", str(max_children), *names], cwd=workdir,
                       env=env, check=False)
        after = exit_codes(workdir)
        if set(after) != set(before):
            raise SystemExit(f"the mutant set changed ({len(before)} before, {len(after)} now)")
        untested = sorted(n for n in names if after[n] in NO_TESTS)
        if untested:
            raise SystemExit(f"{len(untested)} survivors have no test now ({untested[0]}, ...): "
                             "the record of which tests run what is wrong")
        done.update({n: after[n] for n in names})
        state.write_text(json.dumps(done, indent=1) + "\n", encoding="utf-8")
    for meta in (workdir / "mutants").rglob("*.py.meta"):
        data = json.loads(meta.read_text(encoding="utf-8"))
        data["exit_code_by_key"] = {k: (done[k] if k in done else before[k]) for k in data["exit_code_by_key"]}
        meta.write_text(json.dumps(data), encoding="utf-8")
    return {"rejudged": len(done), "now_killed": sum(1 for v in done.values() if v in KILLED),
            "not_judged_in_source": sum(1 for v in before.values() if v is None)}


def exit_codes_of(meta: Path) -> dict[str, int | None]:
    """The verdicts one ``.meta`` file of a run holds (empty when there is none). A file caught
    while mutmut rewrites it is read again."""
    if not meta.is_file():
        return {}
    for attempt in range(20):
        try:
            return json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
        except json.JSONDecodeError:
            if attempt == 19:
                raise
            time.sleep(0.5)
    return {}


def _code(source: Path) -> str:
    """The code of a module with its docstrings left out: mutmut mutates neither docstrings nor
    line numbers, so two modules of the same code have the same mutants, judged alike."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _without_mutants(source: Path) -> bool:
    """True when ``source`` defines no function or class, so mutmut makes no mutant of it."""
    return not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                   for n in ast.walk(ast.parse(source.read_text(encoding="utf-8"))))


def assemble(old: Path, new: Path, workdir: Path) -> dict:
    """Make ``workdir`` a finished run of ``new``'s ``reference/`` out of two finished runs.

    ``old`` is a whole run of an earlier ``reference/``; ``new`` a run (usually ``--only``) of a
    later tree that mutated at least every module changed since. Each module takes the mutants
    and verdicts of ``old`` when its code is the same there (docstrings aside, :func:`_code`),
    else those of ``new``
    (``SystemExit`` when ``new`` did not mutate it); modules ``new`` no longer has are dropped. The
    result is what ``--rejudge`` needs to judge the survivors of the current ``reference/`` again
    without a whole run. Returns ``{"from_old": [...], "from_new": [...], "dropped": [...]}``
    (module paths) and writes it to ``workdir/assembled.json``."""
    if workdir.exists() and any(workdir.iterdir()):
        raise SystemExit(f"{workdir} is not empty; give an empty or new --workdir")
    shutil.copytree(old, workdir, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(workdir / "reference")
    shutil.copytree(new / "reference", workdir / "reference", ignore=shutil.ignore_patterns("__pycache__"))
    result: dict[str, list[str]] = {"from_old": [], "from_new": [], "dropped": []}
    for source in sorted((new / "reference").rglob("*.py")):
        rel = source.relative_to(new)
        before = old / rel
        if before.is_file() and _code(before) == _code(source):
            result["from_old"].append(str(rel))
            continue
        if not (new / "mutants" / f"{rel}.meta").is_file():
            if _without_mutants(source) and not exit_codes_of(old / "mutants" / f"{rel}.meta"):
                shutil.copyfile(source, workdir / "mutants" / rel)  # a docstring or imports changed
                result["from_new"].append(str(rel))
                continue
            raise SystemExit(f"{rel} changed since {old} but {new} did not mutate it: run it there (--only)")
        for suffix in ("", ".meta", ".spans"):
            target = workdir / "mutants" / f"{rel}{suffix}"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(new / "mutants" / f"{rel}{suffix}", target)
        result["from_new"].append(str(rel))
    for gone in sorted((old / "reference").rglob("*.py")):
        rel = gone.relative_to(old)
        if not (new / rel).is_file():
            for suffix in ("", ".meta", ".spans"):
                (workdir / "mutants" / f"{rel}{suffix}").unlink(missing_ok=True)
            result["dropped"].append(str(rel))
    (workdir / "assembled.json").write_text(json.dumps({"old": str(old), "new": str(new), **result}, indent=1) + "\n",
                                           encoding="utf-8")
    return result


def _functions(path: Path) -> dict[str, ast.AST]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


_MESSAGE_PARAMS = {"message", "msg"}
"""The parameters that carry a message's text (never compared by cases): ``SpecError``'s,
``Diagnostic``'s, ``Problem``'s, ``ConfigIssue``'s and ``AuthResult``'s ``message``."""


def _param_name(call: ast.Call, arg: ast.AST, namespace: dict) -> str | None:
    """The name of the parameter ``arg`` (an argument of ``call``) binds to, when the called
    function or class can be found in ``namespace`` (the mutated module's globals)."""
    for kw in call.keywords:
        if kw.value is arg:
            return kw.arg
    func = call.func
    name = func.id if isinstance(func, ast.Name) else None
    target = namespace.get(name) if name else None
    if arg not in call.args:
        return None
    index = call.args.index(arg)
    if target is None:  # a function nested in another one, or passed in under its own name
        defined = namespace.get("__nested__", {}).get(name)
        names = [a.arg for a in defined.args.posonlyargs + defined.args.args] if defined is not None else []
        return names[index] if index < len(names) else None
    try:
        import inspect

        params = [p for p in inspect.signature(target).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return None
    return params[index].name if index < len(params) else None


def _in_message(node: ast.AST, parents: dict, namespace: dict, function: str) -> bool:
    """Whether ``node`` is part of a message's text only: inside an argument bound to a
    ``message`` parameter, a ``msg``/``message`` variable, or the value returned by a wording
    helper (a function whose name holds ``describe``)."""
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.Call) and node is not parent.func:
            param = _param_name(parent, node, namespace)
            if param in _MESSAGE_PARAMS:
                return True
            if param is not None:
                return False
        if isinstance(parent, ast.Tuple) and isinstance(parents.get(parent), ast.Assign):
            targets = parents[parent].targets
            if len(targets) == 1 and isinstance(targets[0], ast.Tuple) and len(targets[0].elts) == len(parent.elts):
                target = targets[0].elts[parent.elts.index(node)]
                return isinstance(target, ast.Name) and target.id in _MESSAGE_PARAMS
        if isinstance(parent, ast.Assign):
            return all(isinstance(t, ast.Name) and t.id in _MESSAGE_PARAMS for t in parent.targets)
        if isinstance(parent, ast.Return):
            return "describe" in function
        if isinstance(parent, ast.stmt):
            return False
        node = parent
    return False


def _differences(a: ast.AST, b: ast.AST) -> list[tuple[ast.AST, ast.AST]] | None:
    """The smallest nodes of ``a`` where ``b`` differs, each with its counterpart in ``b``;
    ``None`` when ``a`` itself differs."""
    if type(a) is not type(b):
        return None
    if isinstance(a, ast.Constant):
        return [] if (type(a.value), a.value) == (type(b.value), b.value) else None
    out: list[tuple[ast.AST, ast.AST]] = []
    for field in a._fields:
        x, y = getattr(a, field, None), getattr(b, field, None)
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return None
            pairs = list(zip(x, y))
        else:
            pairs = [(x, y)]
        for u, v in pairs:
            if isinstance(u, ast.AST) and isinstance(v, ast.AST):
                inner = _differences(u, v)
                out.extend([(u, v)] if inner is None else inner)
            elif u != v and field != "name":
                return None
    return out


def only_message_text(orig: ast.AST, mutant: ast.AST, namespace: dict) -> bool:
    """Whether the mutant changes nothing but the text of messages: every change puts a string
    or ``None`` in place of an expression (never an operator, never a key it looks up, so it
    cannot raise) inside a message (see :func:`_in_message`)."""
    diffs = _differences(orig, mutant)
    if not diffs:
        return False
    parents = {child: node for node in ast.walk(orig) for child in ast.iter_child_nodes(node)}
    def direct(u: ast.AST) -> bool:  # the message itself, not something it is computed from
        parent = parents.get(u)
        if isinstance(parent, ast.Call):
            return _param_name(parent, u, namespace) in _MESSAGE_PARAMS
        return isinstance(parent, ast.Assign) or isinstance(parents.get(parent), ast.Assign)

    return all(isinstance(u, ast.expr) and isinstance(v, ast.Constant)
               and (isinstance(v.value, str) or (v.value is None and direct(u)))
               and not isinstance(parents.get(u), ast.Subscript) and _in_message(u, parents, namespace, orig.name)
               for u, v in diffs)


_MESSAGE_LINE = re.compile(r"raise |SpecError\(|_invalid\(|Diagnostic\(|message|describe_|AuthResult\(False")


def classify(workdir: Path) -> dict[str, list[dict]]:
    """The surviving mutants, each ``{name, kind, diff}``, grouped by module. ``kind`` is
    ``wording`` when the mutant changes nothing but the text of a message
    (:func:`only_message_text`: a string, or an expression, inside the ``message`` of a refusal,
    a diagnostic or a problem, or a wording helper's result -- cases compare codes, never
    messages), ``message`` when every line it changes builds a refusal or a diagnostic but it may
    change more than the text (a code, a ``path``, a ``detail``), and ``behaviour`` otherwise."""
    import importlib

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    out: dict[str, list[dict]] = {}
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        survived = [k for k, v in exit_codes_of(meta).items() if v == 0]
        if not survived:
            continue
        source = meta.with_suffix("")
        funcs = _functions(source)
        module = ".".join(source.relative_to(workdir / "mutants").with_suffix("").parts)
        namespace = {**vars(importlib.import_module(module.removesuffix(".__init__"))),
                     "__nested__": {n: f for n, f in funcs.items() if "__mutmut_" not in n}}
        for name in survived:
            func = name.rsplit(".", 1)[1]
            orig = funcs.get(func.split("__mutmut_")[0] + "__mutmut_orig")
            mutant = funcs.get(func)
            kind, diff = "behaviour", []
            if orig is not None and mutant is not None:
                if only_message_text(orig, mutant, namespace):
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
    parser.add_argument("--rejudge-only", action="append", default=[], metavar="GLOB",
                        help="with --rejudge: judge again only the survivors whose name matches (repeatable), "
                             "e.g. 'reference.pi.core.templates.*'")
    parser.add_argument("--assemble", nargs=2, type=Path, metavar=("OLD", "NEW"),
                        help="make --workdir a finished run of NEW's reference/: each module's mutants and verdicts "
                             "from the whole run OLD where its source is unchanged, else from the run NEW")
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
    if args.assemble:
        result = assemble(args.assemble[0].resolve(), args.assemble[1].resolve(), workdir)
        print(json.dumps({k: len(v) for k, v in result.items()}))
        print(json.dumps(stats(workdir, args.python), indent=2))
        return 0
    rejudged = None
    if not args.resume:
        export(commit, workdir)
        configure(workdir, args.tests or list(TESTS), args.only)
    if args.rejudge:
        rejudged = rejudge(args.rejudge.resolve(), workdir, args.python, args.max_children, args.rejudge_only)
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

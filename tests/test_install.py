"""The kit installed from its wheel, as an outsider runs it: no checkout, any folder.

One test builds the sdist and the wheel from a copy of this checkout, installs the wheel into a fresh
virtual environment (its dependencies from the package index, as ``pip install`` or ``pipx
install`` would), and runs the installed ``pi-conformance`` and pytest plugin from a folder
outside the checkout. It is one test, not several sharing a fixture, so that parallel workers
never build and install twice.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import venv
import zipfile
from pathlib import Path

from conformance.corpus.cases import load_suite, select

ROOT = Path(__file__).resolve().parent.parent
BUILD_BACKEND = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["build-backend"]


def _run(argv: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "PYTHON"))}
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _memory_folder() -> str | None:
    """Memory-backed ``/dev/shm`` where it is a writable folder, else ``None`` (the system's
    temporary folder): the build and the virtual environment write thousands of files, which on
    a busy disk took most of this test's time."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def _checkout_copy(dest: Path) -> Path:
    """A copy of the checkout as git sees it (what ``.gitignore`` names is left out, so neither
    node_modules nor earlier builds are copied), from which the wheel and the sdist are built
    without writing into the checkout."""
    ignored = [line.strip().rstrip("/").rsplit("/", 1)[-1]
               for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")]
    shutil.copytree(ROOT, dest, symlinks=True, ignore=shutil.ignore_patterns(".git", *ignored))
    return dest


def _install(tmp: Path) -> dict[str, Path]:
    """``{"bin": venv bin folder, "wheel": the wheel, "sdist": the sdist, "away": a folder
    outside the checkout}``; the venv holds the installed wheel and nothing of the checkout."""
    dist = tmp / "dist"
    source = _checkout_copy(tmp / "source")
    # The sdist and the wheel from one process calling the build backend's PEP 517 hooks, which
    # is what ``pip wheel --no-build-isolation`` and ``python -m build`` call, each in a process
    # of its own (the second start cost as much as the sdist).
    build = _run([sys.executable, "-c", f"from {BUILD_BACKEND} import build_sdist, build_wheel; "
                  f"build_sdist({str(dist)!r}); build_wheel({str(dist)!r})"], cwd=source)
    assert build.returncode == 0, build.stderr
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bindir = env_dir / "bin"
    wheel = next(dist.glob("*.whl"))
    # this pip installs into the new environment (``--python``): it needs no pip of its own
    inst = _run([sys.executable, "-m", "pip", "--python", str(bindir / "python"), "install", "--quiet", "--no-compile",
                 str(wheel)], cwd=tmp)
    assert inst.returncode == 0, inst.stderr
    away = tmp / "elsewhere"
    away.mkdir()
    return {"bin": bindir, "wheel": wheel, "sdist": next(dist.glob("*.tar.gz")), "away": away}


def _check_wheel_carries_what_a_run_needs(installed) -> None:
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    goldens = [n for n in names if n.startswith("conformance/_golden/") and n.endswith(".yaml")]
    assert len(goldens) == len(list((ROOT / "golden").rglob("*.yaml")))
    for needed in ("conformance/spec/envelope.yaml", "conformance/scenarios/ids.yaml",
                   "conformance/schema/scenario.schema.json", "conformance/adapters/pi-node/run.sh",
                   "conformance/adapters/pi-node/package-lock.json", "conformance/adapters/pi-node/serve.mjs",
                   "conformance/adapters/ext-ts/run.sh", "conformance/adapters/ext-ts/adapter.mjs",
                   "conformance/PROTOCOL.md", "conformance/adapters/skeleton/adapter.mjs",
                   "conformance/adapters/skeleton/adapter.py", "conformance/faults/seeded/envelope.py",
                   "conformance/faults/seeded/unproven.txt"):
        assert needed in names, needed
    assert not any("node_modules" in n for n in names)


def _check_sdist_carries_the_goldens_and_the_node_adapter(installed) -> None:
    with tarfile.open(installed["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert len([n for n in names if n.startswith("golden/") and n.endswith(".yaml")]) == \
        len(list((ROOT / "golden").rglob("*.yaml")))
    assert "conformance/adapters/pi-node/adapter.mjs" in names
    assert "conformance/adapters/ext-ts/profiles.mjs" in names
    assert not any("node_modules" in n for n in names)


def _check_installed_run_passes_the_whole_suite_from_any_folder(installed) -> None:
    # The whole suite under the default edition of Pi's pages, then the pi area under the other
    # edition (the wheel carries golden/pi@pi-1.6.0/ too): an edition is of the pi area alone,
    # so its run judges the envelope and profiles cases as the first run did.
    for edition, areas in (("pi-0.99.4", None), ("pi-1.6.0", ["pi"])):
        report = installed["away"] / "reports" / f"reference-{edition}.json"
        proc = _run([str(installed["bin"] / "pi-conformance"), "run", "--edition", edition,
                     *(f"--area={area}" for area in areas or ()), "--report-json", str(report)], cwd=installed["away"])
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        data = json.loads(report.read_text())
        statuses = [c["status"] for c in data["cases"]]
        assert len(statuses) == len(select(load_suite().cases, areas=areas, edition=edition))
        assert set(statuses) == {"passed"} and data["header"]["edition"] == edition


def _check_installed_run_through_a_command_adapter(installed) -> None:
    serve = f"{installed['bin'] / 'pi-conformance'} serve-reference"
    report = installed["away"] / "served.json"
    proc = _run([str(installed["bin"] / "pi-conformance"), "run", "--area", "envelope", "--adapter", serve,
                 "--report-json", str(report)], cwd=installed["away"])
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    statuses = [c["status"] for c in json.loads(report.read_text())["cases"]]
    assert statuses and set(statuses) == {"passed"}
    # the kit's own child imports the installed kit, not a user's package named like one of its own
    crowded = installed["away"] / "crowded"
    (crowded / "reference").mkdir(parents=True)
    (crowded / "reference" / "__init__.py").write_text('raise SystemExit("the user\'s reference")\n')
    (crowded / "conformance.py").write_text('raise SystemExit("the user\'s conformance")\n')
    proc = _run([str(installed["bin"] / "pi-conformance"), "run", "--adapter", "serve-reference", "--case", "tpl-args-*"],
                cwd=crowded)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def _check_installed_invariants_need_no_test_extra(installed) -> None:
    proc = _run([str(installed["bin"] / "pi-conformance"), "invariants", "--examples", "1"],
                cwd=installed["away"])
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def _check_installed_pytest_plugin_runs_the_suite(installed) -> None:
    # The plugin collects an area of the installed suite and judges a selection of it against
    # the installed goldens (the whole suite was judged above, by ``run``).
    proc = _run([str(installed["bin"] / "python"), "-m", "pytest", "--pyargs", "conformance.suite",
                 "-q", "-p", "no:cacheprovider", "--area", "profiles", "-k", "scope"], cwd=installed["away"])
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    chosen = [c for c in select(load_suite().cases, areas=["profiles"]) if "scope" in c.id]
    assert chosen and proc.stdout.splitlines()[-1].startswith(f"{len(chosen)} passed, "), proc.stdout[-2000:]


def _check_installed_skeletons_pass_smoke(installed) -> None:
    # Each skeleton the installed kit prints passes smoke as it stands, run from the user's folder.
    from tests.test_skeletons import node

    for lang, name, runtime in (("python", "my_adapter.py", sys.executable), ("js", "my-adapter.mjs", node())):
        if runtime is None:
            continue
        made = _run([str(installed["bin"] / "pi-conformance"), "skeleton", "--lang", lang, "--out", name],
                    cwd=installed["away"])
        assert made.returncode == 0, made.stderr
        proc = _run([str(installed["bin"] / "pi-conformance"), "smoke", "--adapter", f"{runtime} {name}"],
                    cwd=installed["away"])
        assert proc.returncode == 0 and "smoke: all" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_installed_wheel_runs_from_any_folder() -> None:
    with tempfile.TemporaryDirectory(prefix="pi-conformance-install-", dir=_memory_folder()) as tmp:
        _check_installed(_install(Path(tmp)))


def _check_wheel_cites_no_private_working_file(installed) -> None:
    from conformance.corpus.public import private_reference

    found = []
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        for name in wheel.namelist():
            if Path(name).suffix in {".py", ".yaml", ".md", ".json", ".mjs", ".js", ".html", ".j2", ".txt"}:
                for number, line in enumerate(wheel.read(name).decode("utf-8", "replace").splitlines(), 1):
                    if (hit := private_reference(line)) is not None:
                        found.append(f"{name}:{number}: {hit!r}")
    assert found == []


def _check_installed_faults_run_the_shipped_seeded_faults(installed) -> None:
    # the seeded faults ship with the kit: one of each area caught, and the allow-list found
    tool = str(installed["bin"] / "pi-conformance")
    listed = _run([tool, "faults", "--list"], cwd=installed["away"])
    assert listed.returncode == 0, listed.stderr
    ids = {area: next(line.split("\t")[0] for line in listed.stdout.splitlines() if line.split("\t")[1] == area)
           for area in ("envelope", "profiles", "pi")}
    proc = _run([tool, "faults", "-q", *[f"--fault={i}" for i in ids.values()]], cwd=installed["away"])
    assert proc.returncode == 0 and "3/3 seeded faults caught" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]


def _check_installed(installed: dict[str, Path]) -> None:
    _check_wheel_carries_what_a_run_needs(installed)
    _check_wheel_cites_no_private_working_file(installed)
    _check_sdist_carries_the_goldens_and_the_node_adapter(installed)
    _check_installed_run_passes_the_whole_suite_from_any_folder(installed)
    _check_installed_run_through_a_command_adapter(installed)
    _check_installed_skeletons_pass_smoke(installed)
    _check_installed_invariants_need_no_test_extra(installed)
    _check_installed_faults_run_the_shipped_seeded_faults(installed)
    _check_installed_pytest_plugin_runs_the_suite(installed)

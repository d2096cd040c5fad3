"""Checked scenario files and the checked clause catalogue kept in the parse cache: a load from the
cache gives exactly what a check gives and builds no model; an entry is never used once the file,
what its check reads (the catalogue, the normalisers) or the checking code has changed; a file
with an error is checked every time, so its errors keep their file and line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.corpus import cases, catalogue, scenario_checks, yamlcache
from conformance.judge import normalise
from conformance.corpus.cases import SCENARIOS_DIR, load_file, load_suite
from conformance.corpus.catalogue import load_catalogue
from tests.kit_fixtures import cache_document, mini_suite

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def checks(monkeypatch) -> list[str]:
    """The name of each scenario file checked by the models, in order."""
    seen: list[str] = []
    original = scenario_checks.check_file

    def counting(data, positions, shown, *args, **kwargs):
        seen.append(Path(shown).name)
        return original(data, positions, shown, *args, **kwargs)

    monkeypatch.setattr(scenario_checks, "check_file", counting)
    return seen


def _load(dirs):
    return load_suite(dirs["scenarios"], spec_dir=dirs["spec"])


@pytest.mark.untraced  # every file checked again: the loading tests measure it
def test_cases_from_the_cache_are_those_the_check_gives(cache, checks):
    cat = load_catalogue()
    known, editions = set(cat.clauses), {cid: c.editions for cid, c in cat.clauses.items()}
    paths = sorted(SCENARIOS_DIR.glob("*/*.yaml"))
    cold = [load_file(path, known_clauses=known, clause_editions=editions) for path in paths]
    assert len(checks) == len(paths) and not any(errors for _, errors in cold)
    checks.clear()
    warm = [load_file(path, known_clauses=known, clause_editions=editions) for path in paths]
    assert checks == [], "every file came from the cache"
    assert warm == cold
    loaded = [case for found, _ in warm for case in found]
    assert any(c.tree for c in loaded) and any(c.editions for c in loaded) and any(c.error_code for c in loaded)


def test_a_selection_checks_its_file_once_and_then_takes_it_from_the_cache(tmp_path, cache, checks):
    dirs = mini_suite(tmp_path)
    first = load_suite(dirs["scenarios"], spec_dir=dirs["spec"], patterns=["kit-echo-text"])
    assert [c.id for c in first.cases] == ["kit-echo-text"] and checks == ["echo.yaml"]
    again = load_suite(dirs["scenarios"], spec_dir=dirs["spec"], patterns=["kit-echo-text"])
    whole = _load(dirs)
    assert checks == ["echo.yaml"] and again.cases == first.cases
    assert [c.id for c in whole.cases] == ["kit-echo-text", "kit-echo-number", "kit-echo-refused"]


def test_a_changed_file_is_checked_again_and_its_errors_are_never_stored(tmp_path, cache, checks):
    dirs = mini_suite(tmp_path)
    path = dirs["scenarios"] / "kit" / "echo.yaml"
    good = path.read_text()
    assert _load(dirs).errors == []
    path.write_text(good.replace("title: a number comes back", "title: a number comes back again"))
    assert _load(dirs).cases[1].title == "a number comes back again"
    path.write_text(good.replace("clauses: [ENV-TEST-REFUSE]", "clauses: [ENV-TEST-GONE]"))
    for _ in range(2):
        suite = _load(dirs)
        (error,) = suite.errors
        assert (Path(error.file).name, error.line, error.field) == ("echo.yaml", 16, "cases[2].clauses[0]")
        assert "unknown clause 'ENV-TEST-GONE'" in error.message
        assert [c.id for c in suite.cases] == ["kit-echo-text", "kit-echo-number"]
    assert checks == ["echo.yaml"] * 4
    path.write_text(good)
    assert _load(dirs).errors == [] and checks == ["echo.yaml"] * 4, "the first entry is still good"


def test_a_changed_catalogue_is_seen_by_a_cached_file(tmp_path, cache, checks):
    dirs = mini_suite(tmp_path)
    assert _load(dirs).errors == []
    spec = dirs["spec"] / "test.yaml"
    spec.write_text(spec.read_text().replace("ENV-TEST-REFUSE", "ENV-TEST-REFUSAL"))
    (error,) = _load(dirs).errors
    assert "unknown clause 'ENV-TEST-REFUSE'" in error.message and checks == ["echo.yaml"] * 2


def test_a_normaliser_declared_while_running_is_part_of_the_key(tmp_path, cache, checks, monkeypatch):
    dirs = mini_suite(tmp_path)
    path = dirs["scenarios"] / "kit" / "echo.yaml"
    path.write_text(path.read_text().replace("input: {value: refuse}", "input: {value: refuse}\n"
                                                                        "    normalise: [kit.hide-value]"))
    monkeypatch.setitem(normalise._NORMALISERS, "kit.hide-value", lambda out: out)
    assert _load(dirs).errors == []
    monkeypatch.delitem(normalise._NORMALISERS, "kit.hide-value")
    (error,) = _load(dirs).errors
    assert error.message == "unknown normaliser 'kit.hide-value'" and checks == ["echo.yaml"] * 2


def test_other_checking_code_never_takes_the_entry(tmp_path, cache, checks, monkeypatch):
    dirs = mini_suite(tmp_path)
    _load(dirs)
    monkeypatch.setattr(cases, "checker_identity", lambda: "another version of the checking code")
    _load(dirs)
    assert checks == ["echo.yaml"] * 2


def _is_records(document) -> bool:
    return isinstance(document, list) and all(isinstance(r, dict) and "title" in r for r in document)


def test_a_damaged_entry_is_checked_again(tmp_path, cache, checks):
    dirs = mini_suite(tmp_path)
    before = _load(dirs).cases
    (entry,) = [p for p in cache.glob("*.json") if _is_records(cache_document(p))]
    yamlcache.put(entry.stem, json.dumps([{"id": "kit-echo-text"}]))  # its own key and digest, another shape
    assert _load(dirs).cases == before and checks == ["echo.yaml"] * 2


def _conformance_modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in sys.modules if m.startswith('conformance')))"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True, cwd=ROOT)
    return set(out.stdout.split())


def _files(modules: set[str]) -> set[str]:
    found = set()
    for module in modules:
        path = Path(*module.split(".")[1:])
        found.add(str(path / "__init__.py") if (ROOT / "conformance" / path).is_dir() else f"{path}.py")
    return found


# Modules the checks import that store or name things but decide nothing about what loads (a
# group's __init__ is its docstring only: tests/test_import_graph.py).
NOT_DECIDING = {"corpus/yamlcache.py", "output/files.py", "operations/index.py",
                "corpus/__init__.py", "judge/__init__.py", "output/__init__.py", "errors.py"}


def test_the_code_identity_names_every_module_the_checks_run():
    scenario = _conformance_modules_after("import conformance.corpus.scenario_checks as c, conformance.operations as o\n"
                                          "import conformance.corpus.cases\no.load_all()")
    named = {str(p.relative_to(ROOT / "conformance")) for name in cases.CHECKER_SOURCES
             for p in (ROOT / "conformance").glob(name)}
    assert _files(scenario) - NOT_DECIDING - {"corpus/catalogue.py"} <= named, "the clauses enter the key as data"
    clauses = _conformance_modules_after("import conformance.corpus.catalogue, conformance.corpus.catalogue_models")
    assert _files(clauses) - NOT_DECIDING <= set(catalogue.CHECKER_SOURCES)


def test_the_catalogue_from_the_cache_is_the_checked_one_and_follows_its_files(tmp_path, cache, monkeypatch):
    checked = load_catalogue()
    dirs = mini_suite(tmp_path)
    small = load_catalogue(dirs["spec"])
    with monkeypatch.context() as m:
        m.setattr(catalogue, "_checked", lambda *a: pytest.fail("checked although cached"))
        assert load_catalogue() == checked and load_catalogue(dirs["spec"]) == small
    spec = dirs["spec"] / "test.yaml"
    spec.write_text(spec.read_text().replace("Echo returns its value.", "Echo gives its value back."))
    assert load_catalogue(dirs["spec"]).clauses["ENV-TEST-ECHO"].statement == "Echo gives its value back."
    spec.write_text(spec.read_text().replace("level: MAY", "level: PERHAPS"))
    for _ in range(2):
        (error,) = load_catalogue(dirs["spec"]).errors
        assert (Path(error.file).name, error.line, error.field) == ("test.yaml", 13, "clauses[2].level")
    monkeypatch.setattr(catalogue, "_checker_identity", lambda: "another version of the checking code")
    with monkeypatch.context() as m:
        m.setattr(catalogue, "_checked", lambda *a: pytest.fail("checked"))
        with pytest.raises(pytest.fail.Exception):
            load_catalogue()


def test_show_and_list_from_a_warm_cache_import_no_model_library(tmp_path):
    env = {**os.environ, yamlcache.ENV: str(tmp_path / "cache")}
    probe = ("import contextlib, io, sys\nfrom conformance.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
             "    assert main(['show', 'env-payload-replace-both']) == 0\n"
             "    assert main(['list', '--area', 'profiles']) == 0\n"
             "assert 'env-payload-replace-both' in out.getvalue()\n"
             "print('pydantic' in sys.modules)")
    # The first run fills the cache with what the same commands read (checking it takes the models);
    # the second takes it all from the cache.
    runs = [subprocess.run([sys.executable, "-c", probe], check=True, env=env, cwd=ROOT, capture_output=True,
                           text=True).stdout.split() for _ in range(2)]
    assert runs == [["True"], ["False"]]

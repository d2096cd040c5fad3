"""The mutation harness (``benchmarks/mutmut_run.py``, ``tests/conftest.py``): what makes a
mutation figure mean what it says."""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _harness():
    spec = importlib.util.spec_from_file_location("mutmut_run", ROOT / "benchmarks" / "mutmut_run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_memoised_collation_table_is_forgotten_between_sessions():
    from reference.envelope import collation
    from reference.profiles.core import refs
    from tests.conftest import _forget_memoised

    collation.id_sort_key("a")
    refs.parse_ref("global:x", "project")
    table = collation._collator()
    _forget_memoised()
    assert collation._collator() is not table  # a forked mutant's session builds its own
    assert refs._parse_str_ref.cache_info().currsize == 0


def _run(root: Path, modules: dict[str, str], mutated: dict[str, dict]) -> Path:
    for name, code in modules.items():
        (root / "reference").mkdir(parents=True, exist_ok=True)
        (root / "reference" / name).write_text(code, encoding="utf-8")
    for name, verdicts in mutated.items():
        folder = root / "mutants" / "reference"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(modules[name], encoding="utf-8")
        (folder / f"{name}.meta").write_text(json.dumps({"exit_code_by_key": verdicts}), encoding="utf-8")
        (folder / f"{name}.spans").write_text("{}", encoding="utf-8")
    return root


def test_assemble_takes_unchanged_code_from_the_old_run_and_changed_code_from_the_new(tmp_path):
    harness = _harness()
    old = _run(tmp_path / "old", {"a.py": '"""Old words."""\ndef f():\n    """Old."""\n    return 1\n',
                                  "b.py": "def g():\n    return 1\n", "gone.py": "def h():\n    return 0\n"},
               {"a.py": {"reference.a.x_f__mutmut_1": 1}, "b.py": {"reference.b.x_g__mutmut_1": 0},
                "gone.py": {"reference.gone.x_h__mutmut_1": 0}})
    new = _run(tmp_path / "new", {"a.py": '"""New words."""\ndef f():\n    """New."""\n    return 1\n',
                                  "b.py": "def g():\n    return 2\n", "c.py": "def k():\n    return 3\n"},
               {"b.py": {"reference.b.x_g__mutmut_1": 1}, "c.py": {"reference.c.x_k__mutmut_1": 0}})
    result = harness.assemble(old, new, tmp_path / "assembled")
    assert result == {"from_old": ["reference/a.py"], "from_new": ["reference/b.py", "reference/c.py"],
                      "dropped": ["reference/gone.py"]}
    codes = harness.exit_codes(tmp_path / "assembled")
    assert codes == {"reference.a.x_f__mutmut_1": 1, "reference.b.x_g__mutmut_1": 1, "reference.c.x_k__mutmut_1": 0}
    assert (tmp_path / "assembled" / "reference" / "a.py").read_text(encoding="utf-8").startswith('"""New words')


def test_assemble_refuses_a_changed_module_the_new_run_did_not_mutate(tmp_path):
    harness = _harness()
    old = _run(tmp_path / "old", {"b.py": "def g():\n    return 1\n"}, {"b.py": {"reference.b.x_g__mutmut_1": 0}})
    new = _run(tmp_path / "new", {"b.py": "def g():\n    return 2\n"}, {})
    with pytest.raises(SystemExit, match="did not mutate it"):
        harness.assemble(old, new, tmp_path / "assembled")


def test_only_failures_and_time_outs_count_as_kills(tmp_path, monkeypatch):
    harness = _harness()
    assert 1 in harness.KILLED and 36 in harness.KILLED
    assert not {0, 5, 33, 34, None} & harness.KILLED
    assert {5, 33} == harness.NO_TESTS
    # a re-judge whose verdicts are already recorded: a time-out is a kill, "no tests" is not
    source = _run(tmp_path / "source", {"a.py": "def f():\n    return 1\n"},
                  {"a.py": {"reference.a.x_f__mutmut_1": 0, "reference.a.x_f__mutmut_2": 0}})
    workdir = tmp_path / "work"
    shutil.copytree(source / "reference", workdir / "reference")
    (workdir / "rejudged.json").write_text(json.dumps({"reference.a.x_f__mutmut_1": 36,
                                                       "reference.a.x_f__mutmut_2": 33}), encoding="utf-8")
    monkeypatch.setattr(harness.subprocess, "run", lambda *a, **k: pytest.fail("nothing is left to judge"))
    assert harness.rejudge(source, workdir, "python", 1) == {"rejudged": 2, "now_killed": 1, "not_judged_in_source": 0}

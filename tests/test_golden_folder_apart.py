"""Goldens are written only into a folder kept apart from the scenario folder: under
``run --update-goldens`` and ``pytest --snapshot-update`` a golden folder that is the scenario
folder, lies inside it or holds it is a usage error (exit 2) that writes nothing."""

from __future__ import annotations

import shutil

import pytest

from conformance.cli import main
from tests.kit_fixtures import mini_suite


def _layout(tmp_path, relation: str) -> dict:
    """A mini suite whose golden folder stands in ``relation`` to its scenario folder."""
    dirs = mini_suite(tmp_path / "s", goldens=False)
    if relation == "same":
        gold = dirs["scenarios"]
    elif relation == "inside":
        gold = dirs["scenarios"] / "goldens"
    elif relation == "holding":
        gold = tmp_path / "s"
    else:  # a link to the scenario folder, resolved
        gold = tmp_path / "linked"
        gold.symlink_to(dirs["scenarios"], target_is_directory=True)
    gold.mkdir(parents=True, exist_ok=True)
    return {**dirs, "golden": gold}


def _files(root) -> set:
    return {p for p in root.rglob("*")}


@pytest.mark.parametrize("relation", ["same", "inside", "holding", "link"])
def test_update_goldens_refuses_a_golden_folder_not_apart_from_the_scenarios(tmp_path, capsys, relation):
    dirs = _layout(tmp_path, relation)
    before = _files(tmp_path)
    code = main(["run", "--update-goldens", "--scenarios-dir", str(dirs["scenarios"]),
                 "--spec-dir", str(dirs["spec"]), "--golden-dir", str(dirs["golden"])])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    lines = [line for line in err.splitlines() if "the scenario folder" in line]
    assert len(lines) == 1 and str(dirs["scenarios"].resolve()) in lines[0] and "--golden-dir" in lines[0], err
    assert _files(tmp_path) == before  # nothing written


def test_update_goldens_into_a_folder_beside_the_scenarios_still_writes(tmp_path, capsys):
    dirs = mini_suite(tmp_path, goldens=False)
    code = main(["run", "--update-goldens", "--scenarios-dir", str(dirs["scenarios"]),
                 "--spec-dir", str(dirs["spec"]), "--golden-dir", str(dirs["golden"])])
    out, err = capsys.readouterr()
    assert code != 2 and "the scenario folder" not in err, out + err  # a case of the mini suite fails
    assert (dirs["golden"] / "kit" / "kit-echo-number.yaml").is_file()


pytest_plugins = ["pytester"]


def test_snapshot_update_refuses_a_golden_folder_that_is_the_scenarios(kit_imported, pytester, monkeypatch, capsys):
    from pathlib import Path

    from conformance import plugin

    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parent.parent))
    root = pytester.path / "mini"
    mini_suite(root, goldens=False)
    shutil.rmtree(root / "golden")
    (root / "golden").symlink_to(root / "scenarios", target_is_directory=True)
    pytester.makepyfile(test_conf="from conformance.suite import test_case\n")
    before = _files(root / "scenarios")
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugin, "_STATE", {})
        code = pytest.main(["--conformance-dirs", str(root), "-p", "no:cacheprovider", "-p", "no:xdist",
                            "-p", "no:hypothesispytest", "--snapshot-update", str(pytester.path / "test_conf.py")])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert "the scenario folder" in out + err
    assert _files(root / "scenarios") == before


def _subset_of_the_kit(tmp_path):
    """A scenario folder of one of the kit's own files (its cases' goldens are the kit's), and
    one of a case of the user's own, in the kit's format."""
    from conformance.corpus.cases import SCENARIOS_DIR

    subset = tmp_path / "subset"
    (subset / "pi").mkdir(parents=True)
    shutil.copy(SCENARIOS_DIR / "pi" / "messages-types.yaml", subset / "pi")
    return subset


def test_update_goldens_of_other_scenarios_into_the_kit_s_goldens_is_refused(tmp_path, capsys):
    """Without --golden-dir the goldens are the kit's: writing there the goldens of another
    scenario folder would put files of the user's among the kit's. One usage error, nothing written."""
    from conformance.judge.golden import GOLDEN_DIR

    subset = _subset_of_the_kit(tmp_path)
    before = sorted(p.name for p in (GOLDEN_DIR / "pi").iterdir())
    code = main(["run", "-q", "--update-goldens", "--scenarios-dir", str(subset)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("--golden-dir") == 1 and "the kit's own goldens" in err, err
    assert sorted(p.name for p in (GOLDEN_DIR / "pi").iterdir()) == before


def test_a_subset_of_the_kit_s_scenarios_runs_against_its_goldens_without_orphans(tmp_path, capsys):
    """The kit's goldens of cases not in the scenario folder given are not orphans: they belong to
    the kit's own scenarios (they were reported one by one, with advice to delete them)."""
    subset = _subset_of_the_kit(tmp_path)
    code = main(["run", "-q", "--scenarios-dir", str(subset)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "orphan" not in err and "delete it" not in err, err[:2000]

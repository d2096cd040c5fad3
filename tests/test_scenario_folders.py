"""A scenario folder given with ``--scenarios-dir`` is read as a user would lay it out: an area's
folder may be a link to a folder, and a folder that holds no case is a usage error, not a green run
of nothing."""

from __future__ import annotations

import shutil

from conformance.cli import main
from conformance.corpus.cases import SCENARIOS_DIR


def test_a_folder_of_no_scenarios_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "golden").mkdir()
    code = main(["run", "-q", "--scenarios-dir", str(tmp_path / "scenarios"), "--golden-dir", str(tmp_path / "golden")])
    err = capsys.readouterr().err
    assert code == 2 and f"no case in {tmp_path / 'scenarios'}" in err and "<area>/<topic>.yaml" in err, err


def _linked(tmp_path, *areas):
    """A scenario folder whose ``areas`` are links to one folder outside it, of one kit file."""
    real = tmp_path / "elsewhere" / "pi"
    real.mkdir(parents=True)
    shutil.copy(SCENARIOS_DIR / "pi" / "messages-types.yaml", real)
    (tmp_path / "scenarios").mkdir()
    for area in areas:
        (tmp_path / "scenarios" / area).symlink_to(real, target_is_directory=True)


def test_an_area_folder_that_is_a_link_is_read_through_it(tmp_path, capsys):
    _linked(tmp_path, "pi")
    code = main(["run", "--scenarios-dir", str(tmp_path / "scenarios")])
    out, err = capsys.readouterr()
    total = next(line for line in out.splitlines() if line.startswith("total"))
    assert code == 0 and int(total.split()[1]) > 0, out + err


def test_two_area_links_to_one_folder_read_it_once(tmp_path, capsys):
    _linked(tmp_path, "pi", "envelope")
    code = main(["run", "-q", "--scenarios-dir", str(tmp_path / "scenarios")])
    err = capsys.readouterr().err
    assert code == 2 and "a file is read once" in err and "duplicate" not in err, err

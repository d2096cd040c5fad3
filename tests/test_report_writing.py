"""A report, page or scenario is written to the file a person named without destroying what the
name stands for (:func:`conformance.output.files.write_text`): a link is followed and kept, a device,
FIFO or ``/dev/stdout`` is written in place, a regular file is replaced atomically; and a relative
path names the file it named when the command was given, whatever folder an implementation run in
process moves to."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.output.files import write_text
from tests.kit_fixtures import Instructions

CASE = ["--case", "env-instr-custom-alone", "-q"]


def test_a_regular_file_is_replaced_whole_and_no_temporary_file_stays(tmp_path):
    path = tmp_path / "r.json"
    path.write_text("old")
    write_text(path, "new")
    assert path.read_text() == "new" and sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_a_link_is_followed_and_kept(tmp_path):
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("{}")
    link.symlink_to("target.json")
    write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == "target.json"
    assert target.read_text() == "new"


def test_a_dangling_link_makes_the_file_it_names(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "sub" / "made.json")
    write_text(link, "new")
    assert link.is_symlink() and (tmp_path / "sub" / "made.json").read_text() == "new"


def _fifo_reader(path: Path) -> tuple[threading.Thread, list[bytes]]:
    got: list[bytes] = []

    def read() -> None:
        with open(path, "rb") as fh:
            got.append(fh.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader, got


def test_a_fifo_is_written_to_its_reader(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader, got = _fifo_reader(fifo)
    write_text(fifo, "through the pipe\n")
    reader.join(5)
    assert got == [b"through the pipe\n"] and fifo.exists() and not fifo.is_file()


def test_a_link_to_an_open_stream_of_the_process_is_written_to_that_stream(tmp_path):
    # /dev/stdout is such a link (to /proc/self/fd/1); one of the test's own stands in for it
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)  # a failure reads nothing rather than waiting for ever
    try:
        link = tmp_path / "stdout"
        link.symlink_to(f"/proc/self/fd/{write_end}")
        write_text(link, "shown\n")
        try:
            got = os.read(read_end, 100)
        except BlockingIOError:
            got = b""
        assert got == b"shown\n" and link.is_symlink()
    finally:
        os.close(read_end)
        os.close(write_end)


def test_a_link_to_an_open_stream_that_is_a_file_appends_to_it(tmp_path):
    # `pi-conformance run --report-md /dev/stdout > out.md`: the report follows what was printed
    out = tmp_path / "out.md"
    with open(out, "w") as fh:
        fh.write("console\n")
        fh.flush()
        link = tmp_path / "stdout"
        link.symlink_to(f"/proc/self/fd/{fh.fileno()}")
        write_text(link, "report\n")
        inode = os.fstat(fh.fileno()).st_ino
    assert out.read_text() == "console\nreport\n" and out.stat().st_ino == inode


def _device(tmp_path: Path) -> Path:
    """A character device like /dev/null of the test's own (``mknod`` needs the privilege)."""
    path = tmp_path / "mynull"
    try:
        os.mknod(path, 0o666 | 0o020000, os.makedev(1, 3))
    except PermissionError:
        if os.environ.get("CI"):  # CI runs as root: a device it cannot make is a broken machine
            raise
        pytest.skip("making a device needs privileges (root); under CI=true this fails instead")
    return path


@pytest.mark.parametrize("flag", ["--report-json", "--junit", "--report-md", "--report-html"])
def test_run_writes_a_device_in_place_and_keeps_it_a_device(flag, tmp_path):
    device = _device(tmp_path)
    assert main(["run", *CASE, flag, str(device)]) == 0
    assert device.is_char_device()


def test_run_reports_through_a_link_and_a_fifo(tmp_path):
    target, link, fifo = tmp_path / "target.json", tmp_path / "link.json", tmp_path / "fifo"
    target.write_text("")  # empty: a file the kit may replace
    link.symlink_to("target.json")
    os.mkfifo(fifo)
    reader, got = _fifo_reader(fifo)
    assert main(["run", *CASE, "--report-json", str(link), "--report-md", str(fifo)]) == 0
    reader.join(5)
    assert link.is_symlink() and json.loads(target.read_text())["summary"]["envelope"]["passed"] == 1
    assert got and got[0].startswith(b"# Conformance report")


@pytest.mark.parametrize("argv", [["faults", "--fault", "tpl-trust", "-q"],
                                  ["invariants", "--examples", "1", "--invariant", "inv-env-environment-last"]])
def test_faults_and_invariants_follow_a_link_too(argv, tmp_path, capsys):
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("")  # empty: a file the kit may replace
    link.symlink_to("target.json")
    main([*argv, "--report-json", str(link)])
    assert link.is_symlink() and json.loads(target.read_text())


WANDER: list[Path] = []
"""Where :class:`Wanderer` moves the process (set by the test)."""


class Wanderer(Instructions):
    """Answers env-instr-custom-alone right after moving the process to another folder."""

    name = "wanderer"
    text = "You are a reviewer."

    def run(self, op: str, input: dict, root: str | None) -> dict:
        os.chdir(WANDER[0])
        return super().run(op, input, root)


def test_a_relative_report_path_is_the_one_given_whatever_folder_the_implementation_moves_to(tmp_path, monkeypatch):
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    monkeypatch.setattr(f"{__name__}.WANDER", [elsewhere])
    monkeypatch.chdir(here)
    argv = ["run", *CASE, "--adapter", f"python:{__name__}:Wanderer"]
    assert main([*argv, "--report-json", "r.json", "--report-md", "sub/r.md"]) == 0
    assert (here / "r.json").is_file() and (here / "sub" / "r.md").is_file()
    assert list(elsewhere.iterdir()) == []


def test_a_relative_golden_folder_is_the_one_given_whatever_folder_the_implementation_moves_to(tmp_path, monkeypatch):
    import shutil

    from conformance.judge.golden import GOLDEN_DIR

    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    (here / "g" / "envelope").mkdir(parents=True)
    elsewhere.mkdir()
    shutil.copy(GOLDEN_DIR / "envelope" / "env-instr-custom-alone.yaml", here / "g" / "envelope")
    monkeypatch.setattr(f"{__name__}.WANDER", [elsewhere])
    monkeypatch.chdir(here)
    assert main(["run", *CASE, "--adapter", f"python:{__name__}:Wanderer", "--golden-dir", "g"]) == 0


def test_a_relative_expectations_file_is_read_for_the_html_report_after_the_implementation_moves(tmp_path, monkeypatch):
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    (here / "exp.yaml").write_text("expectations:\n  - id: env-payload-replace-both\n    status: skip\n"
                                   "    reason: a reason only this file gives\n")
    monkeypatch.setattr(f"{__name__}.WANDER", [elsewhere])
    monkeypatch.chdir(here)
    assert main(["run", *CASE, "--adapter", f"python:{__name__}:Wanderer", "--expectations", "exp.yaml",
                 "--report-html", "r.html", "--report-json", "r.json"]) == 0
    assert "a reason only this file gives" in (here / "r.html").read_text()
    assert json.loads((here / "r.json").read_text())["header"]["expectations"] == str(here / "exp.yaml")


def test_a_dash_names_the_way_to_print_a_report(capsys):
    assert main(["run", *CASE, "--report-md", "-"]) == 2
    assert "or /dev/stdout for the report after the console's text" in capsys.readouterr().err


@pytest.mark.parametrize("argv, name", [(["schema"], "golden.schema.json"), (["docs", "--format", "md"], "index.md")])
def test_schema_and_docs_follow_a_link_among_the_files_they_write(argv, name, tmp_path, capsys):
    out, target = tmp_path / "out", tmp_path / "kept" / name
    out.mkdir()
    target.parent.mkdir()
    target.write_text("# The specification by example\nold")  # docs writes over its own pages only
    if argv[0] == "schema":  # and schema over the schemas it listed there
        assert main([*argv, "--out", str(out)]) == 0
        (out / name).unlink()
    (out / name).symlink_to(target)
    assert main([*argv, "--out", str(out)]) == 0
    assert (out / name).is_symlink() and not target.read_text().endswith("old")

"""Report paths are checked before any work (:mod:`conformance.output.report_paths`): a report never
replaces a file the kit reads, and a path that cannot be written is a usage error, not a
traceback after minutes of work."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.output.report_paths import check_report_paths, kit_folders

ROOT = Path(__file__).resolve().parent.parent
KIT_FILES = ["conformance/scenarios/envelope/adapters.yaml", "conformance/spec/envelope.yaml",
             "golden/envelope/env-payload-replace-both.yaml", "reference/__init__.py"]


@pytest.mark.parametrize("kit_file", KIT_FILES)
@pytest.mark.parametrize("argv", [
    ["run", "-q", "--case", "env-payload-replace-both", "--report-json"],
    ["run", "-q", "--case", "env-payload-replace-both", "--report-md"],
    ["invariants", "--examples", "1", "--report-json"],
    ["faults", "--fault", "tpl-trust", "--report-json"],
])
def test_a_report_over_a_file_of_the_kit_is_refused_and_the_file_kept(argv, kit_file, capsys):
    before = (ROOT / kit_file).read_bytes()
    assert main([*argv, str(ROOT / kit_file)]) == 2
    err = capsys.readouterr().err
    assert "holds the kit's own files" in err and "passed" not in err
    assert (ROOT / kit_file).read_bytes() == before


def test_a_report_over_a_seeded_fault_module_is_refused(capsys):
    unproven = ROOT / "conformance" / "faults" / "seeded" / "unproven.txt"
    before = unproven.read_bytes()
    assert main(["faults", "--fault", "tpl-trust", "--report-json", str(unproven)]) == 2
    assert "holds the kit's own files" in capsys.readouterr().err
    assert unproven.read_bytes() == before


@pytest.mark.parametrize("argv", [["invariants", "--examples", "1"], ["faults", "--fault", "tpl-trust"]])
@pytest.mark.parametrize("where, message", [("folder", "is a directory"), ("under-a-file", "cannot write in")])
def test_a_report_path_that_cannot_be_written_is_refused_before_the_work(argv, where, message, tmp_path, capsys):
    (tmp_path / "a-file").write_text("kept")
    path = tmp_path if where == "folder" else tmp_path / "a-file" / "report.json"
    assert main([*argv, "--report-json", str(path)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.out == ""  # refused before any invariant or fault ran


def test_checking_a_report_path_makes_no_folder(tmp_path):
    """The check probes the deepest folder that exists; the missing ones are made when the report
    is written (:func:`test_every_writer_makes_the_missing_folders_of_its_path`)."""
    paths = check_report_paths([("--report-json", str(tmp_path / "new" / "deeper" / "r.json"))])
    assert paths["--report-json"] == tmp_path / "new" / "deeper" / "r.json"
    assert list(tmp_path.iterdir()) == []


REFUSED = {
    "an adapter that cannot start": ["run", "-q", "--adapter", "python:no_such_module_here:X"],
    "no case matching": ["run", "-q", "--case", "no-such-case"],
    "no operation matching": ["run", "-q", "--op", "no.such-op"],
    "a scenario folder that is not one": ["run", "-q", "--scenarios-dir", "no-such-folder"],
    "no fault matching": ["faults", "--fault", "no-such-fault"],
}


RUN_REPORTS = ("--report-json", "--report-md", "--report-html", "--junit")


@pytest.mark.parametrize("refusal, option", [(r, o) for r in sorted(REFUSED)
                                             for o in (RUN_REPORTS if REFUSED[r][0] == "run" else ("--report-json",))])
def test_a_refused_command_makes_no_report_folder(tmp_path, monkeypatch, capsys, refusal, option):
    """A command refused after its report paths were checked leaves the file system as it was:
    the report's missing folders are made only when the report is written (``faults`` writes only
    ``--report-json``)."""
    argv = REFUSED[refusal]
    monkeypatch.chdir(tmp_path)
    code = main([*argv, option, "new/deeper/report.out"])
    err = capsys.readouterr().err
    assert code in (2, 3) and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == [], f"{refusal} left {sorted(p.name for p in tmp_path.iterdir())}"


def test_the_kit_folders_are_the_packages_and_goldens_and_the_suite_given(tmp_path):
    folders = kit_folders(tmp_path / "scenarios", None)
    assert ROOT / "conformance" in folders and ROOT / "reference" in folders and ROOT / "golden" in folders
    assert tmp_path / "scenarios" in folders and len(folders) == 4


KIT_FOLDERS = ["conformance", "reference", "golden", "golden/envelope", "conformance/spec",
               "conformance/scenarios/pi", "conformance/schema/operations"]


@pytest.fixture
def no_writes(monkeypatch):
    """The writers of `docs` and `schema` replaced by a record of their calls, so that a command
    that fails to refuse a folder of the kit shows it without writing there."""
    calls = []
    monkeypatch.setattr("conformance.output.docs.write", lambda out, *a, **k: calls.append(out) or [])
    monkeypatch.setattr("conformance.output.schema.write_schemas", lambda out: calls.append(out) or [])
    return calls


@pytest.mark.parametrize("folder", KIT_FOLDERS)
@pytest.mark.parametrize("command", ["docs", "schema"])
def test_pages_and_schemas_into_a_folder_of_the_kit_are_refused(command, folder, no_writes, capsys, monkeypatch):
    # `schema --out conformance` removed every JSON file below it that no model produces
    # (the Node adapter's package.json among them); `docs --out golden` wrote its pages there.
    monkeypatch.chdir(ROOT)
    assert main([command, "--out", folder]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pi-conformance: --out {folder}: is ") and "holds the kit's own files" in err
    assert no_writes == []


def test_docs_into_the_suite_folders_given_is_refused_and_writes_nothing(tmp_path, capsys):
    scenarios, goldens = tmp_path / "scenarios", tmp_path / "goldens"
    (scenarios / "envelope").mkdir(parents=True)
    goldens.mkdir()
    for out in (scenarios / "envelope", goldens):
        assert main(["docs", "--format", "md", "--scenarios-dir", str(scenarios), "--golden-dir", str(goldens),
                     "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert f"--out {out}: is " in err and "holds the kit's own files" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["envelope", "goldens", "scenarios"]


@pytest.mark.parametrize("given", ["conformance/schema", "conformance/schema/", "./conformance/../conformance/schema"])
def test_schema_out_the_kit_s_own_schema_folder_is_how_they_are_regenerated(given, no_writes, capsys, monkeypatch):
    from conformance.commands.schema import SCHEMA_DIR

    monkeypatch.chdir(ROOT)
    assert main(["schema", "--out", given]) == 0
    assert [p.resolve() for p in no_writes] == [SCHEMA_DIR] and "wrote 0 schema file(s)" in capsys.readouterr().out


def test_schema_out_a_folder_of_other_json_files_keeps_them(tmp_path, capsys):
    kept = {"package.json": "{}\n", "data/x.json": "[]\n", "operations/notes.json": "{}\n"}
    for rel, text in kept.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert main(["schema", "--out", str(tmp_path)]) == 0
    (tmp_path / "retired.schema.json").write_text("{}\n")  # as if written by an earlier release
    (tmp_path / "operations" / "retired.op.input.json").write_text("{}\n")
    listed = tmp_path / ".pi-conformance-schemas"
    listed.write_text(listed.read_text() + "retired.schema.json\noperations/retired.op.input.json\n"
                      "operations/retired.op.output.json\n")
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert {rel: (tmp_path / rel).read_text() for rel in kept} == kept
    assert not (tmp_path / "retired.schema.json").exists()
    assert not (tmp_path / "operations" / "retired.op.input.json").exists()
    assert main(["schema", "--check", "--out", str(tmp_path)]) == 0
    listed.write_text(listed.read_text() + "operations/retired.op.output.json\n")
    (tmp_path / "operations" / "retired.op.output.json").write_text("{}\n")
    assert main(["schema", "--check", "--out", str(tmp_path)]) == 1
    assert "operations/retired.op.output.json is out of date" in capsys.readouterr().err


@pytest.mark.parametrize("error, said", [
    ("ENOENT", "takes no new files (the system provides the files of such a folder, as of /proc)"),
    ("EROFS", "is on a read-only file system"),
    ("EACCES", "no permission to create files in"),
])
def test_a_folder_that_takes_no_file_is_refused_saying_why(tmp_path, monkeypatch, error, said):
    """/proc answers "No such file or directory" for a file created in a folder that exists; the
    refusal says what is wrong instead."""
    import errno
    import os
    import tempfile

    def refuse(*args, **kwargs):
        code = getattr(errno, error)
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(ValueError) as refused:
        check_report_paths([("--report-json", str(tmp_path / "r.json"))])
    assert str(refused.value) == f"--report-json {tmp_path / 'r.json'}: cannot write there: " + (
        f"{tmp_path} {said}; give a path on an ordinary file system" if error == "ENOENT"
        else f"{said} {tmp_path}" if error == "EACCES" else f"{tmp_path} {said}")


@pytest.mark.skipif(not Path("/proc/self").is_dir() and not os.environ.get("CI"),
                    reason="the system has no /proc (not Linux); under CI=true this fails instead")
def test_a_report_under_proc_is_refused_without_a_misleading_reason(capsys):
    assert main(["invariants", "--examples", "1", "--report-json", "/proc/x.json"]) == 2
    err = capsys.readouterr().err
    assert "--report-json /proc/x.json: cannot" in err and "No such file or directory" not in err


@pytest.mark.parametrize("folder", ["conformance/spec", "golden", "conformance/scenarios/envelope", "reference"])
def test_diff_out_into_a_folder_of_the_kit_is_refused_before_any_search(folder, capsys, monkeypatch):
    # a disagreement written as conformance/spec/diff-*.yaml broke every later command (not a
    # clause file), and one in golden/ was never reported
    monkeypatch.chdir(ROOT)
    before = sorted(p.name for p in (ROOT / folder).iterdir())
    assert main(["diff", "--adapter", "reference", "--adapter", "reference", "--op", "envelope.instructions",
                 "--examples", "1", "--out", folder]) == 2
    err = capsys.readouterr().err
    assert f"--out {folder}: is " in err and "holds the kit's own files" in err
    assert sorted(p.name for p in (ROOT / folder).iterdir()) == before


def test_a_loop_of_links_or_a_name_too_long_is_refused_before_the_run(tmp_path, capsys, monkeypatch):
    # both were a traceback (RuntimeError: Symlink loop; OSError: File name too long), exit 1
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    for path, said in (("loop1", "a loop of symbolic links"), ("a" * 300 + ".json", "File name too long"),
                       ("b" * 300 + "/r.json", "File name too long")):
        assert main(["run", "-q", "--case", "env-instr-custom-alone", "--report-json", path]) == 2
        assert f"--report-json {path}: cannot write there: {said}" in capsys.readouterr().err
    assert main(["docs", "--out", "loop1"]) == 2
    assert "--out loop1: a loop of symbolic links" in capsys.readouterr().err


@pytest.mark.parametrize("argv, made", [
    (["run", "-q", "--case", "env-payload-replace-both", "--report-json"], "r"),
    (["run", "-q", "--case", "env-payload-replace-both", "--junit"], "r"),
    (["run", "-q", "--case", "env-payload-replace-both", "--report-md"], "r"),
    (["run", "-q", "--case", "env-payload-replace-both", "--report-html"], "r"),
    (["invariants", "--examples", "1", "--report-json"], "r"),
    (["faults", "--fault", "tpl-trust", "--report-json"], "r"),
    (["skeleton", "--lang", "js", "--out"], "r"),
    (["docs", "--format", "md", "--out"], "d"),
    (["docs", "--out"], "d"),
    (["schema", "--out"], "d"),
])
def test_every_writer_makes_the_missing_folders_of_its_path(tmp_path, argv, made, capsys):
    """docs/running.md, "Report paths": a report's missing parent folders are made, by every
    command that writes one (``skeleton --out`` refused with the system's bare message)."""
    target = tmp_path / "new" / "deeper" / "out"
    code = main([*argv, str(target)])
    assert code in (0, 1), capsys.readouterr().err
    assert target.is_file() if made == "r" else target.is_dir()


@pytest.mark.parametrize("argv", [
    ["diff", "--adapter", "python:no_such_module_here:X", "--adapter", "reference", "--examples", "1"],
    ["history", "--adapter", "python:no_such_module_here:X", "--adapter", "reference"],
])
def test_a_refused_command_makes_no_out_folder(tmp_path, monkeypatch, capsys, argv):
    """``--out`` is checked before the work and made only when something is written into it."""
    monkeypatch.chdir(tmp_path)
    code = main([*argv, "--out", "new/deeper/out"])
    err = capsys.readouterr().err
    assert code == 3 and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == [], sorted(p.name for p in tmp_path.iterdir())

"""Unit tests of the profiles host edge (disk, config edits, session) and of the operations."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conformance.adapters.reference import ReferenceImplementation
from reference.errors import SpecError
from reference.profiles.core.types import Model
from reference.profiles.host import disk
from reference.profiles.host.session import SELECTION_ENTRY_TYPE, Session, StateCache, is_subagent_child


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path / "a/system-prompts/profiles/base.md", "Base.\n")
    write(tmp_path / "a/system-prompts/profiles/review.md", "Review.\n")
    write(tmp_path / "a/system-prompts/config.json", '{"version": 1, "defaultProfile": "base"}\n')
    (tmp_path / "p").mkdir()
    return tmp_path


def session(tree: Path, **kw) -> Session:
    return Session(StateCache(tree / "a"), tree / kw.pop("cwd", "p"), kw.pop("trusted", False), Model("openai", "gpt-4o"), **kw)


# -- disk -----------------------------------------------------------------------------------------
def test_classify_links(tmp_path: Path) -> None:
    prof = tmp_path / "profiles"
    write(prof / "base.md", "x")
    write(tmp_path / "secret.md", "SECRET")
    (prof / "sub").mkdir()
    (prof / "in.md").symlink_to("base.md")
    (prof / "out.md").symlink_to("../secret.md")
    (prof / "gone.md").symlink_to("nothing.md")
    (prof / "dir.md").symlink_to("sub")
    (prof / "loop.md").symlink_to("loop.md")
    kinds = {n: disk.classify(prof, n).kind for n in ["base.md", "in.md", "out.md", "gone.md", "dir.md", "loop.md"]}
    assert kinds == {"base.md": "file", "in.md": "file", "out.md": "link-outside", "gone.md": "link-dangling",
                     "dir.md": "link-dir", "loop.md": "link-dangling"}
    assert disk.classify(prof, "out.md").data is None  # never read


def test_untrusted_project_is_never_listed(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tree / "p/.pi/system-prompts/profiles/local.md", "L")
    seen: list[str] = []
    real = os.listdir
    monkeypatch.setattr(disk.os, "listdir", lambda p: seen.append(str(p)) or real(p))
    state = disk.load_state(tree / "a", tree / "p", trusted=False)
    assert state.project is None and not any("/p/" in s for s in seen)


def test_atomic_write_keeps_old_file_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = write(tmp_path / "config.json", "old")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(disk.os, "replace", boom)
    with pytest.raises(OSError):
        disk.atomic_write(target, b"new")
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["config.json"]


def test_atomic_write_renames_a_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "config.json"
    calls: list[tuple[str, str]] = []
    real = os.replace
    monkeypatch.setattr(disk.os, "replace", lambda s, d: calls.append((str(s), str(d))) or real(s, d))
    disk.atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert len(calls) == 1 and Path(calls[0][0]).parent == tmp_path and calls[0][1] == str(target)


def test_edit_refuses_a_changed_file(tmp_path: Path) -> None:
    path = write(tmp_path / "config.json", '{"version": 1}')
    edit = disk.begin_edit(path, "global")
    write(path, '{"version": 1, "x": 1}')
    with pytest.raises(SpecError) as exc:
        disk.commit_edit(edit, {"version": 1, "subagents": "off"})
    assert exc.value.code == "config-changed" and path.read_text() == '{"version": 1, "x": 1}'


def test_edit_refuses_other_versions(tmp_path: Path) -> None:
    path = write(tmp_path / "config.json", '{"version": 1.5}')
    with pytest.raises(SpecError) as exc:
        disk.begin_edit(path, "global")
    assert exc.value.code == "config-edit-version"


# -- session --------------------------------------------------------------------------------------
def test_subagent_detection_is_exact() -> None:
    assert is_subagent_child({"PI_SUBAGENT_CHILD": "1"})
    assert not is_subagent_child({"PI_SUBAGENT_CHILD": "true"}) and not is_subagent_child({})


def test_selection_entry_and_branch_restore(tree: Path) -> None:
    s = session(tree)
    root = s.append("message")
    s.select("manual", "review")
    s.navigate(root.id)
    assert s.selection is None
    s.select("off")
    other = s.leaf
    s.navigate("e2")
    assert s.selection is not None and s.selection.profile == "global:review"
    assert s.entries["e2"].customType == SELECTION_ENTRY_TYPE and s.entries["e2"].data == {"mode": "manual", "profile": "global:review"}
    s.navigate(other)
    assert s.selection is not None and s.selection.mode == "off"


def test_failed_selection_keeps_previous(tree: Path) -> None:
    s = session(tree)
    s.select("manual", "review")
    with pytest.raises(SpecError):
        s.select("manual", "ghost")
    assert s.selection is not None and s.selection.profile == "global:review" and len(s.entries) == 1


def test_cache_is_per_cwd_and_cleared_by_reload(tree: Path) -> None:
    for name, body in (("p1", "One"), ("p2", "Two")):
        write(tree / name / ".pi/system-prompts/profiles/local.md", body)
        write(tree / name / ".pi/system-prompts/config.json", '{"version": 1, "defaultProfile": "local"}')
    s = session(tree, cwd="p1", trusted=True)
    assert s.agent_start("")[0].composition.block.endswith("One\n\n<!-- system-instructions:end -->")  # type: ignore[union-attr]
    s.cwd = tree / "p2"
    assert "Two" in s.agent_start("")[0].composition.system_prompt  # type: ignore[union-attr,operator]
    write(tree / "p2/.pi/system-prompts/profiles/local.md", "Changed")
    assert "Two" in s.agent_start("")[0].composition.system_prompt  # type: ignore[union-attr,operator]
    s.cache.clear()
    assert "Changed" in s.agent_start("")[0].composition.system_prompt  # type: ignore[union-attr,operator]


def test_hook_failure_is_reported_and_returns_no_prompt(tree: Path) -> None:
    def broken(*args):
        raise PermissionError("denied")

    s = Session(StateCache(tree / "a", loader=broken), tree / "p", False, Model("openai", "gpt-4o"))
    composed, failure = s.agent_start("You are Pi.")
    assert composed is None and failure is not None and failure.code == "hook-failed"


def test_provider_request_returns_the_same_payload(tree: Path) -> None:
    s = session(tree)
    s.agent_start("You are Pi.")
    payload = {"system": s.composed.composition.system_prompt, "messages": []}  # type: ignore[union-attr]
    obs, out = s.provider_request(payload)
    assert out is payload and obs.block_present and obs.matches_composed


def test_config_write_applies_baseline_only_without_pin(tree: Path) -> None:
    s = session(tree)
    s.begin_change("global", "set", "selection", "off")
    assert s.commit_change()["pending"] == {"mode": "off", "source": "global"}
    s.select("manual", "review")
    s.begin_change("global", "set", "selection", "auto")
    assert s.commit_change()["pending"]["source"] == "session"


# -- operations -----------------------------------------------------------------------------------
def test_reference_refuses_paths_leaving_the_tree(tmp_path: Path) -> None:
    impl = ReferenceImplementation()
    from conformance.adapters.base import ImplementationError

    with pytest.raises(ImplementationError) as exc:
        impl.run("profiles.load", {"agentDir": "../x", "cwd": "p"}, str(tmp_path))
    assert exc.value.code == "input-path-outside-tree"


def test_special_file_is_unreadable_not_a_crash(tmp_path: Path) -> None:
    prof = tmp_path / "a/system-prompts/profiles"
    prof.mkdir(parents=True)
    os.mkfifo(prof / "pipe.md")
    state = disk.load_state(tmp_path / "a", tmp_path / "p", trusted=False)
    assert state.global_.profiles == {} and [d.code for d in state.global_.diagnostics] == ["profile-unreadable"]


def test_unlistable_profiles_dir_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A profiles/ folder that cannot be listed (no permission) is profiles-dir, and the scope's
    config is still read (PROF-LOAD-DIR)."""
    write(tmp_path / "a/system-prompts/profiles/base.md", "Base.\n")
    write(tmp_path / "a/system-prompts/config.json", '{"version": 1, "defaultProfile": "base"}\n')
    real_listdir = os.listdir

    def listdir(path):
        if str(path).endswith("profiles"):
            raise PermissionError(13, "Permission denied")
        return real_listdir(path)

    monkeypatch.setattr(disk.os, "listdir", listdir)
    state = disk.load_state(tmp_path / "a", tmp_path / "p", trusted=False)
    assert state.global_.profiles == {}
    assert [(d.level, d.code, d.subject) for d in state.global_.diagnostics] == [("error", "profiles-dir", "profiles")]
    assert state.global_.config is not None and str(state.global_.config.default_profile) == "global:base"


def test_a_session_script_step_meeting_a_missing_file_or_a_failed_read_answers_for_itself(tmp_path):
    """``remove`` of a path that does not exist changes nothing; a step other than agentStart that
    meets the read failNextLoad arms is refused with read-failed; the script goes on either way."""
    from conformance.adapters.connect import make_adapter

    (tmp_path / "agent" / "system-prompts" / "profiles").mkdir(parents=True)
    (tmp_path / "project").mkdir()
    adapter = make_adapter("reference")
    adapter.start()
    steps = [{"do": "remove", "path": "agent/system-prompts/profiles/gone.md"}, {"do": "failNextLoad"},
             {"do": "select", "mode": "auto"}, {"do": "message"}]
    answer = adapter.run("profiles.session", {"agentDir": "agent", "cwd": "project", "model": None, "steps": steps},
                         root=str(tmp_path), timeout=10)
    assert answer.kind == "result", answer.message
    assert [(s["do"], s["ok"], s.get("error")) for s in answer.output["steps"]] == [
        ("remove", True, None), ("failNextLoad", True, None), ("select", False, {"code": "read-failed"}),
        ("message", True, None)]

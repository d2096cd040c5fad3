"""``diff`` and ``invariants`` keep hypothesis's storage out of the user's working folder."""

import os
import subprocess
import sys

import pytest

from tests.kit_fixtures import lend_parse_cache

COMMANDS = {
    # profiles.compose draws text, for which hypothesis writes its storage (pi.parse-args's examples
    # are built from one drawn number now, and write none)
    "diff": ["diff", "--adapter", "reference", "--adapter", "reference", "--op", "profiles.compose", "--examples", "2"],
    "invariants": ["invariants", "--area", "pi", "--invariant", "inv-tpl-args-requote", "--examples", "2"],
}


@pytest.mark.untraced  # diff and invariants again, in a process: the diff and invariant tests measure them
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_hypothesis_storage_goes_to_the_kit_cache_not_the_working_folder(tmp_path, command):
    work, cache = tmp_path / "project", tmp_path / "cache"
    work.mkdir()
    # The parse cache under it is this session's own: diff reads the whole suite, and checking
    # every scenario file afresh costs seconds and tells nothing of hypothesis's storage.
    lend_parse_cache(cache)
    env = {**os.environ, "PI_CONFORMANCE_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-m", "conformance.cli", *COMMANDS[command]], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(work.iterdir()) == []
    assert (cache / "hypothesis").is_dir()


def test_with_the_cache_off_hypothesis_storage_is_a_temporary_folder_removed_at_exit(tmp_path):
    work, temp = tmp_path / "project", tmp_path / "tmp"
    work.mkdir()
    temp.mkdir()
    env = {**os.environ, "PI_CONFORMANCE_CACHE": "off", "TMPDIR": str(temp)}
    # invariants, not diff: with the parse cache off, diff checks every scenario file afresh (it
    # reads the suite's normalisers), which costs seconds and tells nothing of the storage.
    done = subprocess.run([sys.executable, "-m", "conformance.cli", *COMMANDS["invariants"]], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(work.iterdir()) == [] and list(temp.iterdir()) == []

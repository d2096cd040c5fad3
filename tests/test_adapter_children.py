"""What an adapter leaves running is ended with it: after a clean stop (``stopped``, exit 0) the
kit kills the adapter's whole process group too, so a child it started and never waited for does
not outlive the run (PROTOCOL.md, "Faults, timeouts and restarts")."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from conformance.cli import main
from tests.kit_fixtures import mini_suite
from tests.test_history import _alive

STANDINS = Path(__file__).parent / "standins"


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
@pytest.mark.parametrize("command", ["run", "smoke"])
def test_a_child_left_running_by_an_adapter_that_stops_cleanly_is_killed(tmp_path, capsys, command):
    record = tmp_path / "child.pid"
    adapter = shlex.join([sys.executable, str(STANDINS / "starts_a_child.py"), str(record)])
    dirs = mini_suite(tmp_path / "s")
    folders = ["--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
               "--golden-dir", str(dirs["golden"])] if command == "run" else []
    main([command, "--adapter", adapter, *folders])
    out, err = capsys.readouterr()
    assert "did not stop cleanly" not in err and "killed" not in out + err, out + err  # a clean stop
    pid = int(record.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        assert not _alive(pid), "the adapter's child outlived the run"
    finally:
        if _alive(pid):
            os.kill(pid, 9)


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM is POSIX")
def test_an_adapter_killed_after_a_timeout_has_its_grace_to_clean_up(tmp_path, capsys):
    """After a fault the kit sends SIGTERM and waits up to the grace PROTOCOL.md states (2 s)
    before SIGKILL: a clean-up of a second is never cut short."""
    marker = tmp_path / "cleaned"
    adapter = shlex.join([sys.executable, str(STANDINS / "slow_cleanup.py"), str(marker)])
    dirs = mini_suite(tmp_path / "s")
    main(["run", "--adapter", adapter, "--timeout", "0.5", "--case", "kit-echo-number",
          "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]), "--golden-dir", str(dirs["golden"])])
    out, err = capsys.readouterr()
    assert "no answer within 0.5 s" in out + err, out + err
    assert marker.exists(), "the clean-up was cut short by SIGKILL"

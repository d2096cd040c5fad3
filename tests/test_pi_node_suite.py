"""The suite against the published Pi 1.6.0 through the pi-node adapter, strict, with its
expectations file: the run must pass (every failure of Pi expected and explained, no unexpected
pass), and nothing of the machine running it may change a result.

Needs the adapter's dependencies (``npm ci`` in conformance/adapters/pi-node); without them the
tests are skipped, except under CI (``CI`` set), where a missing install is a failure.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ADAPTER_DIR = ROOT / "conformance" / "adapters" / "pi-node"
EXPECTATIONS = ADAPTER_DIR / "expectations.yaml"

if not (ADAPTER_DIR / "node_modules" / "@earendil-works" / "pi-coding-agent").is_dir():
    if os.environ.get("CI"):
        raise RuntimeError(f"the pi-node adapter is not installed: run `npm ci` in {ADAPTER_DIR}")
    pytest.skip(f"pi-node adapter not installed (npm ci in {ADAPTER_DIR})", allow_module_level=True)


def pi_conformance(*args: str) -> tuple[int, str]:
    """``pi-conformance ARGS`` in this process (the kit's own ``main``; the adapter is a process of
    its own either way): the exit code and what it wrote on standard output and error."""
    from conformance.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue() + err.getvalue()


def _can_unshare_network() -> bool:
    import shutil

    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0


UNSHARE = _can_unshare_network()


# Credentials of the machine running the suite, set for the strict run: none may count as a case's.
MACHINE_CREDENTIALS = {"ACME_API_KEY": "from-the-machine", "OPENAI_API_KEY": "from-the-machine", "ZETA_API_KEY": "z"}


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    """The strict run of the whole suite through Pi, with :data:`MACHINE_CREDENTIALS` in the
    environment: where ``unshare -n`` can give the adapter a network namespace of its own (no
    interface but loopback, down), the adapter runs in one, so that this one run also shows that
    no answer needs the network; elsewhere as ``--adapter pi-node`` (the same ``bash run.sh``)."""
    out = tmp_path_factory.mktemp("pi-node") / "pi.json"
    adapter = f"unshare -n bash {shlex.quote(str(ADAPTER_DIR / 'run.sh'))}" if UNSHARE else "pi-node"
    with pytest.MonkeyPatch.context() as patch:
        for name, value in MACHINE_CREDENTIALS.items():
            patch.setenv(name, value)
        code, printed = pi_conformance(
            "run", "--adapter", adapter, "--expectations", str(EXPECTATIONS), "--report-json", str(out), "-q"
        )
    assert code == 0, printed[-9000:]
    return json.loads(out.read_text())


def test_the_strict_run_passes_and_reports_pi(report):
    assert report["header"]["implementation"] == {"name": "pi", "version": "1.6.0", "language": "javascript"}
    pi = report["summary"]["pi"]
    assert pi["failed"] == pi["errored"] == pi["xpass"] == 0
    assert pi["passed"] > 200


def test_every_pi_operation_but_the_unprovided_ones_is_answered(report):
    answered = {c["op"] for c in report["cases"] if c["area"] == "pi" and c["status"] != "unsupported"}
    unprovided = {"pi.validate-message", "pi.classifier-request"}
    declared = {c["op"] for c in report["cases"] if c["area"] == "pi"}
    assert declared - unprovided <= answered


def test_envelope_and_profiles_are_unsupported(report):
    for area in ("envelope", "profiles"):
        counts = report["summary"][area]
        assert counts["unsupported"] > 0
        assert counts["passed"] == counts["failed"] == counts["errored"] == 0


def test_every_expectation_states_a_checked_reason():
    from conformance.judge.expectations import load_expectations

    entries = load_expectations(EXPECTATIONS).entries
    assert entries
    for entry in entries:
        # A reason names what Pi does and the rule it departs from (a clause, a note or the seed).
        assert len(entry.reason) > 60, entry.id
        assert any(mark in entry.reason for mark in ("PI-", "N19", "N2", "seed 003", "Pi 1.6.0")), entry.id


def test_the_users_environment_does_not_reach_a_result(report):
    # Credentials of the machine running the suite must not count as the case's: with ACME_API_KEY
    # and OPENAI_API_KEY set for the strict run, the cases without credentials still find none.
    status = {c["id"]: c["status"] for c in report["cases"]}
    assert status["mdl-cred-none"] == status["mdl-avail-no-credentials"] == "passed"


@pytest.mark.skipif(not UNSHARE, reason="needs `unshare -n` (a network namespace)")
def test_the_adapter_runs_without_any_network(report):
    # The report's run had the adapter in a network namespace of its own, which has no interface
    # but loopback (down): every pi case still got the expected answers.
    pi = report["summary"]["pi"]
    assert pi["failed"] == pi["errored"] == pi["xpass"] == 0 and pi["passed"] > 200

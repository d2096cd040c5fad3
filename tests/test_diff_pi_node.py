"""``diff`` of the reference against the published Pi 1.6.0 (pi-node), at the test budget.

Derandomized, a few examples per operation, not shrunk (only which operations disagree counts).
The operations that disagree must be exactly the ones whose divergences the project has decided,
each named here with a case of the suite that shows it, and with the expectations file
(``--expectations``) every disagreement must be a known one. One run with the file shows both: it
draws the same examples a run without it draws, and goes on past a known disagreement where that
run stops, so an operation disagrees without the file exactly when it has a known or an unknown
disagreement with it. A new divergence (Pi changed, or
a strategy reaches a new rule) fails these tests until it is decided against the spec and
committed as a case. docs/strength.md gives the figures of the larger budget (``--examples 60``).
"""

from __future__ import annotations

import fnmatch
import os
import shutil
from pathlib import Path

import pytest

from conformance.adapters.connect import make_adapter
from conformance.corpus.cases import SCENARIOS_DIR, load_suite
from conformance.diff import run_diff
from conformance.judge.expectations import load_expectations

ADAPTER_DIR = Path(__file__).resolve().parents[1] / "conformance" / "adapters" / "pi-node"

if not ((ADAPTER_DIR / "node_modules" / "@earendil-works" / "pi-coding-agent").is_dir() and shutil.which("node")):
    if os.environ.get("CI"):
        raise RuntimeError(f"the pi-node adapter is not installed: run `npm ci` in {ADAPTER_DIR}")
    pytest.skip("pi-node adapter not installed", allow_module_level=True)

EXAMPLES = 8

DECIDED = {
    # operation: the suite's case that shows the same divergence (listed in the expectations file)
    "pi.classifier-catalogue": "mdl-cls-catalogue",                # Pi 1.6.0's catalogue is not seed 003's table
    "pi.convert-to-llm": "msg-convert-invalid-refused",            # a malformed message is converted, not refused
    "pi.load-templates": "tpl-load-explicit-folder",               # an explicit folder's dot files load
    "pi.models-auth": "mdl-cred-empty-sources-skipped",            # an empty stored key is named as the source
    "pi.models-available": "mdl-cred-empty-sources-skipped",       # an empty runtime key is named as the source
    "pi.models-load": "diff-pi-models-load-4b7684ce",              # one schema issue per object (found by diff)
    "pi.package-source": "pkg-src-npm-no-name",                    # `npm:` is not refused
    "pi.packages-resolve": "pkg-kind-manifest-empty-lists-filter",  # a filter over [] exposes conventional files
    "pi.replay-system": "msg-replay-replace-baseline",             # replace: true is not a new baseline
}


@pytest.fixture(scope="module")
def known_reports():
    return run_diff((make_adapter("reference"), make_adapter("pi-node")), areas=["pi"], examples=EXAMPLES,
                    shrink=False, expectations=load_expectations(ADAPTER_DIR / "expectations.yaml"))


@pytest.fixture(scope="module")
def reports(known_reports):
    """The operations that disagree (as a run without the expectations file finds them), each
    with the input of its unknown disagreement or the cases that explain its known ones."""
    return {r.op: r.disagreement.input if r.disagreement else r.known_cases
            for r in known_reports if r.disagreement or r.known}


def test_every_disagreement_with_pi_is_a_decided_divergence(known_reports, reports):
    assert len(known_reports) >= 14 and all(not r.error for r in known_reports)
    undecided = {op: found for op, found in reports.items() if op not in DECIDED}
    assert undecided == {}, "decide these against the spec and commit each as a case"


def test_the_decided_divergences_are_cases_with_expectations(reports):
    cases = {c.id for c in load_suite(SCENARIOS_DIR, areas=["pi"]).cases}
    entries = load_expectations(ADAPTER_DIR / "expectations.yaml")
    patterns = [e.id for e in entries.entries if e.status == "fail"]
    for op, case_id in DECIDED.items():
        assert case_id in cases, op
        assert any(fnmatch.fnmatchcase(case_id, p) for p in patterns), f"{case_id} has no fail expectation"
    assert reports, "Pi 1.6.0 is known to diverge; diff found nothing"


def test_with_the_expectations_file_every_disagreement_is_a_known_divergence(known_reports):
    assert all(not r.error for r in known_reports)
    unknown = {r.op: r.disagreement.input for r in known_reports if r.disagreement}
    assert unknown == {}, "decide these against the spec and commit each as a case (with an expectation)"
    entries = load_expectations(ADAPTER_DIR / "expectations.yaml")
    named = {c for r in known_reports for c in r.known_cases}
    assert named and all(entries.match(c).status == "fail" for c in named)

"""Running one case imports and builds what its operation needs: the operation's models and the
reference's handler of it, not those of the other operations of its area, and a validator only
for each model it validates with (the operation's input and output, a session script's steps)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.corpus import yamlcache
from tests.kit_fixtures import lend_parse_cache

ROOT = Path(__file__).resolve().parent.parent
KIT = ("conformance.operations.", "conformance.adapters.reference.")


pytestmark = pytest.mark.untraced  # one case's run in a process: the scenario and run tests measure it


def _after_run(case_id: str, tmp_path: Path, *, warm: bool = False) -> dict:
    """The operation and reference-handler modules imported, the reference's modules imported, the
    operation models declared and those whose validator was built, after ``run --case CASE_ID`` in
    a fresh process.

    The process's parse cache is new and empty (every scenario file checked afresh, as on a first
    run), or with ``warm`` this session's own (:func:`tests.kit_fixtures.lend_parse_cache`): what
    checking the files imports is the same whatever the case, so one test checking it is enough."""
    probe = ("import contextlib, io, json, sys\nfrom conformance.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    assert main(['run', '-q', '--case', {case_id!r}]) == 0\n"
             "from conformance.operations.base import OpModel\n"
             "def every(cls):\n"
             "    for sub in cls.__subclasses__():\n"
             "        yield sub\n"
             "        yield from every(sub)\n"
             f"print(json.dumps({{'modules': sorted(m for m in sys.modules if m.startswith({KIT!r})),\n"
             "                  'reference': sorted(m for m in sys.modules if m.startswith('reference.')),\n"
             "                  'declared': sorted({c.__name__ for c in every(OpModel)}),\n"
             "                  'built': sorted({c.__name__ for c in every(OpModel) if c.__pydantic_complete__})}))")
    cache = lend_parse_cache(tmp_path / "cache") if warm else tmp_path / "cache"
    env = {**os.environ, yamlcache.ENV: str(cache)}
    out = subprocess.run([sys.executable, "-c", probe], check=True, env=env, cwd=ROOT, capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_a_session_case_imports_the_session_operation_alone_and_builds_the_models_it_validates(tmp_path):
    seen = _after_run("env-payload-replace-both", tmp_path)
    assert seen["modules"] == ["conformance.adapters.reference.envelope_models",
                               "conformance.adapters.reference.envelope_session",
                               "conformance.operations.base", "conformance.operations.envelope_models",
                               "conformance.operations.envelope_session", "conformance.operations.error_codes",
                               "conformance.operations.index"]
    # the input and output; the bodies of its steps (registerAdapter, register, capture,
    # providerRequest); the capture's system-prompt options, dumped for the content functions
    assert seen["built"] == ["AdapterSpec", "CaptureRequest", "ContributionSpec", "ProviderRequestStep",
                             "SessionInput", "SessionOutput", "SystemPromptOptions"]


def test_a_stateless_envelope_case_imports_no_session_module(tmp_path):
    seen = _after_run("env-instr-custom-alone", tmp_path, warm=True)
    assert seen["modules"] == ["conformance.adapters.reference.envelope",
                               "conformance.adapters.reference.envelope_models", "conformance.operations.base",
                               "conformance.operations.envelope", "conformance.operations.envelope_models",
                               "conformance.operations.error_codes", "conformance.operations.index"]
    assert seen["built"] == ["InstructionsInput", "InstructionsOutput"]


def test_a_credentials_case_declares_no_classifier_model(tmp_path):
    seen = _after_run("mdl-cred-none", tmp_path, warm=True)
    assert seen["modules"] == ["conformance.adapters.reference.pi_models", "conformance.operations.base",
                               "conformance.operations.error_codes", "conformance.operations.index",
                               "conformance.operations.pi_models"]
    assert not {"CatalogueInput", "ClassifyRequestInput", "ClassifierUsageInput", "Price"} & set(seen["declared"])
    # models.json's rules name editions but have no use for the message models, and a case
    # without a models.json has none for the file's schema models
    assert {"reference.pi.core.editions", "reference.pi.core.models_file"} <= set(seen["reference"])
    assert not {"reference.pi.core.messages", "reference.pi.core.message_editions",
                "reference.pi.core.models_schema"} & set(seen["reference"])
    # the input and output, and the built-in providers, dumped for the reference
    assert seen["built"] == ["AuthInput", "AuthOutput", "BuiltinProvider"]

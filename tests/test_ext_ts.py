"""The ext-ts adapter (``--adapter envelope-ts:PATH``, ``profiles-ts:PATH``) over the stand-in
checkouts in ``tests/standins/ext-ts/``: TypeScript modules with the exported names of
pi-developer-messages and pi-prompt-profiles, each lacking one module on purpose.

They need the pi-node adapter's pinned Node runtime (``npm ci`` in its folder); without it they are
skipped, except under CI (``CI`` set), where a missing install is a failure.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conformance.cli import main

pytestmark = pytest.mark.untraced  # code the other tests measure (see tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
NODE = ROOT / "conformance" / "adapters" / "pi-node" / "node_modules" / ".bin" / "node"
STANDINS = Path(__file__).resolve().parent / "standins" / "ext-ts"
ENVELOPE = STANDINS / "pi-developer-messages"
PROFILES = STANDINS / "pi-prompt-profiles"

if not NODE.exists():
    if os.environ.get("CI"):
        raise RuntimeError(f"the pi-node adapter's Node runtime is not installed: run `npm ci` in {NODE.parents[2]}")
    pytest.skip("pi-node adapter not installed (its Node runtime runs ext-ts)", allow_module_level=True)


def run_cases(tmp_path: Path, adapter: str, *patterns: str) -> dict[str, dict]:
    """Run the cases matching ``patterns`` against ``adapter``; each case's report record by id."""
    report = tmp_path / "report.json"
    argv = ["run", "-q", "--adapter", adapter, "--report-json", str(report)]
    for pattern in patterns:
        argv += ["--case", pattern]
    main(argv)
    return {case["id"]: case for case in json.loads(report.read_text(encoding="utf-8"))["cases"]}


def test_envelope_operations_run_the_checkouts_typescript(tmp_path):
    cases = run_cases(tmp_path, f"envelope-ts:{ENVELOPE}", "env-instr-*", "env-ctx-*")
    instr = [c for c in cases.values() if c["op"] == "envelope.instructions"]
    context = [c for c in cases.values() if c["op"].startswith("envelope.context")]
    assert len(instr) >= 7 and len(context) >= 5
    assert {c["status"] for c in instr + context} == {"passed"}, {c["id"]: c["message"] for c in instr + context}
    # the context hook takes the audit copies out before injecting (removePromptAuditMessages)
    assert cases["env-ctx-hook-inject-first"]["status"] == "passed"


def test_an_export_the_checkout_lacks_answers_unsupported_naming_it_and_its_module(tmp_path):
    cases = run_cases(tmp_path, f"envelope-ts:{ENVELOPE}", "env-env-seed-example", "env-content-returns-fixed")
    for case in cases.values():
        assert case["status"] == "unsupported"
        assert "does not export composeDeveloperMessages" in case["message"]
        assert "src/developer-messages.ts: the file does not exist" in case["message"]


def test_an_operation_the_extension_has_no_function_for_is_unsupported_with_the_reason(tmp_path):
    cases = run_cases(tmp_path, f"envelope-ts:{ENVELOPE}", "env-build-full", "env-setting-no-file")
    assert cases["env-build-full"]["status"] == "unsupported"
    assert "envelope service" in cases["env-build-full"]["message"]
    assert "pi-xsettings" in cases["env-setting-no-file"]["message"]


def test_profiles_operations_run_sources_that_import_with_js_endings(tmp_path):
    # compose.ts imports ./markers.js, which exists only as markers.ts
    cases = run_cases(tmp_path, f"profiles-ts:{PROFILES}", "prof-strip-*", "prof-config-full")
    strip = [c for c in cases.values() if c["op"] == "profiles.strip"]
    assert len(strip) >= 3
    assert {c["status"] for c in strip} == {"passed"}, {c["id"]: c["message"] for c in strip}
    assert cases["prof-config-full"]["status"] == "unsupported"
    assert "loadConfigFile (src/core/config.ts: the file does not exist)" in cases["prof-config-full"]["message"]


def test_a_missing_checkout_exits_3_naming_it(tmp_path, capsys):
    missing = tmp_path / "nowhere"
    assert main(["run", "-q", "--adapter", f"envelope-ts:{missing}", "--case", "env-instr-*"]) == 3
    err = capsys.readouterr().err
    assert str(missing) in err and "pi-developer-messages" in err
    assert main(["run", "-q", "--adapter", "profiles-ts:", "--case", "prof-strip-*"]) == 3
    assert "needs the path of a checkout of pi-prompt-profiles" in capsys.readouterr().err


def test_a_checkout_without_any_module_read_exits_3_naming_the_files(tmp_path, capsys):
    (tmp_path / "src").mkdir()
    assert main(["run", "-q", "--adapter", f"profiles-ts:{tmp_path}", "--case", "prof-strip-*"]) == 3
    err = capsys.readouterr().err
    assert "has none of the modules the adapter reads" in err
    assert "src/core/compose.ts: the file does not exist" in err


def test_a_module_that_fails_to_import_is_named_with_its_error(tmp_path, capsys):
    core = tmp_path / "src" / "core"
    core.mkdir(parents=True)
    (core / "compose.ts").write_text('import { gone } from "./absent.js";\nexport const applyManagedPrompt = gone;\n',
                                     encoding="utf-8")
    assert main(["run", "-q", "--adapter", f"profiles-ts:{tmp_path}", "--case", "prof-strip-*"]) == 3
    err = capsys.readouterr().err
    assert "src/core/compose.ts: cannot import it" in err and "absent.js" in err

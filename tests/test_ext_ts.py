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


def test_the_implementation_is_named_with_the_checkouts_version_and_path(tmp_path):
    from conformance.adapters.connect import make_adapter

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "provider-instructions.ts").write_text("export const buildProviderInstructions = 1;\n",
                                                               encoding="utf-8")
    (tmp_path / "package.json").write_text('{"version": "0.3.9"}', encoding="utf-8")
    adapter = make_adapter(f"envelope-ts:{tmp_path}")
    try:
        hello = adapter.start()
    finally:
        adapter.stop()
    assert hello.name == "@luan.sh/pi-developer-messages" and hello.language == "typescript"
    assert hello.version == f"0.3.9 (checkout {tmp_path})"


def test_an_export_the_checkout_lacks_answers_unsupported_naming_it_and_its_module(tmp_path):
    cases = run_cases(tmp_path, f"envelope-ts:{ENVELOPE}", "env-env-example", "env-content-returns-fixed")
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
    cases = run_cases(tmp_path, f"profiles-ts:{PROFILES}", "prof-strip-*", "prof-match-*", "prof-config-full",
                      "prof-config-input-both")
    ran = [c for c in cases.values() if c["op"] in ("profiles.strip", "profiles.match")]
    assert len(ran) >= 12
    assert {c["status"] for c in ran} == {"passed"}, {c["id"]: c["message"] for c in ran}
    assert cases["prof-config-full"]["status"] == "unsupported"
    assert "resolveRef, formatRef (src/core/refs.ts: the file does not exist)" in cases["prof-config-full"]["message"]
    # the operation's own contract is kept before any export is looked up
    assert cases["prof-config-input-both"]["status"] == "passed"


def test_picker_lists_run_in_the_core_and_the_rest_is_unsupported_where_it_lives(tmp_path):
    cases = run_cases(tmp_path, f"profiles-ts:{PROFILES}", "prof-picker-providers", "prof-picker-models",
                      "prof-picker-filter*", "prof-picker-window-tall", "prof-settings-parse")
    for case in ("prof-picker-providers", "prof-picker-models", "prof-picker-filter", "prof-picker-filter-blank"):
        assert cases[case]["status"] == "passed", cases[case]["message"]
    assert cases["prof-picker-window-tall"]["status"] == "unsupported"
    assert "src/adapter/picker.ts" in cases["prof-picker-window-tall"]["message"]
    assert "(src/core/settings.ts: the file does not exist)" in cases["prof-settings-parse"]["message"]


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


def _start_error(tmp_path: Path, capsys, compose_ts: str) -> str:
    """What a profiles checkout whose only module is ``compose_ts`` says when it cannot start."""
    core = tmp_path / "src" / "core"
    core.mkdir(parents=True)
    (core / "compose.ts").write_text(compose_ts, encoding="utf-8")
    assert main(["run", "-q", "--adapter", f"profiles-ts:{tmp_path}", "--case", "prof-strip-*"]) == 3
    return capsys.readouterr().err


def test_a_module_that_fails_to_import_is_named_with_its_error(tmp_path, capsys):
    err = _start_error(tmp_path, capsys, 'import { gone } from "./absent.js";\nexport const applyManagedPrompt = gone;\n')
    assert "src/core/compose.ts: cannot import it" in err and "absent.js" in err


ENVIRONMENT_MODULE = """\
// A developer-messages module whose composer reports the environment it is given.
class Reported {
    constructor(private readonly environment: { shell: string; currentDate: string; timezone: string }) {}
    text(): string { return `${this.environment.shell} ${this.environment.currentDate} ${this.environment.timezone}`; }
}
const registry = new Map<string, unknown>();
export const getDeveloperMessageContributionRegistry = () => registry;
export function composeDeveloperMessages(context: unknown, cwd: string, environment: never) {
    return [{ id: "environment", content: new Reported(environment).text() }];
}
"""


def _environment(tmp_path: Path, host: dict, tools: list[str]) -> dict:
    from conformance.adapters.connect import make_adapter

    checkout = tmp_path / "checkout"
    (checkout / "src").mkdir(parents=True, exist_ok=True)
    (checkout / "src" / "developer-messages.ts").write_text(ENVIRONMENT_MODULE, encoding="utf-8")
    adapter = make_adapter(f"envelope-ts:{checkout}")
    adapter.start()
    try:
        return adapter.run("envelope.environment", {"cwd": "/w", "activeTools": tools, "host": host}, root=None,
                           timeout=10)
    finally:
        adapter.stop()


def test_the_environment_comes_from_the_host_as_node_path_reads_it_on_that_platform(tmp_path):
    # the module uses a parameter property, which needs more than type stripping
    answer = _environment(tmp_path, {"platform": "win32", "comSpec": "C:\\Windows\\System32\\cmd.exe",
                                     "date": "2025-12-24"}, [])
    assert answer.kind == "result", answer
    assert answer.output == {"id": "environment", "content": "cmd.exe 2025-12-24 unknown"}
    answer = _environment(tmp_path, {"platform": "linux", "shell": "C:\\bin\\zsh", "date": "2025-01-31",
                                     "timezone": "Europe/Lisbon"}, [])
    assert answer.output["content"] == "C:\\bin\\zsh 2025-01-31 Europe/Lisbon"


def test_fish_with_exec_command_is_unsupported_since_the_extension_reads_this_machine(tmp_path):
    answer = _environment(tmp_path, {"platform": "linux", "shell": "/usr/bin/fish", "date": "2025-01-31"},
                          ["exec_command"])
    assert answer.kind == "unsupported" and "process.platform" in answer.message


def test_a_package_neither_the_checkout_nor_pi_node_holds_is_named_with_the_module_importing_it(tmp_path, capsys):
    err = _start_error(tmp_path, capsys, 'import "@nowhere/absent";\nexport const stripManagedBlocks = 1;\n')
    assert "Cannot find package '@nowhere/absent' imported from" in err
    assert str(tmp_path / "src" / "core" / "compose.ts") in err and "pi-node" not in err.split("has none of the modules")[1]

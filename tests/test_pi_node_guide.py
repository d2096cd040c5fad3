"""The adapter authors' guide (conformance/ADAPTERS.md) stays true: its JavaScript skeleton, copied
as the guide says, passes ``pi-conformance smoke`` and the envelope cases it implements, and its
example exchange is what the bundled reference answers."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "conformance" / "ADAPTERS.md"
SCHEMAS = ROOT / "conformance" / "schema" / "operations"
CLI = [sys.executable, "-m", "conformance.cli"]

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def skeleton() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    block = re.search(r"<!-- adapter-skeleton:begin -->\n```js\n(.*?)```\n<!-- adapter-skeleton:end -->", text, re.S)
    assert block, "the guide has no marked skeleton block"
    return block.group(1)


def example_exchange() -> list[tuple[str, dict]]:
    text = GUIDE.read_text(encoding="utf-8")
    block = re.search(r"### A full example exchange.*?```text\n(.*?)```", text, re.S)
    assert block
    lines = []
    for line in block.group(1).splitlines():
        who, _, payload = line.partition(" ")
        lines.append((who, json.loads(payload.strip())))
    return lines


@pytest.fixture
def adapter(tmp_path: Path) -> str:
    path = tmp_path / "my-adapter.mjs"
    path.write_text(skeleton(), encoding="utf-8")
    return path


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@needs_node
def test_skeleton_passes_smoke(adapter):
    done = run_cli("smoke", "--adapter", f"node {shlex.quote(str(adapter))}",
                   "--adapter-env", f"PI_CONFORMANCE_SCHEMAS={SCHEMAS}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"smoke: all \d+ checks passed", done.stdout), done.stdout


@needs_node
def test_skeleton_without_the_schemas_stops_at_start_saying_where_it_looked(adapter):
    # It warned on standard error and ran on, and the kit shows an adapter's standard error only
    # for errored cases: the warning was never seen, and cases failed for want of defaults.
    for command in (["smoke"], ["run", "--case", "env-instr-*"]):
        done = run_cli(*command, "--adapter", f"node {shlex.quote(str(adapter))}")
        assert done.returncode == 3, done.stdout + done.stderr
        assert (f"no schemas at {adapter.parent / 'conformance' / 'schema' / 'operations'}: absent inputs would "
                "get no defaults; give --adapter-env PI_CONFORMANCE_SCHEMAS=") in done.stdout + done.stderr


@needs_node
def test_skeleton_in_the_root_of_a_checkout_finds_the_schemas_itself(adapter):
    (adapter.parent / "conformance" / "schema").mkdir(parents=True)
    (adapter.parent / "conformance" / "schema" / "operations").symlink_to(SCHEMAS, target_is_directory=True)
    done = run_cli("run", "--adapter", f"node {shlex.quote(str(adapter))}", "--case", "env-instr-*", "-q")
    assert done.returncode == 0 and "no schemas" not in done.stderr, done.stdout + done.stderr


@needs_node
def test_skeleton_passes_the_provider_instruction_cases(adapter):
    done = run_cli(
        "run", "--adapter", f"node {shlex.quote(str(adapter))}", "--case", "env-instr-*", "-q",
        "--adapter-env", f"PI_CONFORMANCE_SCHEMAS={SCHEMAS}",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    table = [line.split() for line in done.stdout.splitlines() if line.startswith("envelope ")]
    assert table and table[0][1] != "0" and table[0][2:4] == ["0", "0"], done.stdout


@needs_node
def test_skeleton_fills_in_schema_defaults(adapter):
    # env-instr-* cases leave fields out; without the schema defaults the skeleton would still
    # pass them (undefined is falsy), so check the mechanism directly on kit.echo's `value`.
    proc = subprocess.run(
        ["node", str(adapter)],
        input='{"type":"start","protocol":1}\n{"type":"run","seq":1,"op":"kit.echo","input":{},"root":null}\n{"type":"stop"}\n',
        capture_output=True, text=True, timeout=60, env={"PATH": __import__("os").environ["PATH"], "PI_CONFORMANCE_SCHEMAS": str(SCHEMAS)},
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines[1] == {"type": "result", "seq": 1, "output": {"value": None}}
    assert lines[2] == {"type": "stopped"}


def test_example_exchange_is_what_the_reference_answers(tmp_path):
    exchange = example_exchange()
    requests = [msg for who, msg in exchange if who == "kit"]
    expected = [msg for who, msg in exchange if who == "adapter"]
    # The guide's request 5 reads a tree at a fixed path; it is built in this test's own folder
    # and the request points there, so that two runs of the tests at once never share it.
    shown_root = next(m["root"] for m in requests if m.get("root"))
    root = tmp_path / Path(shown_root).name
    requests = [{**m, "root": str(root)} if m.get("root") == shown_root else m for m in requests]
    prompts = root / "agent" / "prompts"
    prompts.mkdir(parents=True, exist_ok=True)
    (root / "project").mkdir(exist_ok=True)
    (prompts / "review.md").write_text(
        '---\ndescription: Review staged git changes\nargument-hint: "[focus]"\n---\n'
        "Review the staged changes. Focus on ${1:-correctness}.\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.adapters.server"],
        input="".join(json.dumps(m) + "\n" for m in requests),
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(expected)
    started, *rest = answers
    # The guide shortens the reference's operation list; every listed one must be real.
    assert set(expected[0]["operations"]) <= set(started["operations"])
    assert {k: v for k, v in started.items() if k != "operations"} == {
        k: v for k, v in expected[0].items() if k != "operations"
    }
    assert rest == expected[1:]


def _as_js_reads(value):
    """``value`` with every integer past 2**53 as the double JavaScript's JSON.parse reads it (a
    case may hold such integers, e.g. exit codes past doubles; the skeleton sees only doubles)."""
    if isinstance(value, dict):
        return {k: _as_js_reads(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_js_reads(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return float(value)
    return value


def _without_steps(value):
    """``value`` without session scripts' ``steps``: their model keeps them as raw objects (the
    implementation validates them), so only the schema gives their defaults."""
    return {k: v for k, v in value.items() if k != "steps"} if isinstance(value, dict) else value


@needs_node
def test_skeleton_fills_in_defaults_at_any_depth_as_the_input_models_do(adapter, tmp_path):
    # The skeleton's own withDefaults, driven directly over every case's input, must give what
    # the kit's input model gives when it validates that input (its dump has every default).
    from conformance.corpus.cases import SCENARIOS_DIR, load_suite
    from conformance.operations import catalogue

    source = skeleton()
    driver = tmp_path / "defaults.mjs"
    driver.write_text(source[: source.index("// Standard output is for protocol lines only.")] + (
        "for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {\n"
        "  const { op, input } = JSON.parse(line);\n"
        "  process.stdout.write(JSON.stringify(withDefaults(op, input)) + '\\n');\n"
        "}\n"), encoding="utf-8")
    cases = load_suite(SCENARIOS_DIR).cases
    lines = "".join(json.dumps({"op": c.op, "input": c.input}) + "\n" for c in cases)
    done = subprocess.run(["node", str(driver)], input=lines, capture_output=True, text=True, timeout=120,
                          env={"PATH": __import__("os").environ["PATH"], "PI_CONFORMANCE_SCHEMAS": str(SCHEMAS)})
    assert done.returncode == 0, done.stderr
    filled = [json.loads(line) for line in done.stdout.split("\n") if line]
    assert len(filled) == len(cases)
    ops = catalogue()
    nested = 0
    for case, got in zip(cases, filled):
        want = ops[case.op].input.model_validate(case.input).model_dump(mode="json", by_alias=True)
        assert _as_js_reads(_without_steps(got)) == _as_js_reads(_without_steps(want)), case.id
        nested += got != case.input and any(isinstance(v, (dict, list)) and v != case.input.get(k)
                                            for k, v in got.items())
    assert nested > 50  # defaults below the top level were filled in
    # A session script's step is filled from its own schema: `register` gives priority 0.
    session = next(g for c, g in zip(cases, filled) if c.op == "envelope.session"
                   and any("register" in s and "priority" not in s["register"] for s in c.input["steps"]))
    assert all(s["register"]["priority"] is not None for s in session["steps"] if "register" in s)


@needs_node
@pytest.mark.parametrize("command", ["skeleton", "serve-reference", "pi-node"])
def test_at_the_end_of_input_an_adapter_exits_0_without_writing_stopped(adapter, command):
    # PROTOCOL.md: `stopped` answers the line `stop`; the end of input has no line to answer.
    argv = {"skeleton": ["node", str(adapter)],
            "serve-reference": [*CLI, "serve-reference"],
            "pi-node": ["bash", str(ROOT / "conformance" / "adapters" / "pi-node" / "run.sh")]}[command]
    if command == "pi-node" and not (ROOT / "conformance" / "adapters" / "pi-node" / "node_modules").is_dir():
        if __import__("os").environ.get("CI"):
            raise RuntimeError("the pi-node adapter is not installed: run `npm ci` in conformance/adapters/pi-node")
        pytest.skip("pi-node is not installed (npm ci in conformance/adapters/pi-node)")
    env = {"PATH": __import__("os").environ["PATH"], "PI_CONFORMANCE_SCHEMAS": str(SCHEMAS),
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run(argv, input='{"type":"start","protocol":1}\n', cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["type"] for line in done.stdout.split("\n") if line] == ["started"]


def test_the_guide_lists_every_optional_input_field_with_its_default():
    from conformance.output.schema import generate, optional_fields, optional_fields_markdown

    text = GUIDE.read_text(encoding="utf-8")
    block = re.search(r"<!-- optional-fields:begin -->\n(.*?)<!-- optional-fields:end -->", text, re.S)
    assert block, "the guide has no marked list of optional fields"
    assert block.group(1) == optional_fields_markdown(), "regenerate the list from conformance.output.schema"
    # Nested fields are listed (not only the top level), and every optional field has a default.
    assert "`contributions[].priority` = `0`" in block.group(1)
    assert "`steps[].register.priority` = `0`" in block.group(1)
    for name, schema in generate().items():
        if name.endswith(".input.json"):
            missing = [path for path, _ in optional_fields(_without_defaults_marked(schema))
                       if path.endswith("<no default>")]
            assert not missing, (name, missing)


def _without_defaults_marked(schema: dict) -> dict:
    """``schema`` with each non-required property lacking a ``default`` renamed ``NAME<no default>``."""
    def mark(node):
        if isinstance(node, list):
            return [mark(n) for n in node]
        if not isinstance(node, dict):
            return node
        out = {k: mark(v) for k, v in node.items()}
        if isinstance(node.get("properties"), dict):
            required = set(node.get("required", []))
            out["properties"] = {(k if k in required or "default" in v else f"{k}<no default>"): mark(v)
                                 for k, v in node["properties"].items()}
        return out
    return mark(schema)

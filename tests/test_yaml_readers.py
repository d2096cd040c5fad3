"""Every golden and scenario file reads as the same data under the YAML readers an
implementation is likely to use: ruamel.yaml's pure-Python reader (the kit's own), a libyaml-based
one (PyYAML's CSafeLoader, a YAML 1.1 reader, when PyYAML is installed; else ruamel.yaml.clib's
C parser) and the npm ``yaml`` package (under Node, from the pi-node adapter's node_modules).
The kit writes goldens so that they do (:func:`conformance.judge.golden.dump`); scenarios are
written by hand, and this test keeps them so."""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.judge import golden

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p.relative_to(ROOT).as_posix() for folder in ("golden", "conformance/scenarios")
               for p in (ROOT / folder).rglob("*.yaml"))
NODE_MODULES = ROOT / "conformance" / "adapters" / "pi-node" / "node_modules"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _plain(value):
    """``value`` as JSON data compares it: integral floats as integers, dates as their text."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return float(value)  # past 2**53 JSON data is a double, as a JavaScript reader has it
    if isinstance(value, (datetime.date, datetime.datetime)):
        return ["a date", value.isoformat()]
    if isinstance(value, dict):
        return {json.dumps(_plain(k)) if not isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _pure() -> dict[str, object]:
    from ruamel.yaml import YAML

    reader = YAML(typ="safe", pure=True)
    return {name: _plain(reader.load((ROOT / name).read_text(encoding="utf-8"))) for name in FILES}


def _read_all(load) -> dict[str, object]:
    out = {}
    for name in FILES:
        try:
            out[name] = _plain(load((ROOT / name).read_text(encoding="utf-8")))
        except Exception as exc:  # noqa: BLE001  (the reader's own error is the finding)
            out[name] = f"cannot be read: {' '.join(str(exc).split())[:200]}"
    return out


def _disagreements(expected: dict, got: dict) -> list[str]:
    return [f"{name}: {got[name] if isinstance(got[name], str) else 'other data'}"
            for name in FILES if got[name] != expected[name]]


@pytest.fixture(scope="module")
def pure() -> dict[str, object]:
    return _pure()


def test_a_libyaml_reader_reads_every_file_alike(pure):
    try:
        import yaml
        load = lambda text: yaml.load(text, Loader=yaml.CSafeLoader)  # noqa: E731
    except (ImportError, AttributeError):
        from ruamel.yaml import YAML

        reader = YAML(typ="safe")
        if reader.Parser.__module__.startswith("ruamel.yaml.parser"):
            pytest.skip("neither PyYAML with libyaml nor ruamel.yaml.clib is installed")
        load = reader.load
    assert _disagreements(pure, _read_all(load)) == []


def _node() -> str:
    """The ``node`` program, when it and the npm ``yaml`` package are there; else the test skips
    (fails in CI)."""
    node = shutil.which("node")
    if node is None or not (NODE_MODULES / "yaml").is_dir():
        if IN_CI:
            pytest.fail("node and the pi-node adapter's node_modules (npm ci) are needed in CI")
        pytest.skip("needs node and `npm ci --prefix conformance/adapters/pi-node`")
    return node


def test_the_npm_yaml_package_reads_every_file_alike(pure, tmp_path):
    node = _node()
    script = tmp_path / "read.mjs"
    script.write_text(
        'import { createRequire } from "node:module";\n'
        'import { readFileSync } from "node:fs";\n'
        f'const {{ parse }} = createRequire({json.dumps(str(NODE_MODULES) + "/")})("yaml");\n'
        'const out = {};\n'
        'for (const name of JSON.parse(readFileSync(0, "utf8"))) {\n'
        '  try { out[name] = parse(readFileSync(name, "utf8")); }\n'
        '  catch (e) { out[name] = "cannot be read: " + String(e.message).split(/\\s+/).join(" ").slice(0, 200); }\n'
        '}\n'
        'process.stdout.write(JSON.stringify(out));\n', encoding="utf-8")
    done = subprocess.run([node, str(script)], input=json.dumps(FILES), capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=True)
    assert _disagreements(pure, {k: _plain(v) for k, v in json.loads(done.stdout).items()}) == []


@pytest.mark.parametrize("text", ["\tTabbed\n", "\t\n    Indented first line\n", "\t", "\t\tx\ny\n", "a\n\tb\n",
                                  " \tx\n", "\n\t\n"])
@pytest.mark.parametrize("as_key", [False, True])
def test_the_dumper_writes_what_a_libyaml_reader_reads_alike(text, as_key):
    from ruamel.yaml import YAML

    data = {"v": {text: 1} if as_key else text, "off": "no", "y": {"on": "yes"}}
    dumped = golden.dump(data)
    assert YAML(typ="safe", pure=True).load(dumped) == data
    yaml = pytest.importorskip("yaml")
    assert yaml.load(dumped, Loader=yaml.CSafeLoader) == data


ESCAPED = ["\x85", "\u2028", "\u2029", "\ufeff"]
"""Characters that YAML 1.1 readers take for line breaks (NEL, LS, PS) or for a byte-order mark."""
SHAPES = ["Ran `x`\n```\n{c}\n```", "a\n{c}b\nc", "{c}\nx", "x\n{c}", "x\n  {c}", "{c}\n", "{c}", "a{c}b", "{c}a"]


@pytest.mark.parametrize("char", ESCAPED, ids=lambda c: f"U+{ord(c):04X}")
def test_the_dumper_writes_yaml_breaks_and_the_bom_escaped(char, tmp_path):
    """Raw in a literal block, a plain or a single-quoted scalar, these characters read back as
    other text (folded, taken for a line break of the block) under one reader or another; the
    dumper writes every string holding one, value or key, double-quoted with the escape."""
    from ruamel.yaml import YAML

    texts = [shape.format(c=char) for shape in SHAPES]
    data = {"k": {t: n for n, t in enumerate(texts)}, "v": texts}
    dumped = golden.dump(data)
    assert char not in dumped
    assert YAML(typ="safe", pure=True).load(dumped) == data
    yaml = pytest.importorskip("yaml")
    assert yaml.load(dumped, Loader=yaml.CSafeLoader) == data
    script = tmp_path / "read.cjs"
    script.write_text(f'const {{ parse }} = require({json.dumps(str(NODE_MODULES / "yaml"))});\n'
                      'process.stdout.write(JSON.stringify(parse(require("fs").readFileSync(0, "utf8"))));\n',
                      encoding="utf-8")
    done = subprocess.run([_node(), str(script)], input=dumped, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == data

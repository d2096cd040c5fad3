"""The skeleton adapters the kit ships (``pi-conformance skeleton --lang LANG``): each is printed
and written as the package holds it, passes ``pi-conformance smoke`` as it stands, and answers
every operation but ``kit.echo`` ``unsupported``."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.commands.skeleton import SKELETON_DIR, SKELETONS

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "conformance.cli"]
PINNED_NODE = ROOT / "conformance" / "adapters" / "pi-node" / "node_modules" / ".bin" / "node"
MIN_NODE = 18


def _node_major(node: str) -> int:
    done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30)
    found = re.match(r"v(\d+)\.", done.stdout.strip())
    return int(found.group(1)) if done.returncode == 0 and found else 0


def node() -> str | None:
    """The Node to run the JavaScript skeleton with: the one on PATH when it is 18 or newer, else
    the pi-node adapter's pinned Node 22 (``npm ci`` in its folder), else ``None``."""
    on_path = shutil.which("node")
    if on_path and _node_major(on_path) >= MIN_NODE:
        return on_path
    return str(PINNED_NODE) if PINNED_NODE.exists() else None


def runtime(lang: str) -> str:
    found = node() if lang == "js" else sys.executable
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("no Node 18 or newer, and the pi-node adapter's pinned Node is not installed")
        pytest.skip("no Node 18 or newer")
    return found


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.fixture(params=sorted(SKELETONS))
def copied(request, tmp_path) -> tuple[str, Path]:
    """``(lang, path)``: the skeleton written by ``skeleton --lang LANG --out`` into a fresh folder."""
    lang = request.param
    path = tmp_path / SKELETONS[lang].copy
    done = cli("skeleton", "--lang", lang, "--out", str(path))
    assert done.returncode == 0, done.stderr
    assert path.read_text(encoding="utf-8") == (SKELETON_DIR / SKELETONS[lang].file).read_text(encoding="utf-8")
    return lang, path


def test_skeleton_prints_the_shipped_file(copied):
    lang, path = copied
    done = cli("skeleton", "--lang", lang)
    assert done.returncode == 0 and done.stdout == path.read_text(encoding="utf-8"), done.stderr


def test_skeleton_passes_smoke_as_it_stands(copied):
    lang, path = copied
    command = shlex.join([runtime(lang), str(path)])
    done = cli("smoke", "--adapter", command, cwd=path.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^smoke: all \d+ checks passed$", done.stdout, re.M), done.stdout
    assert "FAIL" not in done.stdout


def test_skeleton_answers_every_other_operation_unsupported(copied):
    lang, path = copied
    lines = [{"type": "start", "protocol": 1},
             {"type": "run", "seq": 1, "op": "envelope.instructions", "input": {"systemPrompt": "x"}, "root": None},
             {"type": "run", "seq": 2, "op": "kit.echo", "input": {"value": [1, "\u2028"]}, "root": None},
             {"type": "stop"}]
    done = subprocess.run([runtime(lang), str(path)], input="".join(json.dumps(m) + "\n" for m in lines),
                          capture_output=True, text=True, timeout=60, cwd=path.parent)
    answers = [json.loads(line) for line in done.stdout.split("\n") if line]  # not splitlines: U+2028 is no line break here
    assert done.returncode == 0, done.stderr
    assert answers[0]["type"] == "started" and answers[0]["operations"] == ["kit.echo"]
    assert answers[1]["type"] == "unsupported" and answers[1]["seq"] == 1
    assert answers[2] == {"type": "result", "seq": 2, "output": {"value": [1, "\u2028"]}}
    assert answers[3:] == [{"type": "stopped"}]


def test_skeleton_never_writes_over_an_existing_file(tmp_path):
    mine = tmp_path / "my-adapter.mjs"
    mine.write_text("my own adapter\n", encoding="utf-8")
    done = cli("skeleton", "--lang", "js", "--out", str(mine))
    assert done.returncode == 2 and f"--out {mine}: already exists" in done.stderr
    assert mine.read_text(encoding="utf-8") == "my own adapter\n"


def test_skeleton_names_its_languages():
    done = cli("skeleton", "--lang", "cobol")
    assert done.returncode == 2 and "invalid choice: 'cobol'" in done.stderr and "js" in done.stderr

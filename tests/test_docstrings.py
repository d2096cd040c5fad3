"""Module docstrings of reference/ and conformance/: every module has one, and it says in a few
lines what the module is for. Detail lives in the function's or class's docstring, in the guides or
in data files."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("reference", "conformance")
MAX_WORDS = 60


def _modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                  if "node_modules" not in path.parts)


def _words(source: str) -> int | None:
    """Words in the module docstring of ``source``, or ``None`` where it has none."""
    docstring = ast.get_docstring(ast.parse(source))
    return None if docstring is None else len(docstring.split())


def _faults(paths: list[Path]) -> dict[str, str]:
    """``{relative path: "no docstring" | "N words"}`` for each module that breaks the rule."""
    out = {}
    for path in paths:
        words = _words(path.read_text(encoding="utf-8"))
        if words is None:
            out[str(path.relative_to(ROOT))] = "no docstring"
        elif words > MAX_WORDS:
            out[str(path.relative_to(ROOT))] = f"{words} words"
    return out


def test_every_module_docstring_is_short():
    assert _faults(_modules()) == {}


def test_the_rule_catches_a_long_docstring_and_a_missing_one(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    long = tmp_path / "long.py"
    long.write_text('"""' + "word " * (MAX_WORDS + 1) + '"""\n', encoding="utf-8")
    bare = tmp_path / "bare.py"
    bare.write_text("X = 1\n", encoding="utf-8")
    short = tmp_path / "short.py"
    short.write_text('"""' + "word " * MAX_WORDS + '"""\n', encoding="utf-8")
    assert _faults([long, bare, short]) == {"long.py": f"{MAX_WORDS + 1} words", "bare.py": "no docstring"}

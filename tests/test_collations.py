"""Each clause that orders text names its collation (``collation:`` in the catalogue, one of
:data:`conformance.corpus.collations.COLLATIONS`), the loader refuses any other, and the guides give
per collation a line of JavaScript, Python and Rust that gets it (``conformance/ADAPTERS.md``,
"Orderings"), with no advice that contradicts a clause."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.corpus.catalogue import load_catalogue
from conformance.corpus.collations import COLLATIONS

ROOT = Path(__file__).resolve().parent.parent
CAT = load_catalogue()
GUIDES = ["conformance/ADAPTERS.md", "conformance/PROTOCOL.md", "docs/adapters.md", "docs/protocol.md"]

# What a statement says when it orders something: it sorts, orders by, names a collation or a
# code-point order.
ORDERS = re.compile(r"\b(sort(ed|s|ing)?|ordered by|order of (their|the)|collation|alphabetic\w*|"
                    r"by (their |those paths as text, by )?(Unicode )?code points?)\b", re.I)
# Clauses whose statement orders something other than text, each with what it orders.
NOT_TEXT = {"ENV-ORDER-PRIORITY": "priorities, which are numbers"}


def _statement(cid: str) -> str:
    return " ".join(CAT.clauses[cid].statement.split())


def test_every_clause_that_orders_text_names_its_collation():
    ordering = {cid for cid in CAT.clauses if ORDERS.search(_statement(cid))}
    assert set(NOT_TEXT) <= ordering  # each exemption still orders something
    assert sorted(cid for cid in ordering - set(NOT_TEXT) if not CAT.clauses[cid].collation) == []
    # ... and the field is on no clause that orders nothing.
    assert sorted(cid for cid, c in CAT.clauses.items() if c.collation and cid not in ordering) == []
    assert sorted(cid for cid in NOT_TEXT if CAT.clauses[cid].collation) == []


def test_the_statement_says_what_its_collation_names():
    says = {"code-point": r"code point", "uca-root": r"Unicode Collation Algorithm|root collation",
            "lower-case-code-point": r"lower-case mapping|sorted like providers"}
    assert {cid: c.collation for cid, c in CAT.clauses.items()
            if c.collation and not re.search(says[c.collation], _statement(cid))} == {}


@pytest.mark.parametrize("value", ["true", "code-points", "unicode"])
def test_the_loader_refuses_a_collation_it_does_not_know(tmp_path, value):
    shutil.copy(ROOT / "conformance/spec/pi-templates.yaml", tmp_path / "pi-templates.yaml")
    path = tmp_path / "pi-templates.yaml"
    text = path.read_text(encoding="utf-8")
    assert "    collation: code-point\n" in text
    path.write_text(text.replace("    collation: code-point\n", f"    collation: {value}\n", 1), encoding="utf-8")
    line = text[: text.index("    collation: code-point\n")].count("\n") + 1
    errors = load_catalogue(tmp_path).errors
    assert errors and any(e.line == line and "collation" in e.field for e in errors), errors


def _table(path: str, first: str) -> dict[str, list[str]]:
    """The rows of the Markdown table whose header starts with ``first``, by their first cell."""
    rows, inside = {}, False
    for line in (ROOT / path).read_text(encoding="utf-8").splitlines():
        if line.startswith(f"| {first} |"):
            inside = True
            continue
        if inside and not line.startswith("|"):
            break
        if inside and not line.startswith("| ---"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_the_adapter_guide_gives_each_collation_in_three_languages_with_its_clauses():
    rows = _table("conformance/ADAPTERS.md", "collation")
    assert set(rows) == set(COLLATIONS)
    for name, (clauses, js, python, rust) in rows.items():
        named = set(re.findall(r"\b(?:ENV|PROF|PI)(?:-[A-Z0-9]+)+\b", re.sub(r"\([^)]*\)", "", clauses)))
        assert named == {cid for cid, c in CAT.clauses.items() if c.collation == name}, name
        assert all(cell.strip("`") for cell in (js, python, rust)), name


def test_the_specification_page_describes_each_collation_as_the_kit_does():
    rows = _table("docs/specification.md", "collation")
    assert {name: cells[0] for name, cells in rows.items()} == COLLATIONS


def test_no_guide_gives_one_comparison_for_every_ordering():
    uca_row = next(line for line in (ROOT / "conformance/ADAPTERS.md").read_text().splitlines()
                   if line.startswith("| `uca-root` |"))
    for guide in GUIDES:
        for line in (ROOT / guide).read_text(encoding="utf-8").splitlines():
            if line == uca_row:
                continue
            assert not re.search(r'localeCompare\(b, "en"\)|Intl\.Collator\("en"\)', line), (guide, line)
            assert "compare with `a.localeCompare" not in line, (guide, line)


SAMPLE = ["b", "a", "A", "a_b", "a-b", "a.b", "a/b", "a1", "a10", "a2", "ßa", "st", "SSA", "Σigma", "σigma",
          "\ufffd", "\U0001f600", "\ue000", "Mistral", "mistral", "é", "e\u0301", "z"]


def test_the_python_lines_give_the_references_orders():
    import pyuca

    from reference.envelope.collation import id_sort_key
    from reference.profiles.core.picker import provider_names
    from reference.profiles.core.types import Model

    rows = _table("conformance/ADAPTERS.md", "collation")
    assert rows["code-point"][2] == "`sorted(items)`"
    assert rows["lower-case-code-point"][2] == "`sorted(items, key=lambda s: (s.lower(), s))`"
    assert rows["uca-root"][2].startswith("`sorted(items, key=lambda s: (pyuca.Collator().sort_key(s), s))`")
    items = list(dict.fromkeys(SAMPLE))
    assert sorted(items, key=lambda s: (s.lower(), s)) == provider_names([Model(p, "m") for p in items])
    collator = pyuca.Collator()
    assert sorted(items, key=lambda s: (collator.sort_key(s), s)) == sorted(items, key=lambda s: (id_sort_key(s), s))


JS_LINES = {
    "code-point": "(a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))",
    "lower-case-code-point": "(a, b) => cp(a.toLowerCase(), b.toLowerCase()) || cp(a, b)",
}


def test_the_javascript_lines_give_the_same_orders_as_python():
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs node")
    guide = (ROOT / "conformance/ADAPTERS.md").read_text(encoding="utf-8")
    assert all(f"`{line}`" in guide.replace("\\|", "|") for line in JS_LINES.values())
    script = (f"const cp = {JS_LINES['code-point']};\n"
              f"const lower = {JS_LINES['lower-case-code-point']};\n"
              "const items = JSON.parse(process.argv[1]);\n"
              "process.stdout.write(JSON.stringify([[...items].sort(cp), [...items].sort(lower)]));\n")
    items = list(dict.fromkeys(SAMPLE))
    done = subprocess.run([node, "-e", script, json.dumps(items)], capture_output=True, text=True, check=True, timeout=60)
    by_code_point, by_lower = json.loads(done.stdout)
    assert by_code_point == sorted(items)
    assert by_lower == sorted(items, key=lambda s: (s.lower(), s))

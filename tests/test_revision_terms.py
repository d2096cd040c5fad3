"""The operations change by revisions, numbered per operation in one table (ADAPTERS.md,
"Revisions of the operations"); the guides speak of them in the same terms. Every "revision N of
`OP`" the envelope guide names is a row of that table, and neither file numbers the envelope
operations or the session scripts as a whole ("version 2 of the envelope operations"). Seen
failing on the guide's "Version 2 of the envelope operations" and "Version 2 of the scripts", and
on the table lacking envelope.developer-messages, envelope.build and envelope.session's revision 2."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "conformance" / "ADAPTERS.md"
GUIDE = ROOT / "docs" / "envelope.md"


def _table() -> set[tuple[str, int]]:
    text = ADAPTERS.read_text(encoding="utf-8")
    section = text.split("### Revisions of the operations", 1)[1].split("\n### ", 1)[0]
    return {(m.group(1), int(m.group(2))) for m in re.finditer(r"^\| `([a-z.-]+)` \| (\d+) \|", section, re.M)}


def _named(text: str) -> set[tuple[str, int]]:
    """(operation, revision) for each "revision N of `OP`" (and "`OP`'s revision N") in ``text``,
    a list of operations after one "of" included."""
    found = set()
    for m in re.finditer(r"[Rr]evision (\d+) of ((?:`[a-z.-]+`(?:,? (?:and )?)?)+)", " ".join(text.split())):
        found |= {(op, int(m.group(1))) for op in re.findall(r"`([a-z.-]+)`", m.group(2))}
    return found


def test_the_guide_names_only_revisions_of_the_table():
    named = _named(GUIDE.read_text(encoding="utf-8"))
    assert named and named <= _table(), sorted(named - _table())


def test_no_file_numbers_the_operations_as_a_whole():
    for path in (ADAPTERS, GUIDE):
        text = " ".join(path.read_text(encoding="utf-8").split())
        assert not re.search(r"[Vv]ersion \d+ of the (?:envelope operations|scripts)|operations are at version",
                             text), path.name


def test_every_revision_after_the_first_is_numbered_from_the_one_before():
    table = _table()
    for op, n in table:
        assert n == 2 or (op, n - 1) in table, (op, n)

"""Output fields that a clause decides for one operation are compared only in cases that cite
that clause: a golden records them for every case, and a case that does not cite the clause would
judge an implementation on the golden alone.

``envelope.settings``' ``toml`` is the stored form of the roles in force (ENV-AUDIT-TOML-FORM):
every case of the operation, an ignored value's included, cites it. Seen failing with the eight
cases of an ignored value or of no key that cited only ENV-AUDIT-SETTING-INVALID or ENV-AUDIT-TOML
(env-setting-role-padded and env-setting-role-other-case-beside-a-role among them)."""

from __future__ import annotations

from conformance.corpus.cases import load_suite

DECIDED = {("envelope.settings", "toml"): "ENV-AUDIT-TOML-FORM"}
"""(operation, output field) -> the clause that says what the field holds."""


def test_every_case_of_an_operation_cites_the_clause_that_decides_its_fields():
    cases = load_suite(areas=["envelope"]).cases
    missing = {f"{op}.{name}": sorted(c.id for c in cases if c.op == op and c.error_code is None and clause not in c.clauses)
               for (op, name), clause in DECIDED.items()}
    assert all(c.op != "envelope.settings" or c.error_code is None for c in cases)
    assert {k: v for k, v in missing.items() if v} == {}

"""Input partitions (category-partition): per operation, the input dimensions its clauses turn
on and the classes of each, with a predicate that says whether an input hits a class.

Declared from the clause statements of the spec catalogue, not from the cases; each class
names the clauses it comes from. One module per area holds its operations' classes as data.
``pi-conformance coverage --cells`` reports which suite cases and which generated examples
(:mod:`conformance.diff`'s, at a budget) hit each class, and the tests fail while a class is hit
by none of either (``tests/test_partitions.py``).
"""

from __future__ import annotations

from conformance.strategies.partitions import templates
from conformance.strategies.partitions.cells import Cell, Hit  # noqa: F401  (public names)

PARTITIONS: dict[str, list[Cell]] = {
    **templates.PARTITIONS,
}
"""Every operation's declared classes, by operation name."""

"""``pi-conformance coverage --cells``: each declared input class
(:mod:`conformance.strategies.partitions`) with the suite cases and the generated examples that
hit it (:func:`generated_examples`: what ``diff`` sends, the reference against itself, so nothing
shrinks); a class hit by no suite case or by no generated example is listed as unhit, and the
command exits 1 while one is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence


@dataclass
class CellsReport:
    """Per operation, per class label: ``suite`` the ids of the cases that hit it and
    ``generated`` the indexes (from 0, in the order drawn) of the examples that hit it;
    ``examples`` the budget; ``unhit`` ``(op, label, by)`` with ``by`` ``suite`` or ``diff``."""

    examples: int
    suite: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    generated: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    unhit: list[tuple[str, str, str]] = field(default_factory=list)

    def as_json(self) -> dict:
        """The report as one JSON object: ``cells`` (operation to its class labels), ``hitBySuite``
        and ``hitByDiff`` (operation to label to case ids or example indexes), ``unhit`` (objects
        with ``op``, ``class`` and ``by``), ``examples``."""
        return {"examples": self.examples, "cells": {op: list(rows) for op, rows in self.suite.items()},
                "hitBySuite": self.suite, "hitByDiff": self.generated,
                "unhit": [{"op": op, "class": label, "by": by} for op, label, by in self.unhit]}


def generated_examples(op: str, examples: int) -> list[tuple[dict, Any]]:
    """The examples ``diff`` sends for ``op`` at ``examples`` (the ``examples`` it draws,
    derandomized, then the operation's frames), in order."""
    from conformance.adapters.connect import make_adapter
    from conformance.diff import diff_operation

    drawn: list[tuple[dict, Any]] = []
    adapters = (make_adapter("reference"), make_adapter("reference"))
    for adapter in adapters:
        adapter.start()
    try:
        diff_operation(adapters, op, examples=examples, shrink=False, seen=lambda i, t: drawn.append((i, t)))
    finally:
        for adapter in adapters:
            adapter.stop()
    return drawn


def cells_report(cases: Sequence[Any], examples: int, ops: Sequence[str] | None = None,
                 draw: Callable[[str, int], list] = generated_examples) -> CellsReport:
    """Which of ``cases`` (loaded suite cases) and which examples ``draw`` gives hit each class
    of the operations ``ops`` (default: every operation with declared classes)."""
    from conformance.strategies.partitions import PARTITIONS
    from conformance.corpus.trees import tree_data

    report = CellsReport(examples)
    for op in ops or sorted(PARTITIONS):
        cells = PARTITIONS[op]
        mine = [(c.id, c.input, tree_data(c.tree) if c.tree is not None else None) for c in cases if c.op == op]
        drawn = draw(op, examples)
        report.suite[op] = {cell.label: [i for i, inp, tree in mine if cell.hit(inp, tree)] for cell in cells}
        report.generated[op] = {cell.label: [n for n, (inp, tree) in enumerate(drawn) if cell.hit(inp, tree)]
                                for cell in cells}
        for cell in cells:
            for by, hits in (("suite", report.suite[op]), ("diff", report.generated[op])):
                if not hits[cell.label]:
                    report.unhit.append((op, cell.label, by))
    return report


def format_cells(report: CellsReport) -> str:
    """The report as text: per operation, each class with its counts and first case ids."""
    lines = []
    for op, rows in report.suite.items():
        lines.append(f"{op}")
        for label, ids in rows.items():
            gen = report.generated[op][label]
            shown = ", ".join(ids[:3]) + (", ..." if len(ids) > 3 else "")
            lines.append(f"  {label:<55} suite {len(ids):>3}  diff {len(gen):>3}/{report.examples}  {shown}")
    lines.append(f"{len(report.unhit)} classes unhit" + "".join(f"\n  {op} {label} (by {by})"
                                                             for op, label, by in report.unhit))
    return "\n".join(lines)

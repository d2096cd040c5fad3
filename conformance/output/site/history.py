"""``history``'s HTML page: each release's counts, the cases newly failing and newly passing
between neighbouring releases, every clause and every case with its status in each release.

Drawn from ``history.json`` (:func:`conformance.output.history.build_history`) with the site's templates
(``templates/history.html``); one self-contained page, no script.
"""

from __future__ import annotations

from conformance.output.site import environment

# Worst first: a clause's cell is coloured by the worst status among its cases.
_SEVERITY = ("failed", "errored", "xpass", "xfail", "unsupported", "skipped", "absent", "passed")


def _clause_cell(counts: dict[str, int]) -> dict:
    total = sum(counts.values())
    worst = next((s for s in _SEVERITY if counts.get(s)), "none")
    return {"text": f"{counts.get('passed', 0)}/{total}", "worst": worst,
            "title": ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))}


def render_history(history: dict) -> str:
    """The HTML page of ``history`` (a ``history.json`` document)."""
    clauses = [{"id": c["id"], "cases": c["cases"], "cells": [_clause_cell(k) for k in c["status"]]}
               for c in history["clauses"]]
    changed = [c for c in history["cases"] if len(set(c["status"])) > 1]
    return environment().get_template("history.html").render(
        history=history, clauses=clauses, changed=changed, labels=[r["label"] for r in history["releases"]])

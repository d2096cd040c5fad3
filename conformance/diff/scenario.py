"""A :class:`~conformance.diff.Disagreement` as a scenario file that loads as written: one case citing
the operation's most general clause (the file's comments ask whoever commits it to cite the clauses
it reaches), with both answers as YAML comments."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from conformance.judge import golden
from conformance.adapters.base import Answer
from conformance.diff import Disagreement, SuiteFacts, suite_facts


def case_id(found: Disagreement) -> str:
    """``diff-<op with dots as dashes>-<8 hex digits>`` of a hash of the operation, input and tree
    (their keys in order: examples differing only in key order are two cases)."""
    digest = hashlib.sha256(json.dumps([found.op, found.input, found.tree],
                                       ensure_ascii=False).encode("utf-8")).hexdigest()[:8]
    return f"diff-{found.op.replace('.', '-')}-{digest}"


def general_clause(op: str) -> str:
    """The clause the most cases of ``op`` in the bundled suite cite (ties: the first by id).

    Raises ``LookupError`` when no case of the suite uses ``op``."""
    counts = suite_facts().get(op, SuiteFacts()).clauses
    if not counts:
        raise LookupError(f"no case of the suite uses {op}, so no clause can be cited")
    return min(counts, key=lambda c: (-counts[c], c))


def _answer_lines(name: str, answer: Answer) -> list[str]:
    """The comment lines giving one adapter's answer; its code and message are adapter text,
    shown through :func:`conformance.output.console.shown` (a line break in them would end the comment),
    and a result's bidirectional controls are written ``\\u202e``
    (:func:`conformance.output.console.bidi_escaped`)."""
    from conformance.output.console import bidi_escaped, shown

    message = shown(" ".join(answer.message.split()))
    if answer.kind == "result":
        try:
            body = bidi_escaped(golden.dump(answer.output)).rstrip("\n").splitlines()
        except ValueError:
            body = [shown(json.dumps(answer.output, ensure_ascii=False))]
        return [f"{name} answered a result:"] + ["  " + line for line in body]
    if answer.kind == "error":
        return [f"{name} answered error {shown(answer.code)}: {message}".rstrip(": ")]
    return [f"{name} answered {answer.kind}: {message}".rstrip(": ")]


def scenario_data(found: Disagreement, names: tuple[str, str]) -> dict:
    """The scenario file's data (format 1, the operation's area, one case): its :func:`case_id`, a
    title naming the two adapters, the example's input and tree, the normalisers the answers were
    compared under, and, when the first adapter refused, that refusal's ``error`` code. A case
    must cite a clause, and a generated example is not known to test any one rule, so it cites the
    operation's most general one (:func:`general_clause`)."""
    case: dict[str, Any] = {"id": case_id(found),
                            "title": f"{names[0]} and {names[1]} disagree on this {found.op} input",
                            "clauses": [general_clause(found.op)], "op": found.op}
    if found.tree is not None:
        case["tree"] = found.tree
        if any(isinstance(v, dict) and "symlink" in v for v in found.tree.values()):
            case["requires"] = ["symlinks"]
    case["input"] = found.input
    if found.answers[0].kind == "error":
        case["error"] = {"code": found.answers[0].code}
    if found.normalisers:
        case["normalise"] = list(found.normalisers)
    return {"format": 1, "area": found.op.split(".", 1)[0],
            "title": f"Disagreements of {names[0]} and {names[1]} on {found.op}", "cases": [case]}


def scenario_text(found: Disagreement, names: tuple[str, str]) -> str:
    """:func:`scenario_data` as YAML text, with the header comments (what was found, why the
    clause is cited, how to commit it) and both answers as comments at the end."""
    from conformance.invariants import scenario_yaml

    data = scenario_data(found, names)
    header = [
        f"Found by `pi-conformance diff`: {names[0]} and {names[1]} disagree on {found.op}.",
        f"The case cites {data['cases'][0]['clauses'][0]}, the clause most cases of {found.op} cite,",
        "because a case must cite one; replace it with the clauses this input reaches.",
        "Save under conformance/scenarios/<area>/, give the case a real title, write its golden with",
        "`pi-conformance run --update-goldens --case ID` and read it against the spec before committing.",
    ]
    footer = _answer_lines(names[0], found.answers[0]) + _answer_lines(names[1], found.answers[1])
    return ("".join(f"# {line}\n" for line in header) + scenario_yaml(data)
            + "".join(f"# {line}\n".replace("# \n", "#\n") for line in footer))

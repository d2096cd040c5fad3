"""pi.classifier-request -- PI-CLASSIFIER-REQUEST.
Bug: a question's `type` is checked before its `instructions`, so a question of an unknown type
that also lacks string instructions fails with classifier-question-type-unknown instead of
classifier-question-invalid.
"""

from __future__ import annotations

from reference.pi.core import classifiers

from tests.blind.common import everywhere, swapped

_original = classifiers.validate_classify_request


def _validate_classify_request(context):
    if isinstance(context, dict) and isinstance(context.get("questions"), dict):
        questions = {}
        for qid, q in context["questions"].items():
            if (isinstance(q, dict) and q.get("type") not in ("choice", "bool", "score")
                    and not isinstance(q.get("instructions"), str)):
                q = dict(q, instructions="")
            questions[qid] = q
        context = dict(context, questions=questions)
    return _original(context)


def handle(msg, call):
    with swapped(everywhere(_original, _validate_classify_request)):
        return call()

# shown on: {"input": {"provider": "typesafe", "model": "jev-latest", "request": {"state": {}, "questions": {"q": {"type": "rating", "criteria": ["a"]}}}}}

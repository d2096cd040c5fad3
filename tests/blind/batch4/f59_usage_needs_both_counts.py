"""pi.classifier-usage -- PI-CLASSIFIER-USAGE-REPORT.
Bug: a report counts only when it holds both input_tokens and output_tokens, so a report with one of them gives no usage instead of that count and a zero."""

from reference.pi.core import classifiers
from tests.blind.common import everywhere, swapped

_original = classifiers.classifier_usage


def _usage(report, cost):
    if isinstance(report, dict) and ("input_tokens" not in report or "output_tokens" not in report):
        return None
    return _original(report, cost)


def handle(msg, call):
    with swapped(everywhere(_original, _usage)):
        return call()

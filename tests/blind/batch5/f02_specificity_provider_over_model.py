"""profiles.match -- PROF-SPECIFICITY.
Bug: a rule with only its provider exact is scored above one with only its model exact (2 and 1 swapped), as if the provider were the more telling field."""

from reference.profiles.core import match
from tests.blind.common import everywhere, swapped


def _specificity(rule):
    provider, model = match.is_exact(rule.provider), match.is_exact(rule.model)
    if provider and model:
        return 3
    if provider:
        return 2
    if model:
        return 1
    return 0


def handle(msg, call):
    with swapped(everywhere(match.rule_specificity, _specificity)):
        return call()

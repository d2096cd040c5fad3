"""profiles.match -- PROF-MATCH-PATTERN.
Bug: rule fields are matched with Python's fnmatch.fnmatchcase, so besides "*" the characters "?" and "[...]" act as wildcards ("gpt-?" matches "gpt-4")."""

from fnmatch import fnmatchcase

from conformance.adapters.reference import profiles as adapter
from reference.profiles.core import match
from tests.blind.common import swapped


def pattern_matches(pattern, value):
    return True if pattern is None else fnmatchcase(value, pattern)


def binding_match(binding, model):
    best = None
    for rule in binding.match:
        if match.rule_matches(rule, model):
            spec = match.rule_specificity(rule)
            if best is None or spec > best[1]:
                best = (rule, spec)
    return best


def handle(msg, call):
    with swapped([(match, "pattern_matches", pattern_matches), (adapter, "binding_match", binding_match)]):
        return call()

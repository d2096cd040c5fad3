"""profiles.match -- PROF-MATCH-PATTERN.
Bug: rule fields are matched with a case-insensitive regular expression (new RegExp(..., "i")), so "OpenAI" matches "openai"."""

import re

from reference.profiles.core import match
from tests.blind.common import everywhere, swapped


def _matches(pattern, value):
    if pattern is None:
        return True
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, value, re.DOTALL | re.IGNORECASE) is not None


def _binding_match(binding, model):
    best = None
    for rule in binding.match:
        if not (_matches(rule.provider, model.provider) and _matches(rule.model, model.id)):
            continue
        spec = match.rule_specificity(rule)
        if best is None or spec > best[1]:
            best = (rule, spec)
    return best


def handle(msg, call):
    with swapped(everywhere(match.pattern_matches, _matches) + everywhere(match.binding_match, _binding_match)):
        return call()

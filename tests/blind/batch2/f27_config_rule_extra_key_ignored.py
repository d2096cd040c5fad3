"""profiles.config -- PROF-CONFIG-RULE-KEYS, PROF-CONFIG-RULE.
Bug: a rule's provider and model are checked and any other key is ignored, so a misspelt {"provder": "openai", "model": "x"} is kept as a rule that matches every provider."""

from reference.profiles.core import config
from reference.profiles.core.types import MatchRule
from tests.blind.common import swapped


def parse_rule(rule):
    if not isinstance(rule, dict):
        return None
    for key in ("provider", "model"):
        if key in rule and (not isinstance(rule[key], str) or rule[key] == ""):
            return None
    return MatchRule(rule.get("provider"), rule.get("model"))


def handle(msg, call):
    with swapped([(config, "parse_rule", parse_rule)]):
        return call()

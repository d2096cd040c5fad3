"""profiles.match -- PROF-SPECIFICITY.
Bug: only a field containing "*" counts as a pattern; an absent field counts as exact, so {model: "gpt-4o"} ranks 3 and {provider: "openai"} ranks 3."""

from reference.profiles.core import match
from tests.blind.common import everywhere, swapped


def _exact(field):
    return field is None or "*" not in field


def handle(msg, call):
    with swapped(everywhere(match.is_exact, _exact)):
        return call()

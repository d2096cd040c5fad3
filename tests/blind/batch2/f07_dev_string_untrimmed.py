"""envelope.developer-messages -- ENV-RENDER-TRIM, ENV-RENDER-CONTENT.
Bug: "a string content is used as is" is read as "never trimmed": only what a content function returns is trimmed, so a string content keeps its surrounding white space and a blank string is sent."""

from reference.envelope import contributions
from tests.blind.common import swapped

ORIGINAL = contributions.render_contribution


def render(contribution, context):
    if isinstance(contribution.content, str):
        return contribution.content or None
    return ORIGINAL(contribution, context)


def handle(msg, call):
    with swapped([(contributions, "render_contribution", render)]):
        return call()

"""envelope.developer-messages -- ENV-RENDER-TRIM, ENV-TRIM-JS.
Bug: rendered contributions are trimmed with Python's str.strip(), which also removes U+0085 and U+001C..U+001F, so a contribution made of those characters is dropped and its edges are cut."""

from reference.envelope import contributions
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(contributions.js_trim, lambda text: text.strip())):
        return call()

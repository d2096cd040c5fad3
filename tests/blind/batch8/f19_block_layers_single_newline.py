"""profiles.compose -- PROF-BLOCK.
Bug: the layer bodies inside the managed block are joined by a single line break instead of a
blank line, so a profile with a base reads as one paragraph run-on.
"""

from __future__ import annotations

from reference.profiles.core import compose
from reference.profiles.core.markers import BEGIN_MARKER, END_MARKER

from tests.blind.common import everywhere, swapped


def _managed_block(bodies):
    if not bodies:
        raise ValueError("a managed block needs at least one layer")
    return BEGIN_MARKER + "\n" + compose.control_statement() + "\n\n" + "\n".join(bodies) + "\n\n" + END_MARKER


def handle(msg, call):
    with swapped(everywhere(compose.managed_block, _managed_block)):
        return call()

# shown on: {"input": {"systemPrompt": "Base.", "layers": ["Child body.", "Parent body."]}}

r"""profiles.compose -- PROF-COMPOSE, PROF-DECISION-BLOCK.
Bug: the prompt is built by joining the non-empty parts with "\n\n", so with an empty base prompt
(after stripping) it ends with the end marker, without the trailing "\n\n".
"""

from __future__ import annotations

from reference.profiles.core import compose

from tests.blind.common import everywhere, swapped


def _compose(base, bodies, *, off=False):
    if off or not bodies:
        return compose.Composition(None, None, 0, [])
    stripped = compose.strip_blocks(base or "")
    block = compose.managed_block(bodies)
    rest = compose.strip_leading_newlines(stripped.text)
    prompt = "\n\n".join(part for part in (block, rest) if part)
    return compose.Composition(prompt, block, stripped.removed, stripped.diagnostics)


def handle(msg, call):
    with swapped(everywhere(compose.compose, _compose)):
        return call()


# shown on: {"op": "profiles.compose", "input": {"systemPrompt": "", "layers": ["Be brief."]}}

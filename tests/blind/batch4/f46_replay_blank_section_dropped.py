"""pi.replay-system -- PI-REPLAY-RENDER.
Bug: parts are left out of the rendered prompt when they are blank after trimming, so a section (or content) of white space only disappears though only empty parts are left out."""

from reference.pi.core import replay
from reference.text import js_trim
from tests.blind.common import everywhere, swapped


def _render(state):
    parts = ["\n\n".join(state.content), *state.sections.values()]
    return "\n\n".join(part for part in parts if js_trim(part))


def handle(msg, call):
    with swapped(everywhere(replay.render_system_prompt, _render)):
        return call()

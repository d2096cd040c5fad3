"""pi.replay-system -- PI-REPLAY-REPLACE.
Bug: replace: true starts the instruction texts afresh but keeps the earlier sections and tools, though it establishes a complete new baseline."""

from reference.pi.core import replay
from tests.blind.common import everywhere, swapped


def _start(state, message):
    if message.get("replace") is True:
        return replay.SystemState(content=[], sections=state.sections, tools=state.tools)
    return state


def handle(msg, call):
    with swapped(everywhere(replay.start_baseline, _start)):
        return call()

"""pi.replay-system -- PI-REPLAY-TOOLS.
Bug: a system message's toolsAdded are applied before its toolsRemoved, so a message that removes
a tool and adds it again (to move it last or redefine it) ends without it.
"""

from __future__ import annotations

from reference.pi.core import replay

from tests.blind.common import everywhere, swapped


def _apply_tools(state, message):
    for tool in message.get("toolsAdded") or []:
        state.tools[tool["name"]] = tool
    for ref in message.get("toolsRemoved") or []:
        state.tools.pop(ref["name"], None)


def handle(msg, call):
    with swapped(everywhere(replay.apply_tools, _apply_tools)):
        return call()


# shown on: {"op": "pi.replay-system", "input": {"messages": [{"role": "system", "content": "base", "toolsAdded": [{"name": "read", "description": "read", "parameters": {}}, {"name": "bash", "description": "bash", "parameters": {}}], "timestamp": 1}, {"role": "system", "content": "", "toolsRemoved": [{"name": "read"}], "toolsAdded": [{"name": "read", "description": "read", "parameters": {}}], "timestamp": 2}]}}

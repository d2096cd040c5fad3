"""pi.replay-system -- PI-REPLAY-TOOLS.
Bug: a system message's toolsAdded are applied before its toolsRemoved, so a tool a message both removes and adds (to redefine it) ends up removed."""

from reference.pi.core import replay
from tests.blind.common import swapped


def apply_tools(state, message):
    for tool in message.get("toolsAdded") or []:
        state.tools[tool["name"]] = tool
    for ref in message.get("toolsRemoved") or []:
        state.tools.pop(ref["name"], None)


def handle(msg, call):
    with swapped([(replay, "apply_tools", apply_tools)]):
        return call()

"""envelope.context-hook -- ENV-AUDIT-STRIP.
Bug: an audit message is recognised by its customType alone, so a message of an audit type whose
role is "user" (or "Custom") is removed from the model context too, instead of being kept.
"""

from __future__ import annotations

from reference.envelope import context_files

from tests.blind.common import everywhere, swapped


def _is_audit_message(message):
    return isinstance(message, dict) and message.get("customType") in context_files.AUDIT_TYPES


def handle(msg, call):
    with swapped(everywhere(context_files.is_audit_message, _is_audit_message)):
        return call()


# shown on: {"op": "envelope.context-hook", "input": {"cwd": "/work/p", "messages": [{"role": "user", "customType": "@luan.sh/pi-developer-messages/group", "content": "hi", "timestamp": 1}, {"role": "custom", "customType": "@luan.sh/pi-developer-messages/group", "content": "", "display": false, "timestamp": 2}]}}

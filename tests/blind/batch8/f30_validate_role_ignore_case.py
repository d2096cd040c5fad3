"""pi.validate-message -- PI-MSG-UNKNOWN-ROLE.
Bug: the role is looked up without regard to case, so a message with role `User` is checked as a
user message (and its problems reported) instead of being an unknown role, opaque and valid.
"""

from __future__ import annotations

from reference.pi.core import messages

from tests.blind.common import everywhere, swapped

_original = messages.validate_message


def _validate_message(message, *, persist=True, models=None):
    table = messages.MESSAGE_MODELS if models is None else models
    folded = {k.lower(): v for k, v in table.items()}
    if isinstance(message, dict) and isinstance(message.get("role"), str):
        role = message["role"]
        if role not in table and role.lower() in folded:
            table = dict(table, **{role: folded[role.lower()]})
    return _original(message, persist=persist, models=table)


def handle(msg, call):
    with swapped(everywhere(_original, _validate_message)):
        return call()

# shown on: {"input": {"message": {"role": "User", "content": 5}}}

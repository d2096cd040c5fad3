"""envelope.session -- ENV-ENTRY-MESSAGES.
Bug: a `custom_message` (or `branch_summary`) entry's message is built with every field read by
name, so a field the entry does not have is given as `null` instead of being left out.
"""

from __future__ import annotations

from reference.envelope import session

from tests.blind.common import everywhere, swapped


def _copied(entry, head, fields):
    return {**head, **{f: entry.get(f) for f in fields}, "timestamp": 0}


def handle(msg, call):
    with swapped(everywhere(session._copied, _copied)):
        return call()

# shown on: {"input": {"host": {"platform": "linux", "shell": "/bin/bash", "date": "2026-01-05"}, "steps": [{"entry": {"sessionId": "s", "entry": {"type": "custom_message", "customType": "note", "content": "hi"}}}, {"context": {"sessionId": "s"}}]}}

"""envelope.session -- ENV-AUDIT-STRIP, ENV-AUDIT-EARLIER.
Bug: only the group audit type is stripped; custom messages of the earlier per-instruction
audit types (.../developer, .../context-user) stay in the model context, the compaction input and
the tree-summary input.
"""

from __future__ import annotations

from reference.envelope import context_files

from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(context_files, "AUDIT_TYPES", (context_files.AUDIT_GROUP_TYPE,))]):
        return call()


# shown on: {"op": "envelope.session", "input": {"host": {"platform": "linux", "date": "2026-12-04", "shell": "/bin/bash", "timezone": "Europe/Paris"}, "steps": [{"entry": {"sessionId": "s", "entry": {"type": "custom_message", "customType": "@luan.sh/pi-developer-messages/developer", "content": "old", "display": false}}}, {"append": {"sessionId": "s", "message": {"role": "user", "content": "hello", "timestamp": 1}}}, {"compact": {"sessionId": "s"}}]}}

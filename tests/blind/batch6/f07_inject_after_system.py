"""envelope.context-hook -- ENV-CTX-INJECT.
Bug: the new context-files message is put after the leading system messages instead of first,
before all history, taking system messages for something other than history.
"""

from __future__ import annotations

from reference.envelope import context_files

from tests.blind.common import everywhere, swapped


def _inject_context(messages, message):
    rest = [m for m in context_files.strip_audit(messages)
            if not context_files.is_custom_of(m, context_files.AGENTS_MD_TYPE)]
    if message is None:
        return rest
    at = 0
    while at < len(rest) and isinstance(rest[at], dict) and rest[at].get("role") == "system":
        at += 1
    return rest[:at] + [message] + rest[at:]


def handle(msg, call):
    with swapped(everywhere(context_files.inject_context, _inject_context)):
        return call()

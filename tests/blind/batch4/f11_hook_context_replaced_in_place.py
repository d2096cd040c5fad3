"""envelope.context-hook -- ENV-CTX-INJECT.
Bug: the new context-files message takes the place of the earlier copy where it stood, and is put first only when the history held none."""

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped


def _inject(messages, message):
    out, placed = [], False
    for m in messages:
        if context_files.is_custom_of(m, context_files.AGENTS_MD_TYPE):
            if not placed and message is not None:
                out.append(message)
            placed = True
        elif not context_files.is_audit_message(m):
            out.append(m)
    return out if placed or message is None else [message] + out


def handle(msg, call):
    with swapped(everywhere(context_files.inject_context, _inject)):
        return call()

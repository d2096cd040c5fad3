"""envelope.context-hook -- ENV-AUDIT-STRIP, ENV-CTX-INJECT.
Bug: only custom messages of the group audit type are removed from the context; the earlier per-instruction audit types reach the model."""

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped


def _is_audit(message):
    return context_files.is_custom_of(message, context_files.AUDIT_GROUP_TYPE)


def handle(msg, call):
    with swapped(everywhere(context_files.is_audit_message, _is_audit)):
        return call()

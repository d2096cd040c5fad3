"""envelope.context-hook -- ENV-AUDIT-STRIP.
Bug: a message is taken for an audit copy only when it has role "custom" written out, so an audit entry without a role field (a custom-message entry as stored) reaches the model."""

from reference.envelope import context_files
from tests.blind.common import everywhere, swapped


def _is_audit(message):
    return isinstance(message, dict) and message.get("role") == "custom" and message.get("customType") in context_files.AUDIT_TYPES


def handle(msg, call):
    with swapped(everywhere(context_files.is_audit_message, _is_audit)):
        return call()

"""envelope.context-hook -- ENV-AUDIT-EARLIER, ENV-AUDIT-STRIP, ENV-CTX-INJECT.
Bug: the hook removes custom messages of the group audit type only; those of the earlier per-instruction audit types (.../developer, .../context-user) reach the model."""

from reference.envelope import context_files as cf
from tests.blind.common import swapped


def handle(msg, call):
    with swapped([(cf, "AUDIT_TYPES", (cf.AUDIT_GROUP_TYPE,))]):
        return call()

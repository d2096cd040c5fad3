"""envelope.session -- ENV-AUDIT-CHANGED.
Bug: an item is compared with the latest audit of its role and id anywhere in the session file, other branches included, so after navigating back an instruction recorded only on the abandoned branch is not recorded again."""

from reference.envelope import audit, service
from tests.blind.common import swapped


def publish_audit(self, session_id, envelope):
    log = self.log(session_id)
    items = audit.changed_items(audit.audit_items(envelope, self.auditEntries), list(log.entries.values()))
    entry = audit.audit_entry(items)
    return log.append(entry) if entry is not None else None


def handle(msg, call):
    with swapped([(service.EnvelopeService, "publish_audit", publish_audit)]):
        return call()

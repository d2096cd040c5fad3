"""envelope.settings -- ENV-AUDIT-SETTING-INVALID, ENV-AUDIT-SETTING.
Bug: an auditEntries list with an unknown role keeps its known roles (the unknown ones are filtered out) instead of being ignored as a whole with the default applied."""

from reference.envelope import audit
from tests.blind.common import swapped

ORIGINAL = audit.audit_setting


def audit_setting(value):
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v for v in value if v in audit.ROLES), []
    return ORIGINAL(value)


def handle(msg, call):
    with swapped([(audit, "audit_setting", audit_setting)]):
        return call()

"""envelope.settings -- ENV-AUDIT-SETTING.
Bug: the roles are made distinct when read (dict.fromkeys), so ["developer", "developer"] is stored as ["developer"] instead of as given."""

from reference.envelope import audit
from tests.blind.common import everywhere, swapped

_orig = audit.audit_setting


def _setting(value):
    roles, diagnostics = _orig(value)
    return tuple(dict.fromkeys(roles)), diagnostics


def handle(msg, call):
    with swapped(everywhere(audit.audit_setting, _setting)):
        return call()

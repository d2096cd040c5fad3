"""envelope.settings -- ENV-AUDIT-SETTING-INVALID, ENV-AUDIT-SETTING.
Bug: roles are compared ignoring case and stored lower-cased, so ["Developer"] is taken as ["developer"] instead of being refused for the default."""

from reference.envelope import audit
from tests.blind.common import everywhere, swapped

_original = audit.audit_setting


def _setting(value):
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = [v.lower() if v.lower() in audit.ROLES else v for v in value]
    return _original(value)


def handle(msg, call):
    with swapped(everywhere(_original, _setting)):
        return call()

"""envelope.settings -- ENV-AUDIT-SETTING, ENV-AUDIT-TOML-FORM.
Bug: the auditEntries list is read as a set of roles, so a role written twice is kept once
(and the stored form lists it once).
"""

from __future__ import annotations

from reference.envelope import audit

from tests.blind.common import everywhere, swapped

_original = audit.audit_setting


def _audit_setting(value):
    roles, diagnostics = _original(value)
    return tuple(dict.fromkeys(roles)), diagnostics


def handle(msg, call):
    with swapped(everywhere(audit.audit_setting, _audit_setting)):
        return call()


# shown on: {"op": "envelope.settings", "input": {"toml": "[appearance]\npi-developer-messages.auditEntries = [\"developer\", \"developer\"]\n"}}

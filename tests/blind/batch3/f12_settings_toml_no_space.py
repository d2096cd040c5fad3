"""envelope.settings -- ENV-AUDIT-TOML-FORM.
Bug: the stored roles are joined with "," (JSON.stringify of the list), not ", "."""

from reference.envelope import audit
from tests.blind.common import everywhere, swapped


def _toml(roles):
    items = ",".join(f'"{r}"' for r in roles)
    return f"[{audit.TOML_TABLE}]\n{audit.TOML_KEY}.auditEntries = [{items}]\n"


def handle(msg, call):
    with swapped(everywhere(audit.settings_to_toml, _toml)):
        return call()

"""envelope.settings -- ENV-AUDIT-TOML, ENV-AUDIT-SETTING-INVALID.
Bug: an xsettings.toml that is not valid TOML is ignored by recording no audit roles at all
(auditing switched off) instead of falling back to the default roles.
"""

from __future__ import annotations

import tomllib

from reference.envelope import audit

from tests.blind.common import everywhere, swapped

_original = audit.settings_from_toml


def _settings_from_toml(text):
    if text is not None:
        try:
            tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            return (), [audit._diagnostic("settings-toml-invalid", f"xsettings.toml is not valid TOML ({exc})")]
    return _original(text)


def handle(msg, call):
    with swapped(everywhere(_original, _settings_from_toml)):
        return call()

# shown on: {"input": {"toml": "[appearance\npi-developer-messages.auditEntries = [\"developer\"]\n"}}

"""envelope.settings -- ENV-AUDIT-TOML.
Bug: once the file parses as TOML, the setting is looked up line by line: only a line
"pi-developer-messages.auditEntries = ..." under a literal "[appearance]" header counts, so the
same key written as a [appearance.pi-developer-messages] table or a top-level dotted key gives the default.
"""

from __future__ import annotations

import re
import tomllib

from reference.envelope import audit

from tests.blind.common import everywhere, swapped

_original = audit.settings_from_toml
_HEADER = re.compile(r"\s*\[([^\[\]]+)\]\s*(?:#.*)?")
_KEY = re.compile(r"\s*pi-developer-messages\.auditEntries\s*=\s*(.+)")


def _settings_from_toml(text):
    roles, diagnostics = _original(text)
    if text is None or diagnostics and diagnostics[0]["code"] == "settings-toml-invalid":
        return roles, diagnostics
    table = None
    for line in text.splitlines():
        header = _HEADER.fullmatch(line)
        if header:
            table = header.group(1).strip()
            continue
        key = _KEY.fullmatch(line)
        if key and table == "appearance":
            try:
                value = tomllib.loads("v = " + key.group(1))["v"]
            except tomllib.TOMLDecodeError:
                break
            return audit.audit_setting(value)
    return audit.audit_setting(None)


def handle(msg, call):
    with swapped(everywhere(_original, _settings_from_toml)):
        return call()

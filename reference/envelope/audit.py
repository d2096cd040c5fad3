"""Audit entries: the setting, what is written, and when (note N8).

After each capture the envelope service writes at most one audit entry on the session's current
branch: a custom message of type ``@luan.sh/pi-developer-messages/group`` whose ``details`` are
``{"entries": [{"role", "id", "content"}, ...]}``, holding only the items that are new or changed.
"""

from __future__ import annotations

import tomllib
from typing import Any, Iterable, Sequence

from reference.envelope.build import Envelope
from reference.envelope.context_files import AUDIT_GROUP_TYPE, is_custom_of

SETTINGS_NAMESPACE = "@luan.sh/pi-developer-messages"
TOML_TABLE = "appearance"
TOML_KEY = "pi-developer-messages"
ROLES = ("developer", "context-user")
DEFAULT_AUDIT_ENTRIES: tuple[str, ...] = ("developer", "context-user")
CONTEXT_AUDIT_ID = "agents-md"
"""Id of the audit item that records the context-files message (role ``user``)."""


def audit_setting(value: Any) -> tuple[tuple[str, ...], list[str]]:
    """The ``auditEntries`` setting from a raw value.

    Clauses:
        ENV-AUDIT-SETTING: absent (``None``) means the default ``["developer", "context-user"]``;
            a list of the roles ``developer`` and ``context-user`` (any subset, ``[]`` included) is
            used as given.
        ENV-AUDIT-SETTING-INVALID: a value that is not such a list (another type, or an unknown
            role) is ignored as a whole: the default applies and one diagnostic names the value.

    Returns:
        ``(roles, diagnostics)``.
    """
    if value is None:
        return DEFAULT_AUDIT_ENTRIES, []
    if isinstance(value, list) and all(isinstance(v, str) and v in ROLES for v in value):
        return tuple(value), []
    return DEFAULT_AUDIT_ENTRIES, [
        f"auditEntries must be a list of {', '.join(ROLES)}; got {value!r}; the default applies"
    ]


def settings_from_toml(text: str | None) -> tuple[tuple[str, ...], list[str]]:
    """The ``auditEntries`` setting from the text of ``xsettings.toml`` (``None``: no file).

    Clauses:
        ENV-AUDIT-TOML: the value is read from table ``[appearance]``, dotted key
            ``pi-developer-messages.auditEntries``; no file, or no such key, gives the default.
            A file that is not valid TOML is ignored with a diagnostic (default applies).

    Returns:
        ``(roles, diagnostics)``.
    """
    if text is None:
        return audit_setting(None)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        roles, _ = audit_setting(None)
        return roles, [f"xsettings.toml is not valid TOML ({exc}); the default applies"]
    table = doc.get(TOML_TABLE)
    section = table.get(TOML_KEY) if isinstance(table, dict) else None
    value = section.get("auditEntries") if isinstance(section, dict) else None
    return audit_setting(value)


def settings_to_toml(roles: Sequence[str]) -> str:
    """The setting as it is stored in ``xsettings.toml`` (seed 000 'Settings').

    Clauses:
        ENV-AUDIT-TOML-FORM: ``[appearance]`` then ``pi-developer-messages.auditEntries = [...]`` with
            the roles as double-quoted strings separated by ``, ``, ending with a newline.
    """
    items = ", ".join(f'"{r}"' for r in roles)
    return f"[{TOML_TABLE}]\n{TOML_KEY}.auditEntries = [{items}]\n"


def audit_items(envelope: Envelope, roles: Iterable[str]) -> list[dict[str, str]]:
    """The items an envelope would record, for the selected roles.

    Clauses:
        ENV-AUDIT-ROLES: only the selected roles are recorded: ``developer`` records the
            developer messages (environment included), ``context-user`` the context-files message
            (when there is one) with role ``user``. Provider instructions are never recorded.
        ENV-AUDIT-ITEMS: developer items are ``{role: "developer", id, content}`` in message
            order; the context item is ``{role: "user", id: "agents-md", content}`` and comes
            after them.
    """
    selected = set(roles)
    items: list[dict[str, str]] = []
    if "developer" in selected:
        items += [{"role": "developer", "id": m.id, "content": m.content} for m in envelope.developerMessages]
    if "context-user" in selected and envelope.contextMessage is not None:
        items.append({"role": "user", "id": CONTEXT_AUDIT_ID, "content": envelope.contextMessage["content"]})
    return items


def latest_audits(branch: Iterable[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """The latest recorded content of each ``(role, id)`` among the audit entries of ``branch``
    (entries root-first; later entries win)."""
    latest: dict[tuple[str, str], str] = {}
    for entry in branch:
        if entry.get("type") == "custom_message" and is_custom_of(entry, AUDIT_GROUP_TYPE):
            for item in entry["details"]["entries"]:
                latest[(item["role"], item["id"])] = item["content"]
    return latest


def changed_items(items: Iterable[dict[str, str]], branch: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    """The items that are new or changed.

    Clauses:
        ENV-AUDIT-CHANGED: an item is kept when no audit entry on the current branch records its
            role and id, or when the latest one that does records other content. Only the current
            branch counts (another branch's audits are not seen); entries written before a resume
            count like any other.
    """
    latest = latest_audits(branch)
    return [i for i in items if latest.get((i["role"], i["id"])) != i["content"]]


def audit_entry(items: Sequence[dict[str, str]]) -> dict[str, Any] | None:
    """The custom-message entry to append, or ``None`` when there is nothing to write.

    Clauses:
        ENV-AUDIT-GROUP: one entry ``{type: "custom_message", customType:
            "@luan.sh/pi-developer-messages/group", content, display: true, details: {entries}}``
            per capture.
        ENV-AUDIT-CONTENT: the entry's ``content`` is one line ``ROLE ID`` per item, in item
            order (the labels of the collapsed rows); it is display text and never reaches a
            model.
        ENV-AUDIT-NOTHING: with no new or changed item nothing is written.
    """
    if not items:
        return None
    return {
        "type": "custom_message",
        "customType": AUDIT_GROUP_TYPE,
        "content": "\n".join(f"{i['role']} {i['id']}" for i in items),
        "display": True,
        "details": {"entries": [dict(i) for i in items]},
    }

"""Audit entries: the setting, what is written, and when (ENV-DECISION-AUDIT). After each capture at
most one custom entry on the session's current branch, holding only the items that are new or
changed; audit entries of the earlier per-instruction types are read too (ENV-AUDIT-EARLIER)."""

from __future__ import annotations

import json
import tomllib
from typing import Any, Iterable, Sequence

from reference.envelope.build import Envelope
from reference.envelope.context_files import AUDIT_GROUP_TYPE, AUDIT_TYPES

SETTINGS_NAMESPACE = "@luan.sh/pi-developer-messages"
TOML_TABLE = "appearance"
TOML_KEY = "pi-developer-messages"
ROLES = ("developer", "context-user")
DEFAULT_AUDIT_ENTRIES: tuple[str, ...] = ("developer", "context-user")
CONTEXT_AUDIT_ID = "agents-md"
"""Id of the audit item that records the context-files message (role ``user``)."""


def _diagnostic(code: str, message: str) -> dict[str, str]:
    return {"level": "warn", "code": code, "message": message}


def audit_setting(value: Any) -> tuple[tuple[str, ...], list[dict[str, str]]]:
    """The ``auditEntries`` setting from a raw value.

    Clauses:
        ENV-AUDIT-SETTING: absent (``None``) means the default ``["developer", "context-user"]``;
            a list of the roles ``developer`` and ``context-user`` (any subset, ``[]`` included) is
            used as given.
        ENV-AUDIT-SETTING-INVALID: a value that is not such a list (another type, or an unknown
            role) is ignored as a whole: the default applies and one diagnostic
            (``{"level": "warn", "code": "audit-entries-invalid", "message"}``) names the value.

    Returns:
        ``(roles, diagnostics)``.
    """
    if value is None:
        return DEFAULT_AUDIT_ENTRIES, []
    if isinstance(value, list) and all(isinstance(v, str) and v in ROLES for v in value):
        return tuple(value), []
    return DEFAULT_AUDIT_ENTRIES, [_diagnostic(
        "audit-entries-invalid", f"auditEntries must be a list of {', '.join(ROLES)}; got {json.dumps(value, default=str)}; the default applies")]


def settings_from_toml(text: str | None) -> tuple[tuple[str, ...], list[dict[str, str]]]:
    """The ``auditEntries`` setting from the text of ``xsettings.toml`` (``None``: no file).

    Clauses:
        ENV-AUDIT-TOML: the value is read from table ``[appearance]``, dotted key
            ``pi-developer-messages.auditEntries``; no file, or no such key, gives the default.
            A file that is not valid TOML is ignored with a diagnostic (code
            ``settings-toml-invalid``, ENV-AUDIT-SETTING-INVALID; the default applies).

    Returns:
        ``(roles, diagnostics)``.
    """
    if text is None:
        return audit_setting(None)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        roles, _ = audit_setting(None)
        return roles, [_diagnostic("settings-toml-invalid", f"xsettings.toml is not valid TOML ({exc}); the default applies")]
    table = doc.get(TOML_TABLE)
    section = table.get(TOML_KEY) if isinstance(table, dict) else None
    value = section.get("auditEntries") if isinstance(section, dict) else None
    return audit_setting(value)


def settings_to_toml(roles: Sequence[str]) -> str:
    """The setting as it is stored in ``xsettings.toml`` (the pi-developer-messages README 'Settings').

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


AUDIT_ITEM_ROLES = ("developer", "user")


def audit_item(value: Any) -> dict[str, str] | None:
    """``value`` as an audit item ``{role, id, content}``, or ``None`` when it is not one.

    Clauses:
        ENV-AUDIT-READ: an item is an object whose ``role`` is ``developer`` or ``user`` and whose
            ``id`` and ``content`` are strings; other fields are ignored.
    """
    if not isinstance(value, dict) or value.get("role") not in AUDIT_ITEM_ROLES:
        return None
    if not isinstance(value.get("id"), str) or not isinstance(value.get("content"), str):
        return None
    return {"role": value["role"], "id": value["id"], "content": value["content"]}


def recorded_items(entry: Any) -> list[dict[str, str]]:
    """The items an entry records as audits (empty for every entry that is not a readable audit).

    Clauses:
        ENV-AUDIT-READ: only custom entries (``type: "custom"``) of an audit type are read. A group
            entry records the items of ``data.entries``; an entry whose ``data`` is not an object,
            whose ``entries`` is not a list, or with one item that :func:`audit_item` refuses,
            records nothing at all. Such an entry is kept as it is and never makes a capture fail.
        ENV-AUDIT-EARLIER: an entry of an earlier per-instruction type
            (``@luan.sh/pi-developer-messages/developer`` or ``.../context-user``) records its
            ``data`` as one item, when :func:`audit_item` accepts it.
    """
    if not isinstance(entry, dict) or entry.get("type") != "custom" or entry.get("customType") not in AUDIT_TYPES:
        return []
    data = entry.get("data")
    if entry["customType"] != AUDIT_GROUP_TYPE:
        item = audit_item(data)
        return [item] if item is not None else []
    raw = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        return []
    items = [audit_item(v) for v in raw]
    return [i for i in items if i is not None] if all(i is not None for i in items) else []


def latest_audits(branch: Iterable[Any]) -> dict[tuple[str, str], str]:
    """The latest recorded content of each ``(role, id)`` among the audit entries of ``branch``
    (entries root-first; later entries win; see :func:`recorded_items`)."""
    latest: dict[tuple[str, str], str] = {}
    for entry in branch:
        for item in recorded_items(entry):
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
    """The custom entry to append, or ``None`` when there is nothing to write.

    Clauses:
        ENV-AUDIT-GROUP: one custom entry ``{type: "custom", customType:
            "@luan.sh/pi-developer-messages/group", data: {entries}}`` per capture.
        ENV-AUDIT-CONTENT: the entry has no ``content``, ``display`` or ``details``: it is
            extension state, its rows are rendered from ``data.entries``, and it is never part of
            a model context.
        ENV-AUDIT-NOTHING: with no new or changed item nothing is written.
    """
    if not items:
        return None
    return {"type": "custom", "customType": AUDIT_GROUP_TYPE, "data": {"entries": [dict(i) for i in items]}}

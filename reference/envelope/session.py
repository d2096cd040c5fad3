"""A session's entry tree, as far as the envelope needs it (note N8).

Pi stores a session as entries that each name their parent; the *current branch* is the path from
the root to the current leaf. New entries are appended below the leaf; navigating moves the leaf.
Entries here are plain JSON objects with ``id`` (``e1``, ``e2``, ... in order of creation),
``parentId`` and either ``type: "message"`` with a ``message``, or ``type: "custom_message"`` with
``customType``, ``content``, ``display`` and ``details`` (the shape of Pi's custom-message entry).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reference.errors import SpecError


@dataclass
class SessionLog:
    """One session's entries and its current leaf.

    Attributes:
        entries: every entry by id, in creation order.
        leaf: id of the current leaf, or ``None`` before the first entry (or after navigating to
            the root).
    """

    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    leaf: str | None = None

    def append(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Append ``entry`` (without ``id``/``parentId``) below the leaf; returns the stored entry."""
        stored = {"id": f"e{len(self.entries) + 1}", "parentId": self.leaf, **entry}
        self.entries[stored["id"]] = stored
        self.leaf = stored["id"]
        return stored

    def path_to(self, entry_id: str | None) -> list[dict[str, Any]]:
        """Entries from the root to ``entry_id`` inclusive (empty for ``None``)."""
        path: list[dict[str, Any]] = []
        current = entry_id
        while current is not None:
            entry = self.entries[current]
            path.append(entry)
            current = entry["parentId"]
        path.reverse()
        return path

    def branch(self) -> list[dict[str, Any]]:
        """The current branch: entries from the root to the leaf."""
        return self.path_to(self.leaf)

    def navigate(self, entry_id: str | None) -> list[dict[str, Any]]:
        """Move the leaf to ``entry_id`` and return the abandoned entries (root-first order): those
        on the old branch that are not on the new one.

        Raises:
            SpecError: ``session-entry-unknown`` for an id that is not in the session.
        """
        if entry_id is not None and entry_id not in self.entries:
            raise SpecError("session-entry-unknown", f"no entry {entry_id!r} in this session", path="to")
        keep = {e["id"] for e in self.path_to(entry_id)}
        abandoned = [e for e in self.branch() if e["id"] not in keep]
        self.leaf = entry_id
        return abandoned


def entry_message(entry: dict[str, Any]) -> dict[str, Any]:
    """The message an entry contributes to a context: a message entry's ``message``; a custom
    message entry as ``{role: "custom", customType, content, display, details, timestamp: 0}``."""
    if entry["type"] == "message":
        return entry["message"]
    return {
        "role": "custom",
        "customType": entry["customType"],
        "content": entry["content"],
        "display": entry["display"],
        "details": entry["details"],
        "timestamp": 0,
    }


def entry_messages(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`entry_message` of each entry, in order."""
    return [entry_message(e) for e in entries]

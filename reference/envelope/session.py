"""A session's entry tree, as far as the envelope needs it (ENV-DECISION-AUDIT): entries that name
their parent, the current branch, and the model messages of its entries. An entry's fields are
never trusted: every reader copes with a field that is missing or of another type."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reference.errors import SpecError


@dataclass
class SessionLog:
    """One session's entries and its current leaf.

    Pi stores a session as entries that each name their parent; the *current branch* is the path
    from the root to the current leaf. New entries are appended below the leaf; navigating moves
    the leaf. Entries are plain JSON objects with ``id`` (``e1``, ``e2``, ... in order of creation)
    and ``parentId``, given by the log, and whatever else the writer put in them: ``type:
    "message"`` with a ``message``; ``type: "custom"`` with ``customType`` and ``data`` (extension
    state, never part of a model context; audit entries have this shape); ``type:
    "custom_message"`` with ``customType``, ``content``, ``display`` and ``details``; ``type:
    "branch_summary"`` with ``summary`` and ``fromId``; or any other kind.

    Attributes:
        entries: every entry by id, in creation order.
        leaf: id of the current leaf, or ``None`` before the first entry (or after navigating to
            the root).
    """

    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    leaf: str | None = None

    def append(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Append ``entry`` below the leaf; returns the stored entry. ``id`` and ``parentId`` are
        always the log's own (an ``id`` or ``parentId`` in ``entry`` is replaced)."""
        stored = {**entry, "id": f"e{len(self.entries) + 1}", "parentId": self.leaf}
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


def entry_message(entry: Any) -> dict[str, Any] | None:
    """The message an entry contributes to a context, or ``None`` when it contributes none.

    Clauses:
        ENV-ENTRY-MESSAGES: a ``message`` entry gives its ``message`` when that is an object; a
            ``custom_message`` entry gives ``{role: "custom", customType, content, display,
            details, timestamp: 0}`` with each of the four fields copied when the entry has it and
            left out when not; a ``branch_summary`` entry gives ``{role: "branchSummary", summary,
            fromId, timestamp: 0}`` likewise. Every other entry (``custom`` entries included, and
            anything that is not an object or has no string ``type``) gives none. Nothing read from
            an entry is trusted, so no entry makes the context fail.
    """
    if not isinstance(entry, dict):
        return None
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return message if isinstance(message, dict) else None
    if kind == "custom_message":
        return _copied(entry, {"role": "custom"}, ("customType", "content", "display", "details"))
    if kind == "branch_summary":
        return _copied(entry, {"role": "branchSummary"}, ("summary", "fromId"))
    return None


def _copied(entry: dict[str, Any], head: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {**head, **{f: entry[f] for f in fields if f in entry}, "timestamp": 0}


def entry_messages(entries: list[Any]) -> list[dict[str, Any]]:
    """:func:`entry_message` of each entry, in order, leaving out the entries that give none."""
    return [m for m in map(entry_message, entries) if m is not None]

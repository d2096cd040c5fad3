"""The context-files message and its injection before the history (ENV-DECISION-CONTEXT-FILES)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from reference.text import js_trim
from reference.envelope.environment import slash_path

AGENTS_MD_TYPE = "@luan.sh/pi-developer-messages/agents-md"
"""``customType`` of the context-files message."""

AUDIT_GROUP_TYPE = "@luan.sh/pi-developer-messages/group"
"""``customType`` of an audit entry (see :mod:`reference.envelope.audit`)."""

EARLIER_AUDIT_TYPES = ("@luan.sh/pi-developer-messages/developer", "@luan.sh/pi-developer-messages/context-user")
"""``customType`` of the earlier per-instruction audit entries, one item each (clause ENV-AUDIT-EARLIER)."""

AUDIT_TYPES = (AUDIT_GROUP_TYPE, *EARLIER_AUDIT_TYPES)
"""Every audit ``customType``, current and earlier."""

PROJECT_DOC_DIVIDER = "\n\n--- project-doc ---\n\n"


@dataclass(frozen=True)
class ContextFile:
    """One of Pi's discovered context files (``systemPromptOptions.contextFiles`` item).

    Attributes:
        path: the file's path as Pi gives it.
        content: its full text.
    """

    path: str
    content: str


def _blank(text: str) -> bool:
    return js_trim(text) == ""


def kept_files(files: Iterable[ContextFile]) -> list[ContextFile]:
    """The files that take part in the message, in Pi's order.

    Clauses:
        ENV-CTX-BLANK: a file whose content is empty or only white space is dropped; kept contents
            are never trimmed.
    """
    return [f for f in files if not _blank(f.content)]


def _directory(path: str) -> str:
    d = posixpath.dirname(slash_path(path))
    return d.rstrip("/") or d


def is_global_file(file: ContextFile, agent_dir: str | None) -> bool:
    """Whether ``file`` lives directly in Pi's agent directory.

    Clauses:
        ENV-CTX-AGENTDIR: the file's directory and the agent directory are compared as strings
            after making ``\\`` into ``/`` and removing trailing slashes; no other normalisation
            (no case folding, no resolution of ``.``, ``..`` or links, repeated slashes kept) on
            either side. Without an agent directory no file is global.
    """
    if not agent_dir:
        return False
    target = slash_path(agent_dir)
    target = target.rstrip("/") or target
    return _directory(file.path) == target


def context_body(files: Sequence[ContextFile], agent_dir: str | None) -> str | None:
    """The body inside ``<INSTRUCTIONS>``, or ``None`` when no file is left.

    Clauses:
        ENV-CTX-NONE: no file left after :func:`kept_files`, no body and so no message.
        ENV-CTX-DIVIDER: when the first kept file is global (:func:`is_global_file`) and more than
            one file is kept: the first content, ``\\n\\n--- project-doc ---\\n\\n``, then the
            others joined by ``\\n\\n``. A lone global file, or a global file that is not first,
            gets no divider.
        ENV-CTX-JOIN: otherwise all kept contents joined by ``\\n\\n``.
    """
    kept = kept_files(files)
    if not kept:
        return None
    contents = [f.content for f in kept]
    if len(kept) > 1 and is_global_file(kept[0], agent_dir):
        return contents[0] + PROJECT_DOC_DIVIDER + "\n\n".join(contents[1:])
    return "\n\n".join(contents)


def context_content(cwd: str, body: str) -> str:
    """The context-files message's text.

    Clauses:
        ENV-CTX-FORMAT: ``# AGENTS.md instructions for CWD\\n\\n<INSTRUCTIONS>\\nBODY\\n</INSTRUCTIONS>``
            with CWD as :func:`reference.envelope.environment.slash_path` gives it.
    """
    return f"# AGENTS.md instructions for {slash_path(cwd)}\n\n<INSTRUCTIONS>\n{body}\n</INSTRUCTIONS>"


def context_message(cwd: str, files: Sequence[ContextFile], agent_dir: str | None) -> dict[str, Any] | None:
    """The hidden context-files message, or ``None`` when no file has content.

    Clauses:
        ENV-CTX-MESSAGE: ``{role: "custom", customType: "@luan.sh/pi-developer-messages/agents-md",
            content, display: false, timestamp: 0}``.
        ENV-CTX-NOT-DEVELOPER: context files only ever produce this custom message, never a
            developer message.
    """
    body = context_body(files, agent_dir)
    if body is None:
        return None
    return {
        "role": "custom",
        "customType": AGENTS_MD_TYPE,
        "content": context_content(cwd, body),
        "display": False,
        "timestamp": 0,
    }


def is_custom_of(message: Any, custom_type: str) -> bool:
    """Whether ``message`` is a custom message (or custom-message entry) of ``custom_type``: its
    ``customType`` is ``custom_type`` and its role is ``"custom"`` or absent (ENV-AUDIT-STRIP)."""
    return isinstance(message, dict) and message.get("customType") == custom_type and message.get(
        "role", "custom"
    ) == "custom"


def is_audit_message(message: Any) -> bool:
    """Whether ``message`` is a custom message of an audit type (:data:`AUDIT_TYPES`)."""
    return any(is_custom_of(message, t) for t in AUDIT_TYPES)


def strip_audit(messages: Iterable[Any]) -> list[Any]:
    """``messages`` without audit copies.

    Clauses:
        ENV-AUDIT-STRIP: every custom message of an audit type (``@luan.sh/pi-developer-messages/group``
            and the earlier per-instruction types of ENV-AUDIT-EARLIER), whatever its other fields,
            is removed from the model context, the compaction input and the tree-summary input;
            the other messages keep their order. Its role is ``"custom"`` or absent
            (:func:`is_custom_of`); a message of an audit type with another role is kept.
    """
    return [m for m in messages if not is_audit_message(m)]


def inject_context(messages: Sequence[Any], message: dict[str, Any] | None) -> list[Any]:
    """The messages the model receives, as the ``context`` hook returns them.

    Clauses:
        ENV-CTX-INJECT: every earlier context-files message (of its custom type, with role
            ``"custom"`` or none) and every audit message is removed, then ``message`` is put
            first, before all history; a message of that type under another role is kept.
        ENV-CTX-REMOVE: with no message (no content), the old copies are only removed.
    """
    rest = [m for m in strip_audit(messages) if not is_custom_of(m, AGENTS_MD_TYPE)]
    return ([message] if message is not None else []) + rest

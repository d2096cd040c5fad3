"""Pi's message types and their validation (Pi's docs "Message Types", PI-DECISION-MESSAGES): a strict
pydantic model per content block and message role, and :func:`validate_message`, which reports
every problem with a JSON path and a stable code (:class:`Problem`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError

from reference.errors import SpecError

# ---------------------------------------------------------------------------------------------
# Scalar types
# ---------------------------------------------------------------------------------------------

#: Any finite JSON number (timestamps, expiry times).
Number = Annotated[float, Field(allow_inf_nan=False)]
#: A finite JSON number that is zero or more (token counts and costs, ``PI-MSG-COUNTS-NONNEGATIVE``).
Count = Annotated[float, Field(ge=0, allow_inf_nan=False)]


class _Strict(BaseModel):
    """Strict, extra-tolerant base of every message model: a JSON number is never accepted for a
    string, nor ``0``/``1`` for a boolean; unknown fields are kept and never reported
    (PI-MSG-EXTRA-FIELDS), so messages written by newer versions of Pi still validate.

    Optional fields are written ``name: T = None``: an absent field takes the default without
    validation, while an explicit ``null`` is validated against ``T`` and refused, as Pi's docs'
    ``name?: T`` allows absence but not ``null`` (PI-MSG-OPTIONAL-NULL).
    """

    model_config = ConfigDict(strict=True, extra="allow")


# ---------------------------------------------------------------------------------------------
# Content blocks (PI-MSG-TEXT-BLOCK, PI-MSG-IMAGE-BLOCK, PI-MSG-THINKING-BLOCK,
# PI-MSG-TOOLCALL-BLOCK)
# ---------------------------------------------------------------------------------------------


class TextContent(_Strict):
    """``{type: "text", text, textSignature?}``; the signature is opaque (PI-MSG-TEXT-BLOCK)."""

    type: Literal["text"]
    text: str
    textSignature: str = None  # type: ignore[assignment]


class ImageContent(_Strict):
    """``{type: "image", data, mimeType}``; ``data`` is base64 text, not decoded (PI-MSG-IMAGE-BLOCK)."""

    type: Literal["image"]
    data: str
    mimeType: str


class ThinkingContent(_Strict):
    """``{type: "thinking", thinking, thinkingSignature?, redacted?}`` (PI-MSG-THINKING-BLOCK)."""

    type: Literal["thinking"]
    thinking: str
    thinkingSignature: str = None  # type: ignore[assignment]
    redacted: bool = None  # type: ignore[assignment]


class ToolCall(_Strict):
    """``{type: "toolCall", id, name, arguments, thoughtSignature?, namespace?}``;
    ``arguments`` is a JSON object (PI-MSG-TOOLCALL-BLOCK)."""

    type: Literal["toolCall"]
    id: str
    name: str
    arguments: dict[str, Any]
    thoughtSignature: str = None  # type: ignore[assignment]
    namespace: str = None  # type: ignore[assignment]


def _block_tag(value: Any) -> str | None:
    """Discriminator of a content block: ``"~" + type``, or ``None`` when there is no usable
    ``type`` (the problem is then classified by :func:`_problems_from_error`)."""
    if isinstance(value, dict):
        kind = value.get("type")
        return "~" + kind if isinstance(kind, str) else None
    return None


def _content_tag(value: Any) -> str | None:
    """Discriminator of a ``string | block[]`` content field."""
    if isinstance(value, str):
        return "~string"
    if isinstance(value, list):
        return "~blocks"
    return None


_Text = Annotated[TextContent, Tag("~text")]
_Image = Annotated[ImageContent, Tag("~image")]
_Thinking = Annotated[ThinkingContent, Tag("~thinking")]
_ToolCall = Annotated[ToolCall, Tag("~toolCall")]

#: Blocks allowed in user, custom and tool-result content.
UserBlock = Annotated[Union[_Text, _Image], Discriminator(_block_tag)]
#: Blocks allowed in assistant content.
AssistantBlock = Annotated[Union[_Text, _Thinking, _ToolCall], Discriminator(_block_tag)]
#: Blocks allowed in system content (text only).
SystemBlock = Annotated[Union[_Text], Discriminator(_block_tag)]

_WRONG_TYPE = {"custom_error_type": "wrong_type", "custom_error_message": "expected a string or an array"}
UserContent = Annotated[
    Union[Annotated[str, Tag("~string")], Annotated[list[UserBlock], Tag("~blocks")]],
    Discriminator(_content_tag, **_WRONG_TYPE),
]
SystemContent = Annotated[
    Union[Annotated[str, Tag("~string")], Annotated[list[SystemBlock], Tag("~blocks")]],
    Discriminator(_content_tag, **_WRONG_TYPE),
]

# ---------------------------------------------------------------------------------------------
# Usage (PI-MSG-USAGE)
# ---------------------------------------------------------------------------------------------


class Cost(_Strict):
    """``usage.cost``: ``input``, ``output``, ``cacheRead``, ``cacheWrite``, ``total``, in the
    model's currency; each a finite number >= 0 (PI-MSG-USAGE, PI-MSG-COUNTS-NONNEGATIVE)."""

    input: Count
    output: Count
    cacheRead: Count
    cacheWrite: Count
    total: Count


class Usage(_Strict):
    """Token usage of one model call (PI-MSG-USAGE).

    ``cacheWrite1h`` is the part of ``cacheWrite`` written with one-hour retention and
    ``reasoning`` the part of ``output`` spent on reasoning: neither is added to a total again
    (the relations are checked by :func:`check_usage_subsets`). Token counts are finite numbers
    >= 0 (PI-MSG-COUNTS-NONNEGATIVE).
    """

    input: Count
    output: Count
    cacheRead: Count
    cacheWrite: Count
    cacheWrite1h: Count = None  # type: ignore[assignment]
    reasoning: Count = None  # type: ignore[assignment]
    totalTokens: Count
    cost: Cost


# ---------------------------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------------------------


class Tool(_Strict):
    """A complete tool definition in ``toolsAdded``: ``name``, ``description``, ``parameters``
    (a JSON object, normally a JSON Schema)."""

    name: str
    description: str
    parameters: dict[str, Any]


class ToolReference(_Strict):
    """A tool named in ``toolsRemoved``: ``{name}``."""

    name: str


class SystemMessage(_Strict):
    """``role: "system"`` (PI-MSG-SYSTEM). ``content`` is a string or text blocks, never an
    image block (PI-MSG-SYSTEM-NO-IMAGE: :data:`SystemBlock` admits text only); ``sections``
    maps names to text or ``null`` (removal); replayed by :mod:`reference.pi.core.replay`."""

    role: Literal["system"]
    content: SystemContent
    sections: dict[str, Union[str, None]] = None  # type: ignore[assignment]
    toolsAdded: list[Tool] = None  # type: ignore[assignment]
    toolsRemoved: list[ToolReference] = None  # type: ignore[assignment]
    replace: bool = None  # type: ignore[assignment]
    timestamp: Number


class UserMessage(_Strict):
    """``role: "user"``: string content or text and image blocks (PI-MSG-USER)."""

    role: Literal["user"]
    content: UserContent
    timestamp: Number


StopReason = Literal["pending", "stop", "length", "toolUse", "error", "aborted", "deferred"]


class DeferredHandle(_Strict):
    """What a ``deferred`` response needs to be fetched later (PI-MSG-DEFERRED):
    ``provider``, ``modelId``, ``api``, ``id`` strings, ``expiresAt?``, ``pollAfterMs?`` numbers,
    ``data?`` any JSON value."""

    provider: str
    modelId: str
    api: str
    id: str
    expiresAt: Number = None  # type: ignore[assignment]
    pollAfterMs: Number = None  # type: ignore[assignment]
    data: Any = None


class AssistantMessage(_Strict):
    """``role: "assistant"`` (PI-MSG-ASSISTANT, PI-MSG-STOP-REASON).

    ``content`` holds text, thinking and tool-call blocks only; ``usage`` is required;
    ``diagnostics`` is a list of opaque JSON objects.
    """

    role: Literal["assistant"]
    content: list[AssistantBlock]
    api: str
    provider: str
    model: str
    responseModel: str = None  # type: ignore[assignment]
    responseId: str = None  # type: ignore[assignment]
    providerThinkingLevel: str = None  # type: ignore[assignment]
    diagnostics: list[dict[str, Any]] = None  # type: ignore[assignment]
    usage: Usage
    stopReason: StopReason
    deferred: DeferredHandle = None  # type: ignore[assignment]
    errorMessage: str = None  # type: ignore[assignment]
    rawStopReason: str = None  # type: ignore[assignment]
    endTurn: bool = None  # type: ignore[assignment]
    timestamp: Number


class ToolResultMessage(_Strict):
    """``role: "toolResult"`` (PI-MSG-TOOLRESULT): block content only (no string), ``details``
    any JSON value, ``usage`` optional, ``isError`` required."""

    role: Literal["toolResult"]
    toolCallId: str
    toolName: str
    content: list[UserBlock]
    details: Any = None
    usage: Usage = None  # type: ignore[assignment]
    isError: bool
    timestamp: Number


class BashExecutionMessage(_Strict):
    """``role: "bashExecution"`` (PI-MSG-BASH). ``exitCode`` may be absent or ``null`` when the
    command has no exit code (PI-MSG-BASH-EXITCODE-NULL)."""

    role: Literal["bashExecution"]
    command: str
    output: str
    exitCode: Union[Number, None] = None
    cancelled: bool
    truncated: bool
    fullOutputPath: str = None  # type: ignore[assignment]
    excludeFromContext: bool = None  # type: ignore[assignment]
    timestamp: Number


class CustomMessage(_Strict):
    """``role: "custom"`` (PI-MSG-CUSTOM): an extension's context message."""

    role: Literal["custom"]
    customType: str
    content: UserContent
    display: bool
    details: Any = None
    timestamp: Number


class BranchSummaryMessage(_Strict):
    """``role: "branchSummary"`` (PI-MSG-BRANCH-SUMMARY); ``fromId`` is required and may be ``null``."""

    role: Literal["branchSummary"]
    summary: str
    fromId: Union[str, None]
    timestamp: Number


class CompactionSummaryMessage(_Strict):
    """``role: "compactionSummary"`` (PI-MSG-COMPACTION-SUMMARY); ``tokensBefore`` is a count >= 0."""

    role: Literal["compactionSummary"]
    summary: str
    tokensBefore: Count
    timestamp: Number


#: The model of each role Pi's docs list; any other role is opaque.
MESSAGE_MODELS: dict[str, type[_Strict]] = {
    "system": SystemMessage,
    "user": UserMessage,
    "assistant": AssistantMessage,
    "toolResult": ToolResultMessage,
    "bashExecution": BashExecutionMessage,
    "custom": CustomMessage,
    "branchSummary": BranchSummaryMessage,
    "compactionSummary": CompactionSummaryMessage,
}

# ---------------------------------------------------------------------------------------------
# Problems and paths
# ---------------------------------------------------------------------------------------------

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

PathPart = Union[str, int]


def format_path(parts: tuple[PathPart, ...] | list[PathPart], root: str = "$") -> str:
    """A JSON path for ``parts``: ``$``, then ``.key`` for identifier-like keys, ``["a.b"]``
    (a JSON string) for other keys and ``[3]`` for list indices (PI-MSG-PROBLEMS)."""
    out = [root]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENT.match(part):
            out.append(f".{part}")
        else:
            out.append("[" + json.dumps(part, ensure_ascii=False) + "]")
    return "".join(out)


@dataclass(frozen=True)
class Problem:
    """One problem found in a message.

    Attributes:
        parts: the location as keys and indices from the message root.
        code: stable kebab-case code: ``missing`` (a required field is absent, or, for
            ``deferred``, required by ``stopReason: "deferred"``); ``wrong-type`` (the value has
            the wrong JSON type, ``null`` included where the field does not allow it);
            ``invalid-value`` (a value outside the allowed set: an unknown ``stopReason``, a wrong
            ``type`` literal, a content block not allowed for the role); ``negative`` (a token
            count or cost below zero); ``not-finite`` (an infinite or NaN number);
            ``exceeds-cache-write`` (``usage.cacheWrite1h`` greater than ``usage.cacheWrite``);
            ``exceeds-output`` (``usage.reasoning`` greater than ``usage.output``);
            ``pending-not-persistable`` (a streamed ``pending`` assistant message checked for
            persistence).
        message: human-readable explanation (not compared by cases).
    """

    parts: tuple[PathPart, ...]
    code: str
    message: str

    @property
    def path(self) -> str:
        """The location as a JSON path (``$.usage.cost.total``)."""
        return format_path(self.parts)

    def sort_key(self) -> tuple:
        """Order of problems (PI-MSG-PROBLEMS): by path, an index before a key at the same
        depth, indices numerically, keys by code point; then by code."""
        return (tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in self.parts), self.code)


@dataclass
class Validation:
    """Result of :func:`validate_message`.

    Attributes:
        role: the message's ``role``, or ``None`` when it has no string role.
        known: whether the role is one Pi's docs list.
        problems: every problem, sorted by path (indices numerically, keys by code point), then code.
    """

    role: str | None
    known: bool
    problems: list[Problem] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """Whether no problem was found."""
        return not self.problems


_TYPE_ERRORS = {
    "string_type",
    "bool_type",
    "float_type",
    "int_type",
    "dict_type",
    "list_type",
    "model_type",
    "model_attributes_type",
    "none_required",
    "wrong_type",
}


def _lookup(data: Any, parts: list[PathPart]) -> Any:
    for part in parts:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _problems_from_error(error: ValidationError) -> list[Problem]:
    """Translate pydantic's errors into :class:`Problem` records (tags dropped from paths)."""
    problems = []
    for err in error.errors():
        parts: list[PathPart] = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith("~"))]
        kind = err["type"]
        value = err.get("input")
        if kind == "missing":
            code, msg = "missing", "required field is missing"
        elif kind in _TYPE_ERRORS:
            code, msg = "wrong-type", err["msg"]
        elif kind == "literal_error":
            code = "invalid-value" if isinstance(value, str) else "wrong-type"
            msg = err["msg"]
        elif kind == "union_tag_invalid":
            parts.append("type")
            code, msg = "invalid-value", f"content block type {value.get('type')!r} is not allowed here"
        elif kind == "union_tag_not_found":
            if not isinstance(value, dict):
                code, msg = "wrong-type", "a content block must be an object"
            elif "type" not in value:
                parts.append("type")
                code, msg = "missing", "content block has no type"
            else:
                parts.append("type")
                code, msg = "wrong-type", "content block type must be a string"
        elif kind == "greater_than_equal":
            code, msg = "negative", "must be zero or more"
        elif kind == "finite_number":
            code, msg = "not-finite", "must be a finite number"
        else:  # pragma: no cover - every type the models can raise is mapped above
            code, msg = "invalid-value", err["msg"]
        problems.append(Problem(tuple(parts), code, msg))
    return problems


# ---------------------------------------------------------------------------------------------
# Rules beyond the shapes
# ---------------------------------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_usage_subsets(usage: Any, at: tuple[PathPart, ...]) -> list[Problem]:
    """Check that ``cacheWrite1h`` is within ``cacheWrite`` and ``reasoning`` within ``output``.

    Implements PI-MSG-USAGE-CACHEWRITE1H and PI-MSG-USAGE-REASONING: both are *parts* of the
    larger count, so a value above it is refused with ``exceeds-cache-write`` or
    ``exceeds-output``. Fields that are absent or not numbers are left to the shape check.
    """
    if not isinstance(usage, dict):
        return []
    problems = []
    pairs = (
        ("cacheWrite1h", "cacheWrite", "exceeds-cache-write"),
        ("reasoning", "output", "exceeds-output"),
    )
    for part, whole, code in pairs:
        a, b = usage.get(part), usage.get(whole)
        if _is_number(a) and _is_number(b) and a > b:
            problems.append(Problem(at + (part,), code, f"{part} ({a}) is part of {whole} ({b}) and cannot exceed it"))
    return problems


def check_pending(message: dict, persist: bool) -> list[Problem]:
    """A ``pending`` assistant message is valid while it streams and refused for persistence.

    Implements PI-MSG-PENDING: with ``persist`` true, ``stopReason: "pending"`` gives the problem
    ``pending-not-persistable`` at ``$.stopReason``.
    """
    if persist and message.get("stopReason") == "pending":
        return [Problem(("stopReason",), "pending-not-persistable", "a pending assistant message is never persisted")]
    return []


def check_deferred(message: dict) -> list[Problem]:
    """A ``deferred`` assistant message carries the handle to fetch it (PI-MSG-DEFERRED).

    ``stopReason: "deferred"`` without ``deferred`` gives ``missing`` at ``$.deferred``.
    """
    if message.get("stopReason") == "deferred" and "deferred" not in message:
        return [Problem(("deferred",), "missing", 'stopReason "deferred" requires a deferred handle')]
    return []


# ---------------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------------


def validate_message(message: Any, *, persist: bool = True,
                     models: dict[str, type[_Strict]] | None = None) -> Validation:
    """Validate one agent message given as JSON data.

    Args:
        message: the message as parsed JSON (any value; non-objects are reported).
        persist: ``True`` to check the message for persistence in a session (a ``pending``
            assistant message is then refused), ``False`` for a message in flight.
        models: the model of each role (an edition's, ``reference.pi.core.editions``); default
            :data:`MESSAGE_MODELS`, edition pi-0.99.4.

    Returns:
        a :class:`Validation`; never raises for bad input.

    Implements PI-MSG-OBJECT (an object with a string ``role``), PI-MSG-UNKNOWN-ROLE (other roles
    are opaque and valid), PI-MSG-EXTRA-FIELDS (unknown fields ignored) and PI-MSG-PROBLEMS
    (every problem with its path and code, sorted); the per-role shapes are the models above.
    """
    if not isinstance(message, dict):
        return Validation(None, False, [Problem((), "wrong-type", "a message must be an object")])
    role = message.get("role")
    if "role" not in message:
        return Validation(None, False, [Problem(("role",), "missing", "a message needs a role")])
    if not isinstance(role, str):
        return Validation(None, False, [Problem(("role",), "wrong-type", "role must be a string")])
    model = (MESSAGE_MODELS if models is None else models).get(role)
    if model is None:
        return Validation(role, False, [])
    problems: list[Problem] = []
    try:
        model.model_validate(message)
    except ValidationError as exc:
        problems.extend(_problems_from_error(exc))
    if role == "assistant":
        problems.extend(check_usage_subsets(message.get("usage"), ("usage",)))
        problems.extend(check_pending(message, persist))
        problems.extend(check_deferred(message))
    elif role == "toolResult":
        problems.extend(check_usage_subsets(message.get("usage"), ("usage",)))
    problems.sort(key=Problem.sort_key)
    return Validation(role, True, problems)


def require_valid_messages(
    messages: list[Any],
    *,
    persist: bool = False,
    field_name: str = "messages",
    roles: set[str] | None = None,
) -> None:
    """Refuse a list of messages when any message is invalid.

    Args:
        messages: agent messages as JSON data.
        persist: passed to :func:`validate_message`.
        field_name: the name used at the start of the reported path.
        roles: when given, only messages with one of these roles are examined.

    Raises:
        SpecError: code ``message-invalid``, naming the first problem's path as
            ``messages[I].PATH``. Implements PI-MSG-REFUSE-INVALID.
    """
    for index, message in enumerate(messages):
        if roles is not None and not (isinstance(message, dict) and isinstance(message.get("role"), str)
                                      and message["role"] in roles):
            continue
        result = validate_message(message, persist=persist)
        if result.problems:
            first = result.problems[0]
            path = format_path(first.parts, root=f"{field_name}[{index}]")
            raise SpecError("message-invalid", f"{path}: {first.code}: {first.message}", path=path)

"""Developer-message contributions: registration, filters, order and rendering (ENV-DECISION-CONTRIBUTIONS).

A :class:`Contribution` is what an extension registers. For one turn, :func:`compose_contributions`
keeps the contributions whose filters pass (:func:`passes_provider_filter`,
:func:`passes_tool_filter`), orders them (:func:`order_key`), renders each
(:func:`render_contribution`) and drops the empty ones. The ``environment`` message is appended by
:func:`reference.envelope.build.developer_messages`, never by this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Union

from reference.envelope.collation import id_sort_key
from reference.envelope.globals import (
    CONTRIBUTIONS_KEY,
    PROCESS_SCOPE,
    GlobalScope,
    SharedRegistry,
    install_registry,
)
from reference.errors import SpecError
from reference.text import js_trim

ENVIRONMENT_ID = "environment"
"""Id of the environment developer message, reserved for it."""


@dataclass(frozen=True)
class RenderContext:
    """What a content function receives (the pi-developer-messages README 'Add a developer contribution').

    Attributes:
        provider: the current provider id, or ``None`` when unknown.
        activeTools: names of the active tools, in Pi's order.
        sessionId: the session id.
        prompt: the user's prompt for this turn (``""`` when none).
        systemPromptOptions: Pi's system-prompt options, passed through unchanged.
    """

    provider: str | None
    activeTools: tuple[str, ...] = ()
    sessionId: str = ""
    prompt: str = ""
    systemPromptOptions: Mapping[str, Any] = field(default_factory=dict)


ContentFunction = Callable[[RenderContext], Union[str, None]]
"""A content function: the render context in, text or ``None`` (nothing) out; may raise."""


@dataclass(frozen=True)
class Contribution:
    """One registered developer-message contribution.

    Attributes:
        id: unique, non-blank id; appears in serialized prompts.
        priority: sort priority, any finite number; low sorts first (default ``0``).
        providers: provider ids this contribution is limited to, or ``None`` for every provider.
        activeTools: tool names that must all be active, or ``None`` for no requirement.
        content: the text, a :data:`ContentFunction`, or ``None`` (renders nothing).
    """

    id: str
    priority: float = 0
    providers: tuple[str, ...] | None = None
    activeTools: tuple[str, ...] | None = None
    content: str | ContentFunction | None = None


@dataclass(frozen=True)
class DeveloperMessage:
    """A rendered developer message: ``{id, content}``, ``content`` non-empty and trimmed."""

    id: str
    content: str

    def to_json(self) -> dict[str, str]:
        """``{"id": ..., "content": ...}``."""
        return {"id": self.id, "content": self.content}


class ContributionFailed(Exception):
    """A content function raised. ``message`` is the text shown as
    ``System prompt build failed: MESSAGE``; ``id`` is the contribution's id."""

    def __init__(self, contribution_id: str, message: str) -> None:
        super().__init__(message)
        self.id = contribution_id
        self.message = message


def validate_contribution(contribution: Contribution, *, path: str = "contribution") -> None:
    """Refuse a contribution that may not be registered.

    Clauses:
        ENV-CONTRIB-ID: ``id`` is required; a missing, empty or blank id is refused
            (``contribution-id-blank``).
        ENV-CONTRIB-ID-RESERVED: the id ``environment`` belongs to the environment message and is
            refused (``contribution-id-reserved``).
        ENV-PRIORITY-FINITE: ``priority``, when given, must be a finite number (not a string, a
            boolean, NaN or an infinity); otherwise it is refused (``contribution-priority-invalid``).

    Raises:
        SpecError: with one of the codes above, or ``contribution-field-invalid`` when
            ``providers`` or ``activeTools`` is not a list of strings; the message names ``path``
            and the field.
    """
    cid = contribution.id
    if not isinstance(cid, str) or not js_trim(cid):
        raise SpecError(
            "contribution-id-blank", f"{path}.id is required and must not be blank", path=f"{path}.id"
        )
    if cid == ENVIRONMENT_ID:
        raise SpecError(
            "contribution-id-reserved",
            f"{path}.id {cid!r} is reserved for the environment message",
            path=f"{path}.id",
        )
    for name in ("providers", "activeTools"):
        value = getattr(contribution, name)
        if value is not None and (
            isinstance(value, str)
            or not isinstance(value, (list, tuple))
            or not all(isinstance(v, str) for v in value)
        ):
            raise SpecError(
                "contribution-field-invalid",
                f"{path}.{name} must be a list of strings, got {value!r}",
                path=f"{path}.{name}",
            )
    p = contribution.priority
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p):
        raise SpecError(
            "contribution-priority-invalid",
            f"{path}.priority must be a finite number, got {p!r}",
            path=f"{path}.priority",
        )


def contribution_registry(scope: GlobalScope | None = None) -> SharedRegistry:
    """The process-global contribution registry of ``scope`` (default: this process).

    The registry is published under ``pi-developer-messages/developer-messages/v1`` by
    :func:`reference.envelope.globals.install_registry`.
    """
    return install_registry(scope or PROCESS_SCOPE, CONTRIBUTIONS_KEY)


def register_contribution(registry: SharedRegistry, contribution: Contribution) -> Callable[[], None]:
    """Register ``contribution`` and return a function that unregisters it.

    Clauses:
        ENV-CONTRIB-REPLACE: registering an id that is already registered replaces the earlier
            contribution (one entry per id; the replaced one keeps no trace).

    The returned function removes the entry only while it is still this contribution, so it never
    removes a later replacement registered under the same id.

    Raises:
        SpecError: see :func:`validate_contribution`.
    """
    validate_contribution(contribution)
    registry[contribution.id] = contribution

    def unregister() -> None:
        """Remove this contribution if it is still the one registered under its id."""
        if registry.get(contribution.id) is contribution:
            del registry[contribution.id]

    return unregister


def unregister_contribution(registry: SharedRegistry, contribution_id: str) -> bool:
    """Remove the contribution registered under ``contribution_id``.

    Clauses:
        ENV-CONTRIB-UNREGISTER: unregistering by id removes that entry; an unknown id is a no-op.

    Returns:
        Whether an entry was removed.
    """
    return registry.pop(contribution_id, None) is not None


def passes_provider_filter(contribution: Contribution, provider: str | None) -> bool:
    """Whether the provider filter keeps ``contribution``.

    Clauses:
        ENV-FILTER-PROVIDERS: a contribution with ``providers`` is kept only when the current
            provider is known (not ``None``) and listed; an empty ``providers`` list therefore
            keeps it for no provider. Without ``providers`` it is kept for every provider.
    """
    if contribution.providers is None:
        return True
    return provider is not None and provider in contribution.providers


def passes_tool_filter(contribution: Contribution, active_tools: Iterable[str]) -> bool:
    """Whether the active-tools filter keeps ``contribution``.

    Clauses:
        ENV-FILTER-TOOLS: every tool listed in ``activeTools`` must be active; an empty or absent
            list passes.
    """
    if not contribution.activeTools:
        return True
    active = set(active_tools)
    return all(tool in active for tool in contribution.activeTools)


def order_key(contribution: Contribution) -> tuple[float, Any]:
    """The sort key of a kept contribution.

    Clauses:
        ENV-ORDER-PRIORITY: ``priority`` ascending (default ``0``; negative and fractional values
            allowed), ties broken by :func:`reference.envelope.collation.id_sort_key`.
    """
    return (float(contribution.priority), id_sort_key(contribution.id))


def render_contribution(contribution: Contribution, context: RenderContext) -> str | None:
    """The rendered text of ``contribution``, or ``None`` when it renders nothing.

    Clauses:
        ENV-RENDER-CONTENT: a string is used as is; a function is called with the render context;
            absent content, or a function returning nothing, renders nothing.
        ENV-RENDER-TRIM: the result is trimmed (:func:`js_trim`); an empty result is dropped.

    Raises:
        ContributionFailed: the content function raised; carries its message.
    """
    content = contribution.content
    if callable(content):
        try:
            content = content(context)
        except ContributionFailed:
            raise
        except Exception as exc:  # a content function's own failure is a build failure
            raise ContributionFailed(contribution.id, str(exc)) from exc
    if content is None:
        return None
    if not isinstance(content, str):
        raise ContributionFailed(
            contribution.id, f"contribution {contribution.id!r} content is not a string"
        )
    text = js_trim(content)
    return text or None


def compose_contributions(
    contributions: Iterable[Contribution], context: RenderContext
) -> list[DeveloperMessage]:
    """The developer messages of the registered contributions, before the environment message.

    Clauses:
        ENV-FILTER-BEFORE-ORDER: filters run first; only kept contributions are ordered and
            rendered (a filtered-out contribution's content is never called).
        ENV-REGISTRY-DIRECT: an entry put straight into the shared map that
            :func:`validate_contribution` would refuse (blank or reserved id, bad priority) is
            skipped.

    Args:
        contributions: the registry's current entries (read on every build).
        context: the render context of this turn.

    Returns:
        The rendered messages in order, empty ones dropped.

    Raises:
        ContributionFailed: a kept contribution's content function raised.
    """
    kept: list[Contribution] = []
    for contribution in contributions:
        try:
            validate_contribution(contribution)
        except SpecError:
            continue
        if passes_provider_filter(contribution, context.provider) and passes_tool_filter(
            contribution, context.activeTools
        ):
            kept.append(contribution)
    kept.sort(key=order_key)
    messages: list[DeveloperMessage] = []
    for contribution in kept:
        text = render_contribution(contribution, context)
        if text is not None:
            messages.append(DeveloperMessage(contribution.id, text))
    return messages

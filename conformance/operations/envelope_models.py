"""The models the envelope operations share (contributions and their content, host facts, context
files, Pi's system-prompt options, one turn's request), declared apart from the operations so that
a case of one of them builds these classes and not the other's."""

from __future__ import annotations

import re
from typing import Any, Literal, Union

from pydantic import ConfigDict, field_validator, model_validator

from conformance.operations.base import OpModel

TEMPLATE_FIELDS = ("provider", "sessionId", "prompt", "activeTools", "customPrompt", "cwd")
OPTION_PLACEHOLDER = "systemPromptOptions."
"""Prefix of the ``{systemPromptOptions.KEY}`` placeholders."""

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
"""A ``{name}`` placeholder of a template; group 1 is the name."""


class PromptCondition(OpModel):
    """Exactly one of ``promptContains``, ``promptEquals`` and ``promptEmpty``."""

    promptContains: str | None = None
    promptEquals: str | None = None
    promptEmpty: bool | None = None

    @model_validator(mode="after")
    def _one(self) -> "PromptCondition":
        if len(self.model_fields_set) != 1:
            raise ValueError("a condition has exactly one of promptContains, promptEquals, promptEmpty")
        return self


def known_placeholder(name: str) -> bool:
    """Whether ``{name}`` may appear in a template (see the content forms in
    the guide ``docs/envelope.md``)."""
    if name.startswith(OPTION_PLACEHOLDER):
        return bool(name[len(OPTION_PLACEHOLDER):])
    return name in TEMPLATE_FIELDS


class TemplateContent(OpModel):
    """``{template}``: substitutes the render context's fields ``{provider}``, ``{sessionId}``,
    ``{prompt}``, ``{activeTools}``, ``{customPrompt}``, ``{cwd}`` and ``{systemPromptOptions.KEY}``;
    no other placeholder is allowed."""

    template: str

    @field_validator("template")
    @classmethod
    def _known(cls, value: str) -> str:
        for name in PLACEHOLDER.findall(value):
            if not known_placeholder(name):
                raise ValueError(f"unknown placeholder {{{name}}}; allowed: "
                                 f"{', '.join(TEMPLATE_FIELDS)}, {OPTION_PLACEHOLDER}KEY")
        return value


class ReturnsContent(OpModel):
    """``{returns}``: the content function returns this value (a string, or ``null``: nothing)."""

    returns: str | None


class RaisesContent(OpModel):
    """``{raises}``: the content function throws an error with this message."""

    raises: str


class WhenContent(OpModel):
    """``{when, then, otherwise}``: conditional content."""

    when: PromptCondition
    then: "Content" = None
    otherwise: "Content" = None


Content = Union[str, ReturnsContent, TemplateContent, RaisesContent, WhenContent, None]
"""A contribution's declarative content (resolved when a model using it is first built)."""


class ContributionSpec(OpModel):
    """A contribution. ``id`` may be absent and ``priority`` any JSON value here, so that their
    refusals can be shown (``priority`` must be a finite number)."""

    id: str | None = None
    priority: Any = 0
    providers: list[str] | None = None
    activeTools: list[str] | None = None
    content: Content = None


class Host(OpModel):
    """Host facts: ``platform`` as Node's ``process.platform``; ``shell`` the value of ``$SHELL``;
    ``comSpec`` of ``%ComSpec%``; ``shells`` which of zsh/bash/sh exist; ``date`` the local date
    ``YYYY-MM-DD``; ``timezone`` an IANA name or ``null``."""

    platform: str
    shell: str | None = None
    comSpec: str | None = None
    shells: list[Literal["zsh", "bash", "sh"]] = []
    date: str
    timezone: str | None = None


class ContextFileSpec(OpModel):
    """A context file: its ``path`` and full ``content``."""

    path: str
    content: str


class SystemPromptOptions(OpModel):
    """Pi's system-prompt options: the envelope reads ``customPrompt``, ``appendSystemPrompt`` and
    ``contextFiles``; ``cwd`` is the session's working directory as Pi gives it; any other key is
    allowed and passed to content functions unchanged."""

    model_config = ConfigDict(extra="allow")

    customPrompt: str | None = None
    appendSystemPrompt: str | None = None
    contextFiles: list[ContextFileSpec] = []
    cwd: str | None = None


class CaptureRequest(OpModel):
    """One turn's request: what ``before_agent_start`` and the host give. ``host`` defaults to the
    script's host (in ``envelope.session``); ``envelope.build`` requires it."""

    sessionId: str
    provider: str | None = None
    activeTools: list[str] = []
    prompt: str = ""
    systemPrompt: str | None = None
    # model_construct builds no validator: a class builds its validator only when a value is first
    # validated with it.
    systemPromptOptions: SystemPromptOptions = SystemPromptOptions.model_construct()
    cwd: str
    agentDir: str | None = None
    host: Host | None = None

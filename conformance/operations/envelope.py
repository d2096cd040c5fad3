"""Operations of the envelope area (seed 000, notes N1-N9).

Stateless operations cover one rule each: ``envelope.instructions`` (N4), ``envelope.environment``
(N1, N2), ``envelope.developer-messages`` (N3 plus the environment message), ``envelope.context-message``
and ``envelope.context-hook`` (N5), ``envelope.build`` (a whole envelope) and ``envelope.settings``
(N8's setting). Stateful behaviour (N6-N9: registries, adapters, the service, audit entries across
turns and branches) is one operation, ``envelope.session``, that runs a *session script*.

Declarative contribution content
--------------------------------
A contribution's ``content`` is one of:

- a string: used as is (then trimmed);
- absent or ``null``: renders nothing;
- ``{template: "FIRST {sessionId}"}``: a function of the render context that substitutes
  ``{provider}`` (the provider id, ``""`` when unknown), ``{sessionId}``, ``{prompt}`` and
  ``{activeTools}`` (the active tool names joined by ``,``) and ``{customPrompt}``
  (``systemPromptOptions.customPrompt``, ``""`` when absent); no other placeholder is allowed;
- ``{when: CONDITION, then: CONTENT, otherwise: CONTENT}``: a function that renders ``then`` when the
  condition holds and ``otherwise`` when not (each absent means nothing). CONDITION is exactly one
  of ``{promptContains: TEXT}`` (the prompt contains TEXT) and ``{promptEmpty: BOOL}``;
- ``{raises: MESSAGE}``: a function that throws an error whose message is MESSAGE.

The probe payload and the probe adapter
---------------------------------------
Provider requests in session scripts carry the *probe payload*, a JSON object::

    {"system": STRING or null, "developer": [{"id": STRING, "content": STRING}, ...],
     "messages": [ANY, ...], ...other keys...}

The *probe adapter* for provider P (registered by the ``registerAdapter`` step) is:

- ``provider``: P;
- ``readSystemPrompt(payload)``: ``payload.system`` when it is a string, else undefined;
- ``replaceSystemPrompt(payload, text)``: a copy of the payload with ``system`` set to ``text``;
- ``replaceDeveloperMessages(payload, messages)``, depending on the step's ``developerMessages``:
  ``"replace"`` (default): a copy of the payload whose ``developer`` is exactly
  ``[{id, content}, ...]`` of ``messages`` in order; ``"absent"``: the adapter has no such method;
  ``"return-input"``: returns the payload it was given, unchanged; ``"return-nothing"``: returns
  undefined (``null``).

The adapter never reads or writes ``messages`` or any other key. An implementation provides the
same adapter in its own language; the answer of a ``providerRequest`` step is the payload as the
implementation would send it.

Session scripts
---------------
``envelope.session`` takes ``host`` (the default host facts of captures), ``auditEntries`` (the
initial raw setting value; absent means the default) and ``steps``: a list of one-key objects. The
extension loads (registries installed or adopted, service started) at the first ``load`` step, or
before the first step that needs it. Steps and their answers (every answer has ``step``, the
step's kind; a refused step answers ``{step, error: {code}}`` and the script goes on):

- ``globalRegistry: {key: "contributions"|"adapters", protocol, version}``: before ``load``, another
  extension creates the shared map under that registry's key (``protocol`` and ``version`` as
  given). Answer: ``{}``.
- ``globalSet: {contribution: CONTRIBUTION}`` or ``{adapter: ADAPTER}``: put an entry straight into
  the shared map (no validation), as an extension without a dependency would. Answer: ``{}``.
- ``load: {}``: answer ``{contributions, adapters, service}``: the first two each ``"created"``,
  ``"adopted"`` or ``"replaced"`` (an incompatible object was there); ``service`` whether the
  running envelope service is now published under ``pi-developer-messages/envelope-service/v1``.
- ``register: CONTRIBUTION``; ``unregister: {id}`` (answer ``{removed}``);
  ``registerAdapter: ADAPTER`` where ADAPTER is ``{provider, developerMessages?}``.
- ``capture: REQUEST``: answer ``{systemPrompt, envelope, notification, audit}``: the system prompt
  ``before_agent_start`` returns (``null``: Pi's own prompt stands), the envelope in force
  (``{provider, providerInstructions, developerMessages, contextMessage}`` or ``null``), the UI
  notification (or ``null``) and the audit entry written (or ``null``).
- ``current: {sessionId, provider?, activeTools?, cwd?}``: an override is applied only when the
  field is present (``provider: null`` means unknown). Answer ``{envelope, failure}``.
- ``clear: {sessionId}``: answer ``{cleared}``.
- ``providerRequest: {sessionId, provider, payload}``: answer ``{payload}``.
- ``append: {sessionId, message}``: a conversation message appended to the session's branch;
  answer ``{entryId}``.
- ``context: {sessionId, messages?}``: the ``context`` hook over ``messages`` (default: the
  session's current branch as messages); answer ``{messages}``.
- ``compact: {sessionId}``: answer ``{messages}``, the compaction input.
- ``navigate: {sessionId, to}``: move the leaf to entry ``to`` (``null``: before the first entry);
  answer ``{leaf, summaryInput}``, the tree-summary input of the abandoned entries.
- ``entries: {sessionId}``: answer ``{entries}``, the session's current branch.
- ``setting: {auditEntries}`` or ``setting: {toml}``: answer ``{auditEntries}`` now in force.
- ``resume: {}``: the process restarts on the same session files; answer ``{}``.

Entry ids are ``e1``, ``e2``, ... per session in order of creation. A malformed step is refused as a
whole with ``session-step-invalid``, naming the step index and field.

Error codes
-----------
``contribution-id-blank``, ``contribution-id-reserved``, ``contribution-priority-invalid``,
``contribution-field-invalid`` (providers or activeTools not a list of strings): a refused
contribution. ``adapter-provider-blank``: a refused adapter. ``environment-date-invalid``: a host
date not written ``YYYY-MM-DD``. ``build-failed``: a content function raised (stateless operations;
in a session the service handles it). ``session-step-invalid``: a malformed script.
``registry-missing`` (``globalSet`` before any shared map exists), ``already-loaded`` (a second
``load``) and ``session-entry-unknown`` (``navigate`` to an id the session does not have) answer a
single step.
"""

from __future__ import annotations

import re
from typing import Any, Literal, Union

from pydantic import field_validator, model_validator

from conformance.operations.base import OpModel, operation

TEMPLATE_FIELDS = ("provider", "sessionId", "prompt", "activeTools", "customPrompt")

ENVIRONMENT_ID = "environment"
"""The id of the environment developer message, always the last one (ENV-ENV-LAST)."""

PROJECT_DOC_DIVIDER = "\n\n--- project-doc ---\n\n"
"""What separates a global context file from the project's files (ENV-CTX-DIVIDER)."""
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class PromptCondition(OpModel):
    """Exactly one of ``promptContains`` and ``promptEmpty``."""

    promptContains: str | None = None
    promptEmpty: bool | None = None

    @model_validator(mode="after")
    def _one(self) -> "PromptCondition":
        if len(self.model_fields_set) != 1:
            raise ValueError("a condition has exactly one of promptContains, promptEmpty")
        return self


class TemplateContent(OpModel):
    """``{template}``: substitutes ``{provider}``, ``{sessionId}``, ``{prompt}``, ``{activeTools}``
    and ``{customPrompt}`` from the render context."""

    template: str

    @field_validator("template")
    @classmethod
    def _known(cls, value: str) -> str:
        for name in _PLACEHOLDER.findall(value):
            if name not in TEMPLATE_FIELDS:
                raise ValueError(f"unknown placeholder {{{name}}}; allowed: {', '.join(TEMPLATE_FIELDS)}")
        return value


class RaisesContent(OpModel):
    """``{raises}``: the content function throws an error with this message."""

    raises: str


class WhenContent(OpModel):
    """``{when, then, otherwise}``: conditional content."""

    when: PromptCondition
    then: "Content" = None
    otherwise: "Content" = None


Content = Union[str, TemplateContent, RaisesContent, WhenContent, None]
WhenContent.model_rebuild()


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
    """The parts of Pi's system-prompt options the envelope reads."""

    customPrompt: str | None = None
    appendSystemPrompt: str | None = None
    contextFiles: list[ContextFileSpec] = []


class DeveloperMessageOut(OpModel):
    """A developer message: ``{id, content}``."""

    id: str
    content: str


class EnvelopeOut(OpModel):
    """An envelope: ``provider`` (``null`` when unknown), ``providerInstructions``, ``developerMessages`` (environment last) and ``contextMessage`` (or ``null``)."""

    provider: str | None
    providerInstructions: str
    developerMessages: list[DeveloperMessageOut]
    contextMessage: dict[str, Any] | None


# --- envelope.instructions -------------------------------------------------------------------


class InstructionsInput(OpModel):
    """``systemPrompt``: Pi's built prompt; ``customPrompt`` and ``appendSystemPrompt`` from Pi's
    system-prompt options."""

    systemPrompt: str | None = None
    customPrompt: str | None = None
    appendSystemPrompt: str | None = None


class InstructionsOutput(OpModel):
    """The provider instructions."""

    providerInstructions: str


operation("envelope.instructions", input=InstructionsInput, output=InstructionsOutput,
          summary="Compose the provider instructions (N4).")


# --- envelope.environment --------------------------------------------------------------------


class EnvironmentInput(OpModel):
    """The cwd, the active tools and the host facts."""

    cwd: str
    activeTools: list[str] = []
    host: Host


class EnvironmentOutput(OpModel):
    """The environment message: id ``environment`` and its six-line ``content``."""

    id: str
    content: str


operation("envelope.environment", input=EnvironmentInput, output=EnvironmentOutput,
          summary="Render the environment developer message (N1, N2).")


# --- envelope.developer-messages -------------------------------------------------------------


class DeveloperMessagesInput(OpModel):
    """``contributions`` are registered in list order (a repeated id replaces the earlier one);
    then the developer messages of one turn are composed for the render context given."""

    contributions: list[ContributionSpec] = []
    provider: str | None = None
    activeTools: list[str] = []
    sessionId: str = "session-1"
    prompt: str = ""
    cwd: str = "/work/project"
    host: Host


class DeveloperMessagesOutput(OpModel):
    """The developer messages in order, environment last."""

    messages: list[DeveloperMessageOut]


operation("envelope.developer-messages", input=DeveloperMessagesInput, output=DeveloperMessagesOutput,
          summary="Register contributions, then filter, order and render them; environment last (N1-N3).")


# --- envelope.context-message / envelope.context-hook ----------------------------------------


class ContextMessageInput(OpModel):
    """The cwd, Pi's agent directory (or ``null``) and the context files in Pi's order."""

    cwd: str
    agentDir: str | None = None
    contextFiles: list[ContextFileSpec] = []


class ContextMessageOutput(OpModel):
    """The context-files message, or ``null`` when no file has content."""

    message: dict[str, Any] | None


operation("envelope.context-message", input=ContextMessageInput, output=ContextMessageOutput,
          summary="Render the context-files message, or none (N5).")


class ContextHookInput(OpModel):
    """As :class:`ContextMessageInput`, plus the ``messages`` Pi passes to the context hook."""

    cwd: str
    agentDir: str | None = None
    contextFiles: list[ContextFileSpec] = []
    messages: list[dict[str, Any]] = []


class ContextHookOutput(OpModel):
    """The messages the model receives."""

    messages: list[dict[str, Any]]


operation("envelope.context-hook", input=ContextHookInput, output=ContextHookOutput,
          summary="Inject the context-files message before the history, removing old copies and audits (N5, N8).")


# --- envelope.build ----------------------------------------------------------------------------


class CaptureRequest(OpModel):
    """One turn's request: what ``before_agent_start`` and the host give. ``host`` defaults to the
    script's host (in ``envelope.session``); ``envelope.build`` requires it."""

    sessionId: str
    provider: str | None = None
    activeTools: list[str] = []
    prompt: str = ""
    systemPrompt: str | None = None
    systemPromptOptions: SystemPromptOptions = SystemPromptOptions()
    cwd: str
    agentDir: str | None = None
    host: Host | None = None


class BuildInput(OpModel):
    """``contributions`` registered in list order, then one ``request`` built."""

    contributions: list[ContributionSpec] = []
    request: CaptureRequest


operation("envelope.build", input=BuildInput, output=EnvelopeOut,
          summary="Build one turn's envelope: provider instructions, developer messages, context message (N1-N5).")


# --- envelope.settings -------------------------------------------------------------------------


class SettingsInput(OpModel):
    """``toml``: the text of ``xsettings.toml``, or ``null`` when there is no file."""

    toml: str | None = None


class SettingsOutput(OpModel):
    """``auditEntries`` in force; ``toml`` its stored form; ``ignored`` whether a value present in
    the file was ignored (invalid TOML or value) so that the default applies."""

    auditEntries: list[str]
    toml: str
    ignored: bool


operation("envelope.settings", input=SettingsInput, output=SettingsOutput,
          summary="Read the auditEntries setting from xsettings.toml (N8).")


# --- envelope.session ----------------------------------------------------------------------------


class GlobalRegistryStep(OpModel):
    """Create a shared map under the contribution or adapter registry's key."""

    key: Literal["contributions", "adapters"]
    protocol: str
    version: int


class AdapterSpec(OpModel):
    """A probe adapter (see the module docstring). ``provider`` may be absent so that its refusal
    can be shown."""

    provider: str | None = None
    developerMessages: Literal["replace", "absent", "return-input", "return-nothing"] = "replace"


class GlobalSetStep(OpModel):
    """Put one entry straight into a shared map: exactly one of ``contribution`` and ``adapter``."""

    contribution: ContributionSpec | None = None
    adapter: AdapterSpec | None = None

    @model_validator(mode="after")
    def _one(self) -> "GlobalSetStep":
        if len(self.model_fields_set) != 1:
            raise ValueError("globalSet has exactly one of contribution, adapter")
        return self


class EmptyStep(OpModel):
    """A step without fields (``load``, ``resume``)."""

    pass


class UnregisterStep(OpModel):
    """The id to unregister."""

    id: str


class SessionRef(OpModel):
    """A session id."""

    sessionId: str


class CurrentStep(OpModel):
    """``current`` with optional overrides; a field is an override only when present."""

    sessionId: str
    provider: str | None = None
    activeTools: list[str] | None = None
    cwd: str | None = None


class ProviderRequestStep(OpModel):
    """A provider request: the session, the provider id and the (probe) payload."""

    sessionId: str
    provider: str | None = None
    payload: Any = None


class AppendStep(OpModel):
    """A conversation message appended to the session's current branch."""

    sessionId: str
    message: dict[str, Any]


class ContextStep(OpModel):
    """The context hook over ``messages``, or over the session's current branch when absent."""

    sessionId: str
    messages: list[dict[str, Any]] | None = None


class NavigateStep(OpModel):
    """Move the session's leaf to entry ``to`` (``null``: before the first entry)."""

    sessionId: str
    to: str | None


class SettingStep(OpModel):
    """A new ``auditEntries`` value (raw) or a new ``xsettings.toml`` text: exactly one of the two."""

    auditEntries: Any = None
    toml: str | None = None

    @model_validator(mode="after")
    def _one(self) -> "SettingStep":
        if len(self.model_fields_set) != 1:
            raise ValueError("setting has exactly one of auditEntries, toml")
        return self


STEP_MODELS: dict[str, type[OpModel]] = {
    "globalRegistry": GlobalRegistryStep,
    "globalSet": GlobalSetStep,
    "load": EmptyStep,
    "register": ContributionSpec,
    "unregister": UnregisterStep,
    "registerAdapter": AdapterSpec,
    "capture": CaptureRequest,
    "current": CurrentStep,
    "clear": SessionRef,
    "providerRequest": ProviderRequestStep,
    "append": AppendStep,
    "context": ContextStep,
    "compact": SessionRef,
    "navigate": NavigateStep,
    "entries": SessionRef,
    "setting": SettingStep,
    "resume": EmptyStep,
}
"""Step kind -> model of its body. Steps are validated by the implementation (so a malformed step
is a spec error, ``session-step-invalid``), not by the input model."""


def _step_schemas() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """JSON Schemas of the one-key step objects and the definitions they refer to."""
    defs: dict[str, Any] = {}
    items: list[dict[str, Any]] = []
    for kind, model in STEP_MODELS.items():
        schema = model.model_json_schema(ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        defs[model.__name__] = schema
        items.append({"type": "object", "properties": {kind: {"$ref": f"#/$defs/{model.__name__}"}},
                      "required": [kind], "additionalProperties": False})
    return items, defs


class SessionInput(OpModel):
    """A session script (see the module docstring). ``steps`` are validated by the implementation,
    so that a malformed step is answered ``session-step-invalid``; their schema is published."""

    host: Host
    auditEntries: Any = None
    steps: list[Any]

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The pydantic schema with ``steps.items`` made one of the published step objects."""
        schema = super().model_json_schema(*args, **kwargs)
        items, defs = _step_schemas()
        schema.setdefault("$defs", {}).update(defs)
        schema["properties"]["steps"]["items"] = {"anyOf": items}
        return schema


class SessionOutput(OpModel):
    """One answer per step, in order; each has ``step`` and the step's own fields."""

    steps: list[dict[str, Any]]


operation("envelope.session", input=SessionInput, output=SessionOutput,
          summary="Run a session script: registries, adapters, the envelope service, audit entries (N5-N9).")

"""Operations of the envelope area (the pi-developer-messages README, ENV-DECISION-*).

Stateless operations cover one rule each: ``envelope.instructions`` (ENV-DECISION-INSTRUCTIONS), ``envelope.environment``
(ENV-DECISION-ENVIRONMENT, ENV-DECISION-FISH), ``envelope.developer-messages`` (ENV-DECISION-CONTRIBUTIONS plus the environment message), ``envelope.context-message``
and ``envelope.context-hook`` (ENV-DECISION-CONTEXT-FILES), ``envelope.build`` (a whole envelope) and ``envelope.settings``
(ENV-DECISION-AUDIT's setting). Stateful behaviour (ENV-DECISION-*: registries, adapters, the service, audit entries across
turns and branches) is one operation, ``envelope.session``, that runs a *session script*; it is
declared, with the probe payload and probe adapter, in :mod:`conformance.operations.envelope_session`.

Declarative contribution content
--------------------------------
A contribution's ``content`` is one of:

- a string: used as is (then trimmed);
- absent or ``null``: renders nothing;
- ``{returns: VALUE}``: a function that returns VALUE (a string, or ``null`` for nothing) whatever
  the render context;
- ``{template: "FIRST {sessionId}"}``: a function of the render context that substitutes
  ``{provider}`` (the provider id, ``""`` when unknown), ``{sessionId}``, ``{prompt}``,
  ``{activeTools}`` (the active tool names joined by ``,``), ``{customPrompt}``
  (``systemPromptOptions.customPrompt``), ``{cwd}`` (``systemPromptOptions.cwd``, where Pi puts the
  session's working directory) and ``{systemPromptOptions.KEY}`` for any top-level KEY of Pi's
  system-prompt options. An option placeholder renders a string value as is and any other value
  (absent, ``null``, a number, a list, an object) as ``""``. No other placeholder is allowed;
- ``{when: CONDITION, then: CONTENT, otherwise: CONTENT}``: a function that renders ``then`` when the
  condition holds and ``otherwise`` when not (each absent means nothing). CONDITION is exactly one
  of ``{promptContains: TEXT}`` (the prompt contains TEXT), ``{promptEquals: TEXT}`` (the prompt is
  exactly TEXT, compared code unit by code unit, no trimming or case folding) and
  ``{promptEmpty: BOOL}``;
- ``{raises: MESSAGE}``: a function that throws an error whose message is MESSAGE.

Refused contributions
---------------------
``envelope.developer-messages`` and ``envelope.build`` register their ``contributions`` in list
order. A contribution that is refused is reported for itself, in ``refused`` (``[{index, code}]``,
``index`` its position in ``contributions``, ``code`` the error code below), and the call goes on
with the others; ``refused`` is ``[]`` when none was refused.

Versions
--------
Version 2 of the envelope operations added ``{returns}``, ``promptEquals``, ``{cwd}``,
``{systemPromptOptions.KEY}``, free keys in ``systemPromptOptions`` (``cwd`` among them),
``systemPromptOptions`` on ``envelope.developer-messages``, and ``refused`` (version 1 failed the
whole call on the first refused contribution). Session scripts: see
:mod:`conformance.operations.envelope_session`.

Error codes
-----------
``contribution-id-blank``, ``contribution-id-reserved``, ``contribution-priority-invalid``,
``contribution-field-invalid`` (providers or activeTools not a list of strings): a refused
contribution (reported in ``refused``, or as a session step's error). ``adapter-provider-blank``: a refused adapter. ``environment-date-invalid``: a host
date not written ``YYYY-MM-DD``. ``build-failed``: a content function raised (stateless operations;
in a session the service handles it). ``session-step-invalid``: a malformed script.
``registry-missing`` (``globalSet`` before any shared map exists), ``already-loaded`` (a second
``load``) and ``session-entry-unknown`` (``navigate`` to an id the session does not have) answer a
single step.
"""

from __future__ import annotations

from typing import Any

from conformance.operations.base import OpModel, operation
from conformance.operations.envelope_models import CaptureRequest, ContextFileSpec, ContributionSpec, Host, SystemPromptOptions

ENVIRONMENT_ID = "environment"
"""The id of the environment developer message, always the last one (ENV-ENV-LAST)."""

PROJECT_DOC_DIVIDER = "\n\n--- project-doc ---\n\n"
"""What separates a global context file from the project's files (ENV-CTX-DIVIDER)."""


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
          summary="Compose the provider instructions (ENV-DECISION-INSTRUCTIONS).")


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
          summary="Render the environment developer message (ENV-DECISION-ENVIRONMENT, ENV-DECISION-FISH).")


# --- envelope.developer-messages -------------------------------------------------------------


class DeveloperMessagesInput(OpModel):
    """``contributions`` are registered in list order (a repeated id replaces the earlier one; a
    refused one is reported in ``refused``); then the developer messages of one turn are composed
    for the render context given."""

    contributions: list[ContributionSpec] = []
    provider: str | None = None
    activeTools: list[str] = []
    sessionId: str = "session-1"
    prompt: str = ""
    systemPromptOptions: SystemPromptOptions = SystemPromptOptions.model_construct()
    cwd: str = "/work/project"
    host: Host


class RefusedContribution(OpModel):
    """A contribution that was not registered: its ``index`` in ``contributions`` and the error ``code``."""

    index: int
    code: str


class DeveloperMessagesOutput(OpModel):
    """The developer messages in order, environment last; ``refused``: the refused contributions (``[]`` when none)."""

    messages: list[DeveloperMessageOut]
    refused: list[RefusedContribution]


operation("envelope.developer-messages", input=DeveloperMessagesInput, output=DeveloperMessagesOutput,
          summary="Register contributions, then filter, order and render them; environment last (ENV-DECISION-*).")


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
          summary="Render the context-files message, or none (ENV-DECISION-CONTEXT-FILES).")


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
          summary="Inject the context-files message before the history, removing old copies and audits (ENV-DECISION-CONTEXT-FILES, ENV-DECISION-AUDIT).")


# --- envelope.build ----------------------------------------------------------------------------


class BuildInput(OpModel):
    """``contributions`` registered in list order, then one ``request`` built."""

    contributions: list[ContributionSpec] = []
    request: CaptureRequest


class BuildOutput(EnvelopeOut):
    """The envelope; ``refused``: the refused contributions (``[]`` when none)."""

    refused: list[RefusedContribution]


operation("envelope.build", input=BuildInput, output=BuildOutput,
          summary="Build one turn's envelope: provider instructions, developer messages, context message (ENV-DECISION-*).")


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
          summary="Read the auditEntries setting from xsettings.toml (ENV-DECISION-AUDIT).")

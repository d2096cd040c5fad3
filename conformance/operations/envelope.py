"""Input and output models of the envelope area's stateless operations (the pi-developer-messages
README, ENV-DECISION-*); ``envelope.session`` is declared in
:mod:`conformance.operations.envelope_session`. The contribution content forms, refusals, error
codes and revisions are described in the guide ``docs/envelope.md``. Models and schemas only: the
rules are the reference's."""

from __future__ import annotations

from typing import Any, Literal

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
    """A contribution that was not registered: its ``index`` in ``contributions`` and the error
    ``code``: one the ENV-CONTRIB clauses name (``contribution-id-blank``, ...) or
    ``contribution-field-invalid`` (its ``providers`` or ``activeTools`` is not a list of strings)."""

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


class Diag(OpModel):
    """A diagnostic: ``level`` ``warn``, a stable ``code`` (``audit-entries-invalid``: the value is
    not a list of the two roles; ``settings-toml-invalid``: the file is not TOML, both
    ENV-AUDIT-SETTING-INVALID; ``registry-incompatible``: ENV-REGISTRY-INCOMPATIBLE, in a session's
    load step), and ``message``: text for people, never compared."""

    level: Literal["warn"]
    code: Literal["audit-entries-invalid", "settings-toml-invalid", "registry-incompatible"]
    message: str | None = None


class SettingsOutput(OpModel):
    """``auditEntries`` in force; ``toml`` its stored form (ENV-AUDIT-TOML-FORM: the default's when
    there is no file or key, or the value is ignored); ``ignored`` whether a value present in
    the file was ignored (invalid TOML or value) so that the default applies; ``diagnostics``: the
    one diagnostic saying why when it was (ENV-AUDIT-SETTING-INVALID), else ``[]``."""

    auditEntries: list[str]
    toml: str
    ignored: bool
    diagnostics: list[Diag]


operation("envelope.settings", input=SettingsInput, output=SettingsOutput,
          summary="Read the auditEntries setting from xsettings.toml (ENV-DECISION-AUDIT).")

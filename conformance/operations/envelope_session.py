"""The ``envelope.session`` operation: session scripts, the probe payload and the probe adapter.

Contributions, requests and host facts are the models of :mod:`conformance.operations.envelope_models`
(declarative contribution content is described in :mod:`conformance.operations.envelope`).

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
- ``entry: {sessionId, entry}``: a raw session entry appended to the session's branch exactly as
  given (any JSON object: ``{type: "custom", customType, data}``, ``{type: "custom_message",
  customType, content, display, details}``, ``{type: "branch_summary", summary, fromId}``, any
  other ``type``, or none; malformed fields included), as another extension or an earlier version
  of the extension would have written it. The log gives it ``id`` and ``parentId`` (replacing any
  it carries). Later captures compare with it, and ``context``, ``compact`` and ``navigate`` read
  it (clauses ENV-ENTRY-MESSAGES, ENV-AUDIT-READ). Answer ``{entryId}``.
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

The session's entries are Pi's: an audit entry is a custom entry ``{type: "custom", customType:
"@luan.sh/pi-developer-messages/group", data: {entries: [{role, id, content}, ...]}}`` (clause
ENV-AUDIT-GROUP); a ``custom`` entry is never part of a model context.

Versions
--------
Version 2 (this one) added the ``entry`` step and gave audit entries the custom-entry shape above
(version 1 wrote them as custom messages with ``content``, ``display`` and ``details``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator

from conformance.operations.base import OpModel, operation
from conformance.operations.envelope_models import CaptureRequest, ContributionSpec, Host

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


class EntryStep(OpModel):
    """A raw session entry, any JSON object, appended to the session's current branch as given."""

    sessionId: str
    entry: dict[str, Any]


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
    "entry": EntryStep,
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
          summary="Run a session script: registries, adapters, the envelope service, audit entries (ENV-DECISION-*).")

"""The ``envelope.session`` operation's models: session scripts, the probe payload and the probe
adapter (ENV-DECISION-*). Every step with its answer, the probe adapter's methods and the revisions
are described in the guide ``docs/envelope.md``. Models and schemas only: the rules are the
reference's."""

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
    """A probe adapter (its methods are in the guide ``docs/envelope.md``). ``provider`` may be absent so that its refusal
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
    """A session script (its steps are in the guide ``docs/envelope.md``). ``steps`` are validated by the implementation,
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

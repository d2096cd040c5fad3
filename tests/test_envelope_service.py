"""Unit tests of the payload adapters, the envelope service and session scripts."""

from __future__ import annotations

import pytest

from conformance.adapters.base import ImplementationError
from conformance.adapters.reference import ReferenceImplementation
from reference.envelope.build import Envelope, EnvelopeRequest
from reference.envelope.contributions import Contribution, DeveloperMessage, register_contribution
from reference.envelope.environment import HostFacts
from reference.envelope.globals import ADAPTERS_KEY, GlobalScope, SharedRegistry
from reference.envelope.payload import (
    ProbeAdapter,
    ResponsesAdapter,
    apply_envelope,
    on_provider_request,
    register_adapter,
)
from reference.envelope.service import EnvelopeService
from reference.errors import SpecError

HOST = HostFacts(platform="linux", shell="/bin/bash", date="2025-01-31", timezone=None)
ENV = Envelope("p", "NEW", (DeveloperMessage("a", "A"), DeveloperMessage("environment", "E")), None)


def request(**kw) -> EnvelopeRequest:
    base = dict(sessionId="s1", provider="p", activeTools=(), prompt="", systemPrompt="PI",
                systemPromptOptions={}, cwd="/w", agentDir=None, host=HOST)
    base.update(kw)
    return EnvelopeRequest(**base)


# --- adapters ------------------------------------------------------------------------------------


def test_probe_replaces_both_and_never_touches_messages():
    payload = {"system": "PI", "developer": [], "messages": [{"role": "user", "content": "hi"}]}
    out = apply_envelope(payload, ProbeAdapter("p"), "PI", ENV)
    assert out == {"system": "NEW", "developer": [{"id": "a", "content": "A"}, {"id": "environment", "content": "E"}],
                   "messages": [{"role": "user", "content": "hi"}]}
    assert payload["system"] == "PI"  # not mutated


@pytest.mark.parametrize("mode", ["absent", "return-input", "return-nothing"])
def test_system_replacement_survives_developer_step(mode):
    payload = {"system": "PI", "developer": [], "messages": []}
    out = apply_envelope(payload, ProbeAdapter("p", mode), "PI", ENV)
    assert out == {"system": "NEW", "developer": [], "messages": []}


def test_changed_system_prompt_is_kept_and_developer_messages_still_handed_over():
    payload = {"system": "SOMEONE ELSE", "developer": [], "messages": []}
    out = apply_envelope(payload, ProbeAdapter("p"), "PI", ENV)
    assert out == {"system": "SOMEONE ELSE", "developer": [{"id": "a", "content": "A"},
                   {"id": "environment", "content": "E"}], "messages": []}
    assert payload["developer"] == []  # not mutated
    for mode in ("absent", "return-input", "return-nothing"):
        assert apply_envelope(payload, ProbeAdapter("p", mode), "PI", ENV) is payload


def test_provider_request_preconditions():
    reg = SharedRegistry(ADAPTERS_KEY)
    payload = {"system": "PI", "developer": [], "messages": []}
    assert on_provider_request(payload, "p", ENV, "PI", reg) is payload  # no adapter
    register_adapter(reg, ProbeAdapter("q"))
    assert on_provider_request(payload, "p", ENV, "PI", reg) is payload  # adapter of another provider
    register_adapter(reg, ProbeAdapter("p", "absent"))
    register_adapter(reg, ProbeAdapter("p"))  # later registration replaces
    assert on_provider_request(payload, "p", ENV, "PI", reg)["developer"][0]["id"] == "a"
    assert on_provider_request(payload, "q", ENV, "PI", reg) is payload  # envelope built for p
    assert on_provider_request(payload, "p", None, "PI", reg) is payload


@pytest.mark.parametrize("bad", ["", "  ", None])
def test_adapter_without_provider_is_refused(bad):
    with pytest.raises(SpecError) as err:
        register_adapter(SharedRegistry(ADAPTERS_KEY), ProbeAdapter(bad))
    assert err.value.code == "adapter-provider-blank"


def test_responses_adapter_example():
    payload = {
        "model": "m",
        "instructions": "PI",
        "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "stale"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        ],
    }
    out = apply_envelope(payload, ResponsesAdapter("openai-codex"), "PI", ENV)
    assert out["instructions"] == "NEW"
    assert out["model"] == "m"
    assert [i["role"] for i in out["input"]] == ["developer", "developer", "user"]
    assert [i["content"][0]["text"] for i in out["input"]] == ["A", "E", "hi"]
    assert payload["input"][0]["content"][0]["text"] == "stale"


def test_responses_adapter_keeps_foreign_instructions_and_adds_developer_items():
    payload = {"instructions": "other", "input": []}
    out = apply_envelope(payload, ResponsesAdapter(), "PI", ENV)
    assert out["instructions"] == "other"
    assert [i["content"][0]["text"] for i in out["input"]] == ["A", "E"]


# --- service -------------------------------------------------------------------------------------


def test_failing_build_reuses_last_good_of_same_provider_only():
    svc = EnvelopeService(GlobalScope())
    register_contribution(svc.contributions, Contribution(id="x", content=lambda c: "ok" if c.prompt != "boom" else 1 / 0))
    good = svc.capture(request(prompt="fine"))
    assert good.notification is None and good.systemPrompt == "PI"
    bad = svc.capture(request(prompt="boom"))
    assert bad.notification == "System prompt build failed: division by zero"
    assert bad.envelope == good.envelope and bad.audit is None
    other = svc.capture(request(prompt="boom", provider="other"))
    assert other.envelope is None and other.systemPrompt is None
    assert svc.context("s1", []) == []


def test_current_overrides_and_unknown_session():
    svc = EnvelopeService(GlobalScope())
    register_contribution(svc.contributions, Contribution(id="only-q", providers=("q",), content="Q"))
    svc.capture(request())
    assert svc.current("nope").envelope is None
    cur = svc.current("s1", provider="q", cwd="C:\\x")
    assert [m.id for m in cur.envelope.developerMessages] == ["only-q", "environment"]
    assert "<cwd>C:/x</cwd>" in cur.envelope.developerMessages[-1].content
    assert svc.sessions["s1"].envelope.provider == "p"  # no state change
    assert svc.clear("s1") is True and svc.current("s1").envelope is None


def test_audit_across_resume_and_branches():
    svc = EnvelopeService(GlobalScope())
    first = svc.capture(request())
    assert [i["id"] for i in first.audit["data"]["entries"]] == ["environment"]
    svc.resume()
    assert svc.capture(request()).audit is None
    svc.navigate("s1", None)
    again = svc.capture(request())
    assert again.audit is not None and again.audit["parentId"] is None


# --- session scripts -----------------------------------------------------------------------------


def run(steps, **kw):
    inp = {"host": {"platform": "linux", "date": "2025-01-31"}, "steps": steps, **kw}
    return ReferenceImplementation().run("envelope.session", inp, None)


@pytest.mark.parametrize(
    "step,where",
    [
        ({"capture": {"provider": "p", "cwd": "/w"}}, "steps[0].capture.sessionId"),
        ({"nonsense": {}}, "steps[0]"),
        ({"capture": {}, "clear": {}}, "steps[0]"),
        ("capture", "steps[0]"),
        ({"registerAdapter": {"provider": "p", "developerMessages": "sometimes"}}, "steps[0].registerAdapter.developerMessages"),
    ],
)
def test_malformed_step_names_index_and_field(step, where):
    with pytest.raises(ImplementationError) as err:
        run([step])
    assert err.value.code == "session-step-invalid"
    assert err.value.message.startswith(where)


def test_refused_step_is_recorded_and_script_goes_on():
    out = run([{"register": {"content": "x"}}, {"registerAdapter": {"provider": " "}}, {"clear": {"sessionId": "s"}}])
    assert out["steps"] == [
        {"step": "register", "error": {"code": "contribution-id-blank"}},
        {"step": "registerAdapter", "error": {"code": "adapter-provider-blank"}},
        {"step": "clear", "cleared": False},
    ]


def test_every_step_kind_has_one_runner():
    from conformance.adapters.reference import envelope_session as handlers
    from conformance.operations import envelope_session as ops

    assert set(handlers._STEP_RUNNERS) == set(ops.STEP_MODELS)
    assert handlers._NEEDS_LOADED == set(ops.STEP_MODELS) - {"globalRegistry", "globalSet", "load"}


@pytest.mark.parametrize("template, ok", [
    ("{cwd} {customPrompt} {systemPromptOptions.mode}", True),
    ("{systemPromptOptions.}", False),
    ("{options.mode}", False),
    ("{Cwd}", False),
])
def test_template_placeholders(template, ok):
    from pydantic import ValidationError

    from conformance.operations.envelope_models import TemplateContent

    if ok:
        TemplateContent(template=template)
    else:
        with pytest.raises(ValidationError):
            TemplateContent(template=template)

"""Property tests of the envelope reference (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.envelope import audit
from reference.envelope.build import Envelope
from reference.envelope.context_files import AGENTS_MD_TYPE, AUDIT_GROUP_TYPE, inject_context
from reference.envelope.contributions import (
    Contribution,
    DeveloperMessage,
    RenderContext,
    compose_contributions,
)
from reference.envelope.session import SessionLog

ids = st.text(alphabet="aAbB019_-./ ", min_size=1, max_size=6).filter(lambda s: s.strip() and s != "environment")
priorities = st.one_of(st.integers(-5, 5), st.sampled_from([-0.5, 0.25, 1.5]))
contributions = st.lists(st.tuples(ids, priorities), max_size=8, unique_by=lambda t: t[0])
CTX = RenderContext(provider="p")


@given(contributions, st.randoms())
def test_order_does_not_depend_on_registration_order(items, rnd):
    made = [Contribution(id=i, priority=p, content=i) for i, p in items]
    shuffled = made[:]
    rnd.shuffle(shuffled)
    assert compose_contributions(made, CTX) == compose_contributions(shuffled, CTX)


@given(contributions)
def test_priorities_never_decrease(items):
    made = {i: p for i, p in items}
    out = compose_contributions([Contribution(id=i, priority=p, content=i) for i, p in items], CTX)
    assert [made[m.id] for m in out] == sorted(made[m.id] for m in out)


messages = st.lists(
    st.one_of(
        st.builds(lambda t: {"role": "user", "content": t}, st.text(max_size=5)),
        st.just({"role": "custom", "customType": AGENTS_MD_TYPE, "content": "old", "display": False, "timestamp": 0}),
        st.just({"role": "custom", "customType": AUDIT_GROUP_TYPE, "content": "a", "display": True, "details": {}}),
    ),
    max_size=8,
)
NEW = {"role": "custom", "customType": AGENTS_MD_TYPE, "content": "new", "display": False, "timestamp": 0}


@given(messages)
def test_injection_is_idempotent_and_leaves_one_copy(history):
    once = inject_context(history, NEW)
    assert inject_context(once, NEW) == once
    assert [m for m in once if m.get("customType") == AGENTS_MD_TYPE] == [NEW]
    assert once[0] == NEW
    assert not any(m.get("customType") == AUDIT_GROUP_TYPE for m in once)
    assert once[1:] == [m for m in history if m.get("role") == "user"]


contents = st.lists(st.sampled_from(["A", "B", "C"]), min_size=1, max_size=6)


@given(contents)
@settings(max_examples=50)
def test_audit_writes_exactly_when_content_changes(sequence):
    log = SessionLog()
    previous = None
    for text in sequence:
        env = Envelope("p", "PI", (DeveloperMessage("mode", text),), None)
        items = audit.changed_items(audit.audit_items(env, ["developer"]), log.branch())
        entry = audit.audit_entry(items)
        assert (entry is not None) == (text != previous)
        if entry is not None:
            log.append(entry)
        previous = text


_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=4)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=8,
)
_audit_types = st.sampled_from([AUDIT_GROUP_TYPE, "@luan.sh/pi-developer-messages/developer",
                                "@luan.sh/pi-developer-messages/context-user", AGENTS_MD_TYPE, "other"])
_raw_entries = st.one_of(
    st.dictionaries(st.text(max_size=6), _json, max_size=4),
    st.fixed_dictionaries({"type": st.sampled_from(["custom", "custom_message", "branch_summary", "message", "label"]),
                           "customType": _audit_types},
                          optional={"data": _json, "details": _json, "content": _json, "display": _json,
                                    "message": _json, "summary": _json, "fromId": _json}),
)


@settings(max_examples=60)
@given(st.lists(_raw_entries, max_size=6))
def test_any_raw_entries_never_make_a_session_step_fail(entries):
    from conformance.adapters.reference import ReferenceImplementation

    steps = [{"register": {"id": "mode", "content": {"template": "Mode: {prompt}"}}}]
    steps += [{"entry": {"sessionId": "s1", "entry": e}} for e in entries]
    steps += [
        {"capture": {"sessionId": "s1", "provider": "p", "prompt": "x", "systemPrompt": "PI", "cwd": "/w"}},
        {"context": {"sessionId": "s1"}}, {"compact": {"sessionId": "s1"}},
        {"navigate": {"sessionId": "s1", "to": None}}, {"entries": {"sessionId": "s1"}},
    ]
    out = ReferenceImplementation().run("envelope.session", {"host": {"platform": "linux", "date": "2025-01-31"},
                                                             "steps": steps}, None)
    assert not any("error" in answer for answer in out["steps"])

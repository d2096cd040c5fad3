"""Invariants of the pi area: templates (PI-DECISION-TEMPLATES), system-message replay and conversion (PI-DECISION-MESSAGES, PI-DECISION-CONVERSION),
``models.json`` values (PI-DECISION-MODELS)."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.invariants.core import Client, Counterexample, invariant
from conformance.strategies import frames_for
from conformance.strategies.pi import env as _env
from conformance.strategies.messages import drawn, extra_message, system_message, user_message

# --- templates ----------------------------------------------------------------------------------

_no_dollar = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="$\x00",
                                            exclude_categories=("Cs",)), max_size=30)
_args = st.lists(st.text(alphabet="ab $1@{}:-'\"\\ ", max_size=5), max_size=4)


@invariant("inv-tpl-no-placeholder-identity", area="pi",
           title="A template without placeholders expands to itself, whatever the arguments",
           clauses=["PI-TPL-SUB-ONE-PASS", "PI-TPL-EXPAND-NO-PLACEHOLDERS"],
           ops=["pi.substitute-args", "pi.expand-input"], strategy=lambda: st.tuples(_no_dollar, _args,
                                                                                    st.text("ab c", max_size=8)))
def template_identity(client: Client, example) -> None:
    content, args, arg_text = example
    text = client.call("pi.substitute-args", {"content": content, "args": args})["text"]
    if text != content:
        raise Counterexample(f"substituting {args!r} into {content!r} gave {text!r}")
    out = client.call("pi.expand-input", {"text": f"/t {arg_text}" if arg_text else "/t",
                                          "templates": [{"name": "t", "content": content}]})
    if out["kind"] != "template" or out["text"] != content:
        raise Counterexample(f"expanding /t with content {content!r} gave {out['kind']} {out['text']!r}")


# Arguments without quote characters; a backslash never ends one (inside double quotes ``\\"`` is
# an escaped quote, so such an argument cannot be re-quoted as is).
_arg = st.text(alphabet=st.sampled_from(list("ab1 \t$@-\\é")), max_size=6).filter(lambda s: not s.endswith("\\"))


@invariant("inv-tpl-args-requote", area="pi",
           title="Parsing re-quoted arguments gives them back, for arguments without quotes",
           clauses=["PI-TPL-ARGS-SPLIT", "PI-TPL-ARGS-QUOTE", "PI-TPL-ARGS-EMPTY"],
           ops=["pi.parse-args"], strategy=lambda: st.tuples(st.lists(_arg, max_size=5),
                                                              st.sampled_from(['"', "'"]),
                                                              st.sampled_from([" ", "  ", "\t"])))
def args_round_trip(client: Client, example) -> None:
    args, quote, sep = example
    text = sep.join(f"{quote}{a}{quote}" for a in args)
    got = client.call("pi.parse-args", {"text": text})["args"]
    if got != args:
        raise Counterexample(f"parsing {text!r} gave {got!r}, expected {args!r}")


# --- system-message replay ------------------------------------------------------------------------

def _baseline(state: dict) -> dict:
    """A system message that establishes ``state`` (an answer of ``pi.replay-system``) as a new
    baseline."""
    m = {"role": "system", "replace": True, "content": state["content"], "timestamp": 0}
    if state["sections"]:
        m["sections"] = {s["name"]: s["text"] for s in state["sections"]}
    if state["tools"]:
        m["toolsAdded"] = state["tools"]
    return m


@invariant("inv-msg-replay-batch", area="pi",
           title="Replaying system messages in one batch or one by one gives the same state",
           clauses=["PI-REPLAY-CONTENT-APPEND", "PI-REPLAY-SECTION-SET", "PI-REPLAY-SECTION-REMOVE",
                    "PI-REPLAY-TOOLS", "PI-REPLAY-REPLACE", "PI-REPLAY-RENDER"],
           ops=["pi.replay-system"], strategy=lambda: st.lists(drawn(system_message), min_size=1, max_size=5))
def replay_batch(client: Client, messages) -> None:
    batch = client.call("pi.replay-system", {"messages": messages})
    state = client.call("pi.replay-system", {"messages": messages[:1]})
    for m in messages[1:]:
        state = client.call("pi.replay-system", {"messages": [_baseline(state), m]})
    if state != batch:
        raise Counterexample(f"one by one gives {state!r}, the batch gives {batch!r}")


@st.composite
def transcript_and_extras(draw) -> tuple[list[dict], list[tuple[int, dict]]]:
    messages = draw(st.lists(drawn(user_message), max_size=3))
    extras = []
    for _ in range(draw(st.integers(1, 3))):
        extra = draw(drawn(extra_message))
        if extra["role"] == "bashExecution":
            extra["excludeFromContext"] = True
        extras.append((draw(st.integers(0, len(messages))), extra))
    return messages, extras


@invariant("inv-msg-convert-excluded", area="pi",
           title="Excluded bash executions and unknown roles change nothing in the model's messages",
           clauses=["PI-CONVERT-BASH-EXCLUDE", "PI-CONVERT-UNKNOWN-DROP", "PI-CONVERT-PASSTHROUGH"],
           ops=["pi.convert-to-llm"], strategy=transcript_and_extras)
def convert_excluded(client: Client, example) -> None:
    messages, extras = example
    mixed = list(messages)
    for at, extra in sorted(extras, key=lambda e: e[0], reverse=True):
        mixed.insert(at, extra)
    plain = client.call("pi.convert-to-llm", {"messages": messages})["messages"]
    with_extras = client.call("pi.convert-to-llm", {"messages": mixed})["messages"]
    if plain != with_extras:
        raise Counterexample("adding excluded bash executions or unknown roles changed the model messages")


# --- models.json values ------------------------------------------------------------------------

_literal = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="$\x00",
                                          exclude_categories=("Cs",)), min_size=1, max_size=20) \
    .filter(lambda s: not s.startswith("!"))


@invariant("inv-mdl-literal-value", area="pi",
           title="A value without $ or a leading ! resolves to itself, whatever the environment",
           clauses=["PI-MODELS-VALUE-FORMS"], ops=["pi.models-value"], strategy=lambda: st.tuples(_literal, _env),
           frames=lambda: [(data["value"], data.get("env") or {}) for data, tree in frames_for("pi.models-value")
                           if "$" not in data["value"] and not data["value"].startswith("!") and data["value"]])
def literal_value(client: Client, example) -> None:
    value, env = example
    out = client.call("pi.models-value", {"value": value, "env": env})
    if out["resolved"] != value or out["form"] != "literal" or out["variables"]:
        raise Counterexample(f"{value!r} resolved to {out!r}")

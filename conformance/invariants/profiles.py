"""Invariants of the profiles area (PROF-DECISION-*)."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.invariants.core import Client, Counterexample, invariant
from conformance.operations.profiles import BEGIN_MARKER as BEGIN
from conformance.operations.profiles import END_MARKER as END
from conformance.strategies.profiles import base_prompt, chain, chain_tree
from conformance.strategies.profiles import layers as _layers


def _framed() -> list[tuple[str, list[str]]]:
    """``(base, layers)`` of the ``profiles.compose`` frames that apply a profile to a base
    prompt holding no unterminated begin marker (what :func:`base_prompt` draws)."""
    import re

    from conformance.strategies import frames_for

    block = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    return [(data.get("systemPrompt") or "", data["layers"]) for data, tree in frames_for("profiles.compose")
            if data.get("layers") and data.get("mode") != "off" and BEGIN not in block.sub("", data.get("systemPrompt") or "")]


def _compose(client: Client, base: str | None, layers: list[str]) -> str | None:
    return client.call("profiles.compose", {"systemPrompt": base, "layers": layers})["systemPrompt"]


@invariant("inv-prof-compose-idempotent", area="profiles",
           title="Composing a composed prompt again with the same profile gives the same bytes",
           clauses=["PROF-COMPOSE-IDEMPOTENT", "PROF-STRIP"], ops=["profiles.compose"],
           strategy=lambda: st.tuples(base_prompt(), _layers), frames=_framed)
def compose_twice(client: Client, example) -> None:
    base, layers = example
    once = _compose(client, base, layers)
    twice = _compose(client, once, layers)
    if once != twice:
        raise Counterexample("composing twice changed the prompt")


@invariant("inv-prof-strip-composed", area="profiles",
           title="Stripping a composed prompt gives the stripped base: composing over a composed prompt "
                 "equals composing over the base",
           clauses=["PROF-STRIP", "PROF-COMPOSE"], ops=["profiles.compose"],
           strategy=lambda: st.tuples(base_prompt(), _layers, _layers),
           frames=lambda: [(base, layers, ["Be brief."]) for base, layers in _framed()])
def strip_composed(client: Client, example) -> None:
    base, first, second = example
    switched = _compose(client, _compose(client, base, first), second)
    direct = _compose(client, base, second)
    if switched != direct:
        raise Counterexample("composing over a composed prompt differs from composing over the base")


@invariant("inv-prof-switch-one-block", area="profiles",
           title="Switching profiles never leaves two blocks",
           clauses=["PROF-STRIP", "PROF-BLOCK"], ops=["profiles.compose"],
           strategy=lambda: st.tuples(base_prompt(), st.lists(_layers, min_size=1, max_size=3)),
           frames=lambda: [(base, [layers, ["Be brief."], layers]) for base, layers in _framed()])
def switch_one_block(client: Client, example) -> None:
    prompt, selections = example
    for layers in selections:
        prompt = _compose(client, prompt, layers)
        begins, ends = prompt.count(BEGIN), prompt.count(END)
        if begins != 1:
            raise Counterexample(f"after switching, the prompt holds {begins} begin markers ({ends} end markers)")


MAX_LAYERS = 8
"""The layer limit of a chain (PROF-INHERIT-DEPTH)."""


@invariant("inv-prof-chain-specific-first", area="profiles",
           title="A chain's layers appear specific first, bases nearest first, in the load and in the block; "
                 "past 8 layers it is refused whole",
           clauses=["PROF-INHERIT-ORDER", "PROF-BLOCK", "PROF-INHERIT-DEPTH"], ops=["profiles.load", "profiles.resolve"],
           strategy=chain)
def chain_specific_first(client: Client, bodies) -> None:
    tree = chain_tree(bodies)
    names = [f"p{i}" for i in range(len(bodies))]
    where = {"agentDir": "agent", "cwd": "project"}
    loaded = client.call("profiles.load", where, tree=tree)
    leaf = next((p for p in loaded["global"]["profiles"] if p["ref"] == "global:p0"), None)
    too_deep = len(names) > MAX_LAYERS
    expected = [] if too_deep else [f"global:{n}" for n in names]
    if leaf is None or leaf["layers"] != expected:
        raise Counterexample(f"layers of global:p0 are {leaf and leaf['layers']}, expected {expected}")
    out = client.call("profiles.resolve", {**where, "model": {"provider": "p", "id": "m"},
                                           "session": {"mode": "manual", "profile": "p0"},
                                           "systemPrompt": "base"}, tree=tree)
    if too_deep:
        codes = [d["code"] for d in out["diagnostics"]]
        if (leaf["diagnostic"] or {}).get("code") != "profile-depth" or out["systemPrompt"] is not None \
                or "profile-depth" not in codes:
            raise Counterexample(f"a chain of {len(names)} layers was not refused with profile-depth")
        return
    prompt = out["systemPrompt"] or ""
    pos = 0
    for n, b in zip(names, bodies):
        found = prompt.find(f"{n} says {b}", pos)
        if found < 0:
            raise Counterexample(f"the body of {n} is missing from the block, or out of order")
        pos = found + 1

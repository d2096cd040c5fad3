"""Strategies of the profiles area's commands and session scripts (PROF-DECISION-* and the pickers):
configs, bindings, settings, config edits, picker lists at their limits, and session scripts."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from conformance.strategies.profiles import (MODELS, REFERENCES, _where, base_prompt, config_object,
                                             profiles_config, profiles_tree, rule)
from conformance.strategies.registry import strategy

SCOPES = ("global", "project")
KEYS = ("subagents", "inheritGlobalBindings", "selection", "defaultProfile", "version", "bindings", "theme", "")
"""The settings registry's keys (PROF-SETTINGS-REGISTRY) and keys it does not have."""

VALUES = ("bindings", "inherit", "off", "OFF", " off ", "true", " true ", "false", "True", "1", "auto", "manual",
          "", "base", "global:base", "project:review", "global:missing", "a b", "{}")
"""Values as a user types them after ``set KEY``: each key's own, other case, padded, empty."""

KEY_VALUES = {"subagents": ("bindings", "inherit", "off", "OFF", " off "),
              "inheritGlobalBindings": ("true", "false", " true ", "True", "1"),
              "selection": ("auto", "off", "manual", "Auto"),
              "defaultProfile": ("base", "global:base", "project:review", "a b")}
"""The values each registry key accepts, and near misses of them."""


@st.composite
def value_for(draw: Any, key: str) -> str:
    """A value for ``set KEY``: mostly one near the key's own values, else any of :data:`VALUES`."""
    own = KEY_VALUES.get(key)
    return draw(st.sampled_from(own if own and draw(st.integers(0, 3)) else VALUES))


@strategy("profiles.config")
def config() -> Any:
    """A config as a JSON value or as a text, for either scope."""
    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        data: dict = {"scope": draw(st.sampled_from(SCOPES))}
        if draw(st.booleans()):
            data["config"] = draw(config_object())
        else:
            data["text"] = draw(profiles_config())
        return data, None

    return build()


PROVIDERS = ("openai", "OpenAI", "openrouter", "", "a*b", "deepseek")
MODEL_IDS = ("gpt-4o", "gpt-4o-mini", "deepseek/r1", "", "*", "gpt-?o", "GPT-4o")


@strategy("profiles.match")
def match() -> Any:
    """One binding's rules (patterns with ``*`` anywhere, ``?`` and brackets as plain characters,
    empty and non-string fields) against a model whose names hold ``/`` and ``*``."""
    model = st.builds(lambda p, m: {"provider": p, "id": m}, st.sampled_from(PROVIDERS), st.sampled_from(MODEL_IDS))
    return st.tuples(st.lists(rule(), max_size=4), st.one_of(st.sampled_from(MODELS), model)) \
        .map(lambda e: ({"match": e[0], "model": e[1]}, None))


@strategy("profiles.settings")
def settings() -> Any:
    """The registry, ``set`` parsing of every key and value in each scope, and effective values
    over global and project configs (valid, invalid, another version, absent)."""
    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        action = draw(st.sampled_from(["registry", "parse", "effective"]))
        data: dict = {"action": action}
        if action == "parse":
            key = draw(st.sampled_from(KEYS))
            data.update(key=key, value=draw(value_for(key)), scope=draw(st.sampled_from(SCOPES)))
        elif action == "effective":
            data["key"] = draw(st.sampled_from(KEYS[:4]))
            data["global"] = draw(st.one_of(st.none(), config_object()))
            data["project"] = draw(st.one_of(st.none(), config_object()))
        return data, None

    return build()


@st.composite
def edited_tree(draw: Any, scope: str) -> dict:
    """A profiles tree whose ``scope`` config is absent, valid, of another version, not an
    object or not JSON."""
    tree = draw(profiles_tree())
    path = "agent/system-prompts/config.json" if scope == "global" else "project/.pi/system-prompts/config.json"
    kind = draw(st.integers(0, 5))
    if kind == 0:
        tree.pop(path, None)
    elif kind == 1:
        tree[path] = draw(st.sampled_from(['{"version": 2, "subagents": "off"}\n', "[]\n", "{\n", '"x"\n']))
    else:
        value = draw(config_object())
        if isinstance(value, dict) and draw(st.integers(0, 4)):
            value["version"] = 1  # mostly editable, so the edit itself is reached
            for key in draw(st.lists(st.sampled_from(sorted(KEY_VALUES)), max_size=2)):
                value.setdefault(key, {"selection": {"mode": "auto"}, "inheritGlobalBindings": False,
                                       "subagents": "off", "defaultProfile": "base"}[key])
        tree[path] = json.dumps(value, indent=2) + "\n"
    return tree


@strategy("profiles.config-edit")
def config_edit() -> Any:
    """``set``/``unset`` of every registry key (and keys it does not have) in either scope, with
    values valid or not, over :func:`edited_tree`, now and then with the file changed between
    reading and writing (``outsideChange``)."""
    @st.composite
    def build(draw: Any) -> tuple[dict, dict]:
        scope = draw(st.sampled_from(SCOPES))
        data = {**_where(draw), "scope": scope, "action": draw(st.sampled_from(["set", "unset"])),
                "key": draw(st.sampled_from(KEYS[:4] if draw(st.integers(0, 4)) else KEYS))}
        if draw(st.integers(0, 3)):
            data["trusted"] = True
        if data["action"] == "set" or draw(st.integers(0, 4)) == 0:
            data["value"] = draw(value_for(data["key"]))
        if draw(st.integers(0, 4)) == 0:
            data["outsideChange"] = draw(st.sampled_from(['{"version": 1, "theme": "light"}\n', "", "{"]))
        return data, draw(edited_tree(scope))

    return build()


ROWS = (None, 0, 1, 4, 5, 6, 13, 14, 15, 24, 40)
"""Terminal heights around the limits (four rows of chrome, at least one row, at most ten)."""

ITEMS = ("gpt-4o", "GPT-4o-mini", "deepseek/deepseek-chat", "claude", "o3", "Zeta-1", "a", "A", "é", "*")


@strategy("profiles.picker")
def picker() -> Any:
    """Every picker action: provider and model lists with repeated names, other cases and ``/``
    in ids; filters with blank, padded and other-case queries; windows for 0 to 25 items, the
    selection at the ends, in the middle and outside, at the terminal heights of :data:`ROWS`;
    pages of 0 to 25 items (ten to a page); bind choices with and without a provider."""
    model = st.builds(lambda p, m: {"provider": p, "id": m},
                      st.sampled_from(["openai", "OpenAI", "openrouter", "zai", "b", "B"]), st.sampled_from(ITEMS))

    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        action = draw(st.sampled_from(["providers", "models", "filter", "window", "pages", "bind"]))
        data: dict = {"action": action}
        if action in ("providers", "models", "bind"):
            data["models"] = draw(st.lists(model, max_size=6))
            if action != "providers" and draw(st.integers(0, 3)):
                data["provider"] = draw(st.sampled_from(["openai", "OpenAI", "*", "none", ""]))
        elif action == "filter":
            data["items"] = draw(st.lists(st.sampled_from(ITEMS), max_size=6))
            data["query"] = draw(st.sampled_from(["", " ", "gpt", "GPT", " gpt ", "/", "4o-", "zz", None]))
        elif action == "window":
            total = draw(st.sampled_from([0, 1, 9, 10, 11, 20, 25]))
            data["total"] = total
            data["selected"] = draw(st.sampled_from([0, 1, 4, 5, 6, total // 2, total - 1, total, -1]))
            rows = draw(st.sampled_from(ROWS))
            if rows is not None:
                data["terminalRows"] = rows
        else:
            data["items"] = [f"m{i}" for i in range(draw(st.sampled_from([0, 1, 9, 10, 11, 20, 21, 25])))]
        return data, None

    return build()


@st.composite
def session_step(draw: Any) -> dict:
    """One step of a ``profiles.session`` script (the steps are described in the guide ``docs/profiles.md``)."""
    do = draw(st.sampled_from(["select", "select", "message", "navigate", "resume", "model", "cwd", "agentStart",
                               "agentStart", "providerRequest", "preview", "write", "remove", "reload", "set",
                               "unset", "beginEdit", "commitEdit", "failNextLoad"]))
    step: dict = {"do": do}
    if do == "select":
        step["mode"] = draw(st.sampled_from(["auto", "manual", "off"]))
        if step["mode"] == "manual" or draw(st.integers(0, 4)) == 0:
            step["profile"] = draw(st.sampled_from(REFERENCES))
    elif do == "navigate":
        step["to"] = draw(st.sampled_from([None, "e1", "e2", "e3", "e9"]))
    elif do == "model":
        if draw(st.integers(0, 4)):
            m = draw(st.sampled_from(MODELS))
            step.update(provider=m["provider"], id=m["id"])
    elif do == "cwd":
        step["path"] = draw(st.sampled_from(["project", "other", "project/sub"]))
    elif do == "agentStart":
        step["systemPrompt"] = draw(st.one_of(st.none(), base_prompt()))
    elif do == "providerRequest":
        step["payload"] = {"system": draw(st.sampled_from(["<composed>", "<block>\n\nbase", "other", None])),
                           "messages": []}
    elif do in ("write", "remove"):
        step["path"] = draw(st.sampled_from(["agent/system-prompts/profiles/base.md",
                                             "project/.pi/system-prompts/profiles/review.md",
                                             "agent/system-prompts/config.json"]))
        if do == "write":
            step["text"] = draw(st.one_of(st.sampled_from(["New body.\n", "", '{"version": 1}\n']),
                                          profiles_config()))
    elif do in ("set", "unset", "beginEdit"):
        step.update(scope=draw(st.sampled_from(SCOPES)), key=draw(st.sampled_from(KEYS[:4])))
        if do == "beginEdit":
            step["action"] = draw(st.sampled_from(["set", "unset"]))
        if do == "set" or step.get("action") == "set":
            step["value"] = draw(value_for(step["key"]))
    return step


@strategy("profiles.session")
def session() -> Any:
    """Scripts of one to six steps over a profiles tree, starting with or without a model, with
    ``PI_SUBAGENT_CHILD`` set now and then (PROF-DECISION-SUBAGENTS)."""
    @st.composite
    def build(draw: Any) -> tuple[dict, dict]:
        data = {**_where(draw), "model": draw(st.one_of(st.none(), st.sampled_from(MODELS))),
                "steps": draw(st.lists(session_step(), min_size=1, max_size=6))}
        if draw(st.integers(0, 3)) == 0:
            data["env"] = {"PI_SUBAGENT_CHILD": draw(st.sampled_from(["1", "0", ""]))}
        return data, draw(profiles_tree())

    return build()


"""Strategies of the profiles area's inputs (PROF-DECISION-*): system prompts holding managed
blocks and forgeries of their markers, and profiles trees -- profile files (empty, at the size
limit and over it, links), ``config.json`` with inheritance chains (around the layer limit, cycles,
missing bases) and bindings whose rules use the pattern characters -- for loading and resolving.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from conformance.operations.profiles import BEGIN_MARKER as BEGIN
from conformance.operations.profiles import END_MARKER as END
from conformance.strategies.registry import strategy

PROFILE_MAX_BYTES = 65_536
"""The size limit of one profile file the spec states (PROF-SIZE-LIMIT)."""

text = st.text(alphabet="xyz #\n", min_size=1, max_size=10)
body = st.text(alphabet="abc #\n", min_size=1, max_size=12).filter(lambda s: s.strip())
layers = st.lists(body, min_size=1, max_size=3)
"""Profile bodies of one selection, the specific one first."""


@st.composite
def block(draw: Any) -> str:
    """A complete managed block as some earlier composition could have left it."""
    inner = draw(st.text(alphabet="old \n", max_size=8))
    return BEGIN + "\n" + inner + "\n" + END + draw(st.sampled_from(["", "\n", "\n\n", "\r\n"]))


@st.composite
def base_prompt(draw: Any) -> str:
    """A base prompt: text, newlines and complete blocks anywhere (never an unterminated begin)."""
    pieces = draw(st.lists(st.one_of(text, block(), st.just("\n"), st.just(END)), max_size=5))
    return "".join(pieces)


forged_prompt = st.lists(st.one_of(text, block(), st.sampled_from(
    ["\n", END, BEGIN, BEGIN + "\n", " " + BEGIN, BEGIN.upper(), "<!-- system-instructions:begin-->"])),
    max_size=5).map("".join)
"""A prompt that may also hold an unterminated begin marker and near misses of the markers."""


@strategy("profiles.compose")
def compose() -> Any:
    """Examples ``(input, tree)`` of ``profiles.compose`` (see the module docstring)."""
    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        data: dict = {"systemPrompt": draw(st.one_of(st.none(), forged_prompt)),
                      "layers": draw(st.one_of(st.none(), layers))}
        if draw(st.booleans()):
            data["mode"] = draw(st.sampled_from(["auto", "manual", "off"]))
        if draw(st.booleans()):
            data["times"] = draw(st.integers(1, 5))
        return data, None

    return build()


@strategy("profiles.strip")
def strip() -> Any:
    """Examples ``(input, tree)`` of ``profiles.strip`` (see the module docstring)."""
    return forged_prompt.map(lambda t: ({"text": t}, None))


@st.composite
def chain(draw: Any) -> list[str]:
    """Bodies of a chain of 1 to 3 profiles, or of 7, 8 or 9 (around the layer limit of
    PROF-INHERIT-DEPTH), the specific one first."""
    size = draw(st.one_of(st.integers(1, 3), st.sampled_from([7, 8, 9])))
    return draw(st.lists(st.text(alphabet="abc ", min_size=1, max_size=6).filter(lambda s: s.strip()),
                         min_size=size, max_size=size))


def chain_tree(bodies: list[str]) -> dict:
    """A tree whose global profiles ``p0`` .. ``pN`` each extend the next, ``p0`` the global
    ``defaultProfile`` (so that resolution builds the whole chain); each body is
    ``"<name> says <body>"``."""
    names = [f"p{i}" for i in range(len(bodies))]
    tree: dict = {f"agent/system-prompts/profiles/{n}.md": f"{n} says {b}" for n, b in zip(names, bodies)}
    meta = {n: {"extends": names[i + 1]} for i, n in enumerate(names[:-1])}
    tree["agent/system-prompts/config.json"] = json.dumps({"version": 1, "defaultProfile": names[0], "profiles": meta},
                                                          indent=2) + "\n"
    tree["project"] = {"dir": True}
    return tree


NAMES = ("base", "review", "a", "B", "x-1", "p.q")
PATTERNS = ("*", "openai", "open*", "gpt-?o", "deepseek/*", "*/*", "[ab]", "", "OpenAI", "gpt-4o")
MODELS = ({"provider": "openai", "id": "gpt-4o"}, {"provider": "openrouter", "id": "deepseek/r1"},
          {"provider": "OpenAI", "id": "gpt-4o"}, {"provider": "b", "id": "a"})


@st.composite
def profile_file(draw: Any) -> Any:
    """One profile file: a short body, an empty one, one at the size limit or one byte over it,
    a link to another profile or a dangling link."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return {"fill": "a", "size": PROFILE_MAX_BYTES + draw(st.integers(-1, 1))}
    if kind == 1:
        return ""
    if kind == 2:
        return {"symlink": draw(st.sampled_from(["base.md", "gone.md"]))}
    return draw(body)


ID_LIMIT = 64
"""The longest profile id the spec allows (PROF-DECISION-LOADING)."""

IDS = NAMES + ("a" * ID_LIMIT, "b" * (ID_LIMIT + 1), "-a", ".a", "a..b", "a b", "é", "", "9_x")
"""Profile ids: valid ones, one at the length limit, and near misses of the id rule
``[A-Za-z0-9][A-Za-z0-9._-]*`` (one over the limit, a bad first character, ``..``, a space,
a non-ASCII letter, empty)."""

REFERENCES = IDS[:6] + ("global:base", "project:review", "other:base", "global:", ":base", "global:missing")
BINDINGS_LIMIT = 200
"""The most bindings a config may hold (PROF-DECISION-CONFIG)."""


@st.composite
def rule(draw: Any) -> Any:
    """A binding rule: provider and model patterns, absent, empty, not strings, or a rule that is
    not an object or carries an unknown key."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from([None, "openai", [], {}, {"provider": 1}, {"model": None}]))
    out: dict = {}
    for key in ("provider", "model"):
        if draw(st.booleans()):
            out[key] = draw(st.sampled_from(PATTERNS))
    if draw(st.integers(0, 9)) == 0:
        out["extra"] = True
    return out


@st.composite
def binding(draw: Any, index: int) -> Any:
    """One binding: id (unique, repeated, blank or missing), profile reference, rules, priority
    (whole, fractional, negative, not a number)."""
    if draw(st.integers(0, 14)) == 0:
        return draw(st.sampled_from([None, "b", [], {}]))
    out: dict = {"id": draw(st.sampled_from([f"b{index}", f"b{index}", "dup", "", " ", 3])),
                 "profile": draw(st.sampled_from(REFERENCES + (None,))),
                 "match": draw(st.one_of(st.lists(rule(), max_size=3), st.sampled_from([None, {}, "x"])))}
    if draw(st.booleans()):
        out["priority"] = draw(st.sampled_from([0, 1, 2, -1, 1.5, 1e9, "1", None, True]))
    if draw(st.integers(0, 9)) == 0:
        del out[draw(st.sampled_from(["id", "profile", "match"]))]
    return out


@st.composite
def config_object(draw: Any) -> Any:
    """A ``config.json`` value (PROF-DECISION-CONFIG): ``version`` (1, or another value that voids the whole file),
    ``selection``, ``defaultProfile``, ``profiles`` (inheritance with chains, cycles, missing
    bases, scoped and malformed ``extends``, descriptions), ``bindings`` (up to the limit of 200
    and one over it), ``inheritGlobalBindings``, ``subagents`` and unknown keys, each valid or
    not; now and then not an object at all."""
    if draw(st.integers(0, 14)) == 0:
        return draw(st.sampled_from([None, [], "x", 1]))
    config: dict = {"version": draw(st.sampled_from([1, 1, 1, 1, 2, "1", 1.0, None]))}
    if draw(st.integers(0, 3)) == 0:
        del config["version"]
    if draw(st.integers(0, 2)) == 0:
        config["selection"] = draw(st.sampled_from([{"mode": "auto"}, {"mode": "off"}, {"mode": "manual", "profile": "base"},
                                                    {"mode": "manual", "profile": "global:review"}, {"mode": "manual"},
                                                    {"mode": "on"}, {"mode": "auto", "x": 1}, "auto", None]))
    if draw(st.integers(0, 2)) == 0:
        config["defaultProfile"] = draw(st.sampled_from(REFERENCES + (None, 1)))
    extends = draw(st.dictionaries(st.sampled_from(IDS), st.one_of(
        st.sampled_from(REFERENCES + ("missing",)), st.sampled_from([None, 1, ["base"]])), max_size=3))
    if extends:
        config["profiles"] = {name: {"extends": base} for name, base in extends.items()}
        for meta in config["profiles"].values():
            if draw(st.integers(0, 3)) == 0:
                meta["description"] = draw(st.sampled_from(["Review code", "", 1]))
            if draw(st.integers(0, 5)) == 0:
                meta["colour"] = "red"
    count = draw(st.integers(0, 3))
    bindings = [draw(binding(i)) for i in range(count)]
    if draw(st.integers(0, 19)) == 0:  # the limit and one over it
        size = draw(st.sampled_from([BINDINGS_LIMIT, BINDINGS_LIMIT + 1]))
        bindings = [{"id": f"b{i}", "profile": "base", "match": [{"provider": "openai"}]} for i in range(size)]
    if bindings or draw(st.integers(0, 5)) == 0:
        config["bindings"] = bindings if draw(st.integers(0, 9)) else draw(st.sampled_from([{}, "x", None]))
    if draw(st.integers(0, 2)) == 0:
        config["inheritGlobalBindings"] = draw(st.sampled_from([True, False, "true", None]))
    if draw(st.integers(0, 2)) == 0:
        config["subagents"] = draw(st.sampled_from(["bindings", "inherit", "off", "Off", "", None]))
    if draw(st.integers(0, 4)) == 0:
        config[draw(st.sampled_from(["theme", "Version", "bindings2"]))] = {"x": 1}
    return config


@st.composite
def profiles_config(draw: Any) -> str:
    """A ``config.json`` text: :func:`config_object` written out, or a text that is not JSON."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["{", "", "\ufeff{\"version\": 1}", '{"version": 1,}']))
    return json.dumps(draw(config_object()), indent=2) + "\n"


@st.composite
def profiles_tree(draw: Any) -> dict:
    """A tree with global profiles under ``agent/`` and project ones under ``project/.pi/``: file
    names with the ids of :data:`IDS` and extensions in either case (and ``.txt``)."""
    tree: dict = {"project": {"dir": True}}
    for prefix in ("agent/system-prompts/", "project/.pi/system-prompts/"):
        for name in draw(st.lists(st.sampled_from(NAMES + IDS), max_size=3, unique=True)):
            tree[f"{prefix}profiles/{name}{draw(st.sampled_from(['.md', '.md', '.MD', '.txt']))}"] = draw(profile_file())
        if draw(st.booleans()):
            tree[prefix + "config.json"] = draw(profiles_config())
    if draw(st.integers(0, 3)) == 0:
        return chain_tree(draw(chain()))
    return tree


def _where(draw: Any) -> dict:
    return {"agentDir": "agent", "cwd": "project", "trusted": draw(st.booleans())}


@strategy("profiles.resolve")
def resolve() -> Any:
    """Examples ``(input, tree)`` of ``profiles.resolve`` (see the module docstring)."""
    @st.composite
    def build(draw: Any) -> tuple[dict, dict]:
        data = _where(draw)
        data["model"] = draw(st.one_of(st.none(), st.sampled_from(MODELS)))
        if draw(st.booleans()):
            data["session"] = {"mode": draw(st.sampled_from(["manual", "auto", "off"])),
                               "profile": draw(st.sampled_from(NAMES))}
        if draw(st.booleans()):
            data["systemPrompt"] = draw(base_prompt())
        return data, draw(st.one_of(profiles_tree(), chain().map(chain_tree)))

    return build()

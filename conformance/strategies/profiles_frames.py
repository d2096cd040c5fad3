"""Frames of the profiles area's loading operations: ``profiles.load`` trees and
``profiles.config`` values built on purpose, one per combination of the classes that
:mod:`conformance.strategies.partitions.profiles` declares, and the drawn ``profiles.load``
strategy, built from one drawn number."""

from __future__ import annotations

import json
import random
from typing import Any

from conformance.strategies.profiles import BEGIN, END, IDS, NAMES, PROFILE_MAX_BYTES, REFERENCES
from conformance.strategies.registry import drawn_number, frames, strategy

GLOBAL = "agent/system-prompts/"
PROJECT = "project/.pi/system-prompts/"
CHARACTERS = "caf\u00e9 \U0001F600 e\u0301"
"""Text holding a letter of the Basic Multilingual Plane, one beyond it and a combining mark."""

BODIES = ("Be brief.\n", "", " \n", "  padded  ", "a\r\nb\r\n", "\ufeffone BOM", "\ufeff\ufeffstill one", "x\ufeffy",
          "say " + BEGIN, END + " here", "<!-- system-instructions:begin v2 -->", CHARACTERS, "b\u00e9")


def _config(pick: random.Random) -> str:
    """A ``config.json`` text with profile metadata (``extends`` of every form) and a few
    bindings; now and then another version or a text that is not JSON."""
    if pick.randrange(10) == 0:
        return pick.choice(("{", "", '{"version": 1,}'))
    config: dict = {"version": pick.choice((1, 1, 1, 2, "1"))}
    names = pick.sample(NAMES + IDS[6:9], pick.randrange(4))
    if names:
        config["profiles"] = {n: {"extends": pick.choice(REFERENCES + ("missing", None, 1, "", "a/b"))} for n in names}
    if pick.randrange(3) == 0:
        config["defaultProfile"] = pick.choice(REFERENCES)
    return json.dumps(config, indent=2) + "\n"


def _file(pick: random.Random) -> Any:
    kind = pick.randrange(10)
    if kind == 0:
        return {"fill": "a", "size": PROFILE_MAX_BYTES + pick.randint(-1, 1)}
    if kind == 1:
        return {"symlink": pick.choice(("base.md", "gone.md", "../side.md"))}
    return pick.choice(BODIES)


def tree_from(pick: random.Random) -> dict:
    """A tree with profiles in both scopes, file names with the ids of :data:`IDS` and
    extensions in either case (and ``.txt``), and a config in each scope now and then."""
    tree: dict = {"project": {"dir": True}}
    for prefix in (GLOBAL, PROJECT):
        for name in pick.sample(NAMES + IDS, pick.randrange(4)):
            tree[f"{prefix}profiles/{name}{pick.choice(('.md', '.md', '.MD', '.txt'))}"] = _file(pick)
        if pick.randrange(2):
            tree[prefix + "config.json"] = _config(pick)
    return tree


@strategy("profiles.load")
def load() -> Any:
    """Examples ``(input, tree)`` of ``profiles.load``: :func:`tree_from`, trusted or not,
    with or without bodies, one scope now and then."""
    def build(k: int) -> tuple[dict, dict]:
        pick = random.Random(k)
        data = {"agentDir": "agent", "cwd": "project", "trusted": pick.random() < 0.5}
        if pick.random() < 0.5:
            data["bodies"] = True
        if pick.randrange(4) == 0:
            data["scope"] = pick.choice(("global", "project"))
        return data, tree_from(pick)

    return drawn_number().map(build)


def bytes_chain(prefix: str) -> tuple[dict, dict]:
    """Five profiles ``w0`` .. ``w4`` (``w0`` extending ``w1`` ...) whose bodies total 262,145
    UTF-8 bytes but 262,144 characters (one two-byte character): their files and metadata."""
    files: dict = {f"{prefix}profiles/w{i}.md": {"fill": "w", "size": PROFILE_MAX_BYTES} for i in (2, 3, 4)}
    files[f"{prefix}profiles/w1.md"] = {"prefix": "\u00e9", "fill": "w", "size": PROFILE_MAX_BYTES}
    files[f"{prefix}profiles/w0.md"] = "w"
    return files, {f"w{i}": {"extends": f"w{i + 1}"} for i in range(4)}


def _chain(prefix: str, name: str, size: int) -> tuple[dict, dict]:
    """``size`` profiles ``NAME0`` .. extending each the next: their files and metadata."""
    files = {f"{prefix}profiles/{name}{i}.md": f"{name}{i}\n" for i in range(size)}
    meta = {f"{name}{i}": {"extends": f"{name}{i + 1}"} for i in range(size - 1)}
    return files, meta


@frames("profiles.load")
def load_frames() -> list[tuple[dict, dict]]:
    """File names of every class (in a trusted project without config.json), links of every
    kind and profiles/ as a link, profiles/ as a file beside an untrusted project, bodies of every
    class around the size limit, and chains of every length and form of ``extends``."""
    where = {"agentDir": "agent", "cwd": "project", "trusted": True, "bodies": True}
    names = {f"{GLOBAL}profiles/{n}": "x\n" for n in
             ("base.md", "Review.MD", "review.md", "notes.txt", "a" * 64 + ".md", "b" * 65 + ".md", "-dash.md",
              "a..b.md", "a b.md", ".md", "caf\u00e9.md")}
    names[f"{PROJECT}profiles/base.md"] = "project base\n"
    links = {f"{GLOBAL}profiles/base.md": "base\n", f"{GLOBAL}profiles/alias.md": {"symlink": "base.md"},
             f"{GLOBAL}profiles/evil.md": {"symlink": "../../../secret.md"}, "secret.md": "secret\n",
             f"{GLOBAL}profiles/sib.md": {"symlink": "../side.md"}, f"{GLOBAL}side.md": "side\n",
             f"{GLOBAL}profiles/dangle.md": {"symlink": "gone.md"}, f"{GLOBAL}profiles/dir.md": {"dir": True},
             f"{PROJECT}profiles": {"symlink": "../../elsewhere"}, "project/elsewhere/there.md": "there\n"}
    flat = {f"{GLOBAL}profiles": "not a directory\n", f"{PROJECT}profiles/mine.md": "mine\n"}
    bodies: dict = {f"{GLOBAL}profiles/b{i}.md": body for i, body in enumerate(BODIES)}
    bodies.update({f"{GLOBAL}profiles/s{d + 1}.md": {"fill": "a", "size": PROFILE_MAX_BYTES + d} for d in (-1, 0, 1)})
    bodies[f"{GLOBAL}profiles/bom.md"] = {"prefix": "\ufeff", "fill": "c", "size": PROFILE_MAX_BYTES + 3}
    bodies[f"{GLOBAL}profiles/latin1.md"] = {"base64": "Y2Fm6Qo="}
    files, meta = _chain(GLOBAL, "d", 8)
    more, more_meta = _chain(GLOBAL, "e", 9)
    files.update(more)
    meta.update(more_meta)
    files.update({f"{GLOBAL}profiles/{n}.md": n + "\n" for n in ("self", "c1", "c2", "c3", "orphan", "base", "g")})
    meta.update({"self": {"extends": "self"}, "c1": {"extends": "c2"}, "c2": {"extends": "c3"}, "c3": {"extends": "c1"},
                 "orphan": {"extends": "missing"}, "g": {"extends": "project:p"}})
    for i, size in enumerate((PROFILE_MAX_BYTES,) * 4 + (1,)):
        files[f"{GLOBAL}profiles/z{i}.md"] = {"fill": "z", "size": size}
    meta.update({f"z{i}": {"extends": f"z{i + 1}"} for i in range(4)})
    meta["y0"] = {"extends": "z1"}
    files[f"{GLOBAL}profiles/y0.md"] = {"fill": "y", "size": PROFILE_MAX_BYTES - 1}  # y0..z4: 262,144 bytes, z0..z4: 262,145
    project_meta = {"p": {"extends": "global:base"}, "q": {"extends": "project:p"}, "r": {"extends": "base"},
                    "n": {"extends": None}, "m": {"extends": 3}, "l": {"extends": ["base"]}, "k": {"extends": ""},
                    "j": {"extends": "a/b"}, "i": {"extends": "other:base"}}
    files.update({f"{PROJECT}profiles/{n}.md": n + "\n" for n in project_meta})
    files[GLOBAL + "config.json"] = json.dumps({"version": 1, "profiles": meta}, indent=2) + "\n"
    files[PROJECT + "config.json"] = json.dumps({"version": 1, "profiles": project_meta}, indent=2) + "\n"
    wide, wide_meta = bytes_chain(GLOBAL)
    wide[GLOBAL + "config.json"] = json.dumps({"version": 1, "profiles": wide_meta}) + "\n"
    return [(where, names), (where, links), ({**where, "trusted": False}, flat),
            ({**where, "scope": "global"}, bodies), (where, files), ({**where, "bodies": False}, wide), (where, across_scopes())]


def across_scopes() -> dict:
    """Chains across the scopes where one id names a profile in each: a project profile extending
    the global one of its id, ids met again in the other scope further down, a cycle reached from
    the project; and file names of word characters outside the id set or ending in a line break
    (PROF-INHERIT-CYCLE, PROF-ID)."""
    global_meta = {"review": {"extends": "base"}, "a": {"extends": "b"}, "c": {"extends": "global:d"},
                   "x": {"extends": "y"}, "y": {"extends": "x"}}
    project_meta = {"review": {"extends": "global:review"}, "a": {"extends": "global:a"}, "c": {"extends": "d"},
                    "d": {"extends": "global:c"}, "x": {"extends": "global:x"}}
    tree: dict = {f"{GLOBAL}profiles/{n}.md": f"global {n}\n" for n in ("review", "base", "a", "b", "c", "d", "x", "y")}
    tree.update({f"{PROJECT}profiles/{n}.md": f"project {n}\n" for n in project_meta})
    tree.update({f"{GLOBAL}profiles/{n}.md": "x\n" for n in ("_fast", "stra\u00dfe", "\u0663", "\U0001D41Ax", "late\n")})
    tree[GLOBAL + "config.json"] = json.dumps({"version": 1, "profiles": global_meta}, indent=2) + "\n"
    tree[PROJECT + "config.json"] = json.dumps({"version": 1, "profiles": project_meta}, indent=2) + "\n"
    return tree


def _binding(id: Any, **fields: Any) -> dict:
    return {"id": id, "profile": "base", "match": [{"provider": "openai"}], **fields}


@frames("profiles.config")
def config_frames() -> list[tuple[dict, None]]:
    """Texts of every JSON form, every version, each key in each of its forms (one config
    holding every form of a binding, a rule and a priority), the number of bindings around the
    limit, and a config whose keys are all bad at once."""
    texts = ["", '{"version": 1,}', '{"version": 1 // a comment\n}', '{"version": 1, "x": NaN}', "\ufeff{\"version\": 1}",
             "\ufeff\ufeff{\"version\": 1}", " \ufeff{\"version\": 1}",
             '\ufeff{"version": 1, "profiles": {"base": {"description": "\ufeffBase"}}}',
             "null", '{"version": 1, "bindings": [{"id": "b", "profile": "base", "priority": 1e400, '
                     '"match": [{"provider": "openai"}]}]}']
    every = {
        "version": 1, "theme": "dark",
        "selection": {"mode": "manual", "profile": "global:base", "pinned": True},
        "defaultProfile": "base",
        "profiles": {"review": {"extends": "base", "description": "R\u00e9vise " + CHARACTERS, "colour": "red"},
                     "a b": {}, "x": 1, "y": {"description": 2}, "z": {"extends": 3}},
        "bindings": [_binding("ok", priority=-1), "b", _binding("bad id"), _binding("half", priority=1.5), _binding("ok"),
                     _binding("sp", profile=" base"), _binding("np", profile="other:base"),
                     {"id": "none", "match": [{"provider": "openai"}]},
                     _binding("m1", match="openai"), _binding("m2", match=[]),
                     _binding("m3", match=[{"provider": ""}, {"model": 1}, {"provider": "a", "x": 1}, "openai"]),
                     _binding("r1", match=[{"provider": "openai", "model": "gpt-4o"}, {}]),
                     _binding("p1", priority="1"), _binding("p2", priority=True), _binding("u", note="kept")],
        "inheritGlobalBindings": True, "subagents": "inherit"}
    configs: list = [[], {}, {"version": "1"}, {"version": True}, {"version": 2}, every]
    configs += [{"version": 1, "selection": s, "subagents": p} for s, p in
                (({"mode": "auto"}, "bindings"), ({"mode": "off"}, "off"), ({"mode": "manual"}, "Off"),
                 ({"mode": "on"}, "bindings"), ("auto", "off"), ({"mode": "auto"}, "Inherit"), ({"mode": "auto"}, " off"))]
    configs += [{"version": 1, "defaultProfile": "project:review", "profiles": [], "bindings": {}},
                {"version": 1, "defaultProfile": 1, "bindings": [], "inheritGlobalBindings": "true"}]
    configs += [{"version": 1, "bindings": [_binding(f"b{i}") for i in range(n)]} for n in (199, 200, 201)]
    configs.append({"version": 1, "selection": "x", "defaultProfile": 1, "profiles": [], "bindings": "x", "subagents": ""})
    out = [({"scope": "project", "text": t}, None) for t in texts]
    out += [({"scope": "project", "config": c}, None) for c in configs]
    out.append(({"scope": "global", "config": {**every, "inheritGlobalBindings": False}}, None))
    # PROF-ID: word characters outside the id set (a leading underscore, letters and digits beyond ASCII)
    wordy = ("_fast", "caf\u00e9", "stra\u00dfe", "\u043a\u043b\u044e\u0447", "\U0001D41Ax", "\u0663", "\uff11x")
    out.append(({"scope": "global", "config": {"version": 1, "profiles": {n: {} for n in wordy + ("fast", "a_b")},
                                               "bindings": [_binding(n) for n in wordy + ("fast", "a_b")]}}, None))
    # PROF-ID matched in full: a line break ending or starting an otherwise valid id
    broken = ("review\n", "\nlead", "ok\n\n")
    out.append(({"scope": "global", "config": {"version": 1, "profiles": {n: {} for n in broken + ("ok",)},
                                               "bindings": [_binding(n) for n in broken + ("ok",)]}}, None))
    return out


# --- resolution ------------------------------------------------------------------------------------------------------

@frames("profiles.match")
def match_frames() -> list[tuple[dict, None]]:
    """Every place of ``*`` against a model id holding ``/``, each specificity with the best rule
    not first, ties of the best rule beside dropped rules of every kind, no rule, all dropped, one
    field matching and not the other, and model names holding ``*``, nothing and other characters."""
    routed = {"provider": "openrouter", "id": "deepseek/r1"}
    openai = {"provider": "openai", "id": "gpt-4o"}
    patterns = [{"provider": "OpenRouter"}, {"provider": "*router"}, {"provider": "open*"}, {"provider": "o*r*r"},
                {"model": "deep*r1"}, {"model": "deepseek/r1*"}, {"model": "d*"}, {"model": "gpt-?o"}, {"model": "[d]*"},
                {"provider": "x*"}]
    ranked = [{"provider": "*"}, {"provider": "openai"}, {"model": "gpt-4o"}, {"provider": "openai", "model": "gpt-4o"}]
    tied = [{"provider": ""}, {"model": 1}, {"provider": "openai", "x": 1}, "openai", None,
            {"provider": "openai"}, {"provider": "openai", "model": "*"}]
    odd = {"provider": "", "id": "gpt*"}
    chars = [{"model": "gpt*"}, {"provider": "caf\u00e9"}, {"model": "\U0001F600"}, {"model": "e\u0301"}, {}]
    return [({"match": m, "model": model}, None) for m, model in
            ((patterns, routed), (ranked, openai), (tied, openai), ([{"provider": ""}, 3], openai), ([], openai),
             (chars, odd), ([{"provider": "openai", "model": "claude"}, {"provider": "anthropic"}], openai),
             ([{"provider": "anthropic"}, {"model": "gpt-4o"}], openai),
             ([{"model": "gpt-*-mini"}, {"model": "*4o"}, {"model": "4o*"}, {"provider": "*ai"}],
              {"provider": "openai-compatible", "id": "gpt-4o-mini-high"}))]


def _scopes(global_: dict, project: dict | None, *, names: tuple = ("base", "hi", "lo", "spec", "gg")) -> dict:
    """A tree with global profiles ``names`` (and a cycle ``cyc``, an ``orphan`` missing its
    parent), project profiles ``pp`` and ``base``, and the two configs (``project`` ``None``: none)."""
    tree: dict = {f"{GLOBAL}profiles/{n}.md": f"{n} body\n" for n in names + ("cyc", "orphan")}
    tree.update({f"{PROJECT}profiles/{n}.md": f"project {n} body\n" for n in ("pp", "base")})
    global_ = {"version": 1, **global_}
    global_.setdefault("profiles", {}).update({"cyc": {"extends": "cyc"}, "orphan": {"extends": "missing"}})
    tree[GLOBAL + "config.json"] = json.dumps(global_, indent=2) + "\n"
    if project is not None:
        tree[PROJECT + "config.json"] = json.dumps({"version": 1, **project}, indent=2) + "\n"
    return tree


def _bound(id: str, profile: str, priority: float = 0, **rule: str) -> dict:
    return {"id": id, "profile": profile, "priority": priority, "match": [rule or {"provider": "openai"}]}


def _tied(id: str, profile: str, priority: float = 0) -> dict:
    """A binding whose three rules match ``openai``/``gpt-4o``, the last two at its best specificity (2)."""
    return {"id": id, "profile": profile, "priority": priority,
            "match": [{"provider": "openai"}, {"model": "gpt-4o"}, {"provider": "open*", "model": "gpt-4o"}]}


@frames("profiles.resolve")
def resolve_frames() -> list[tuple[dict, dict]]:
    """Bindings of both scopes outranked by priority and by specificity, conflicts in each scope
    (the project's over a matching global binding), ties on one profile, bindings whose best rule
    is one of a tie, ``inheritGlobalBindings``
    false, winners and defaults that cannot be built or are not loaded, cycles of two and three
    profiles reached from a pin, a binding and a project default, a project profile extending the
    global one of its id, ties of one id in two scopes and of one reference spelt two ways; every kind of manual pin;
    the selection from each place; subagent children under each policy from each place."""
    model = {"provider": "openai", "id": "gpt-4o"}
    where = {"agentDir": "agent", "cwd": "project", "trusted": True, "model": model, "systemPrompt": "You are Pi."}
    ranked = {"bindings": [_bound("b1", "hi", 1), _bound("b2", "lo"), _bound("b3", "spec", provider="openai", model="gpt-4o"),
                           _bound("b4", "lo", provider="openai")]}
    conflict = {"bindings": [_bound("p1", "pp"), _bound("p2", "base")], "inheritGlobalBindings": True}
    pins = _scopes({}, {"selection": {"mode": "off"}})
    child = {**where, "env": {"PI_SUBAGENT_CHILD": "1"}}
    out = [
        (where, _scopes(ranked, conflict)),
        ({**where, "systemPrompt": None}, _scopes({"bindings": [_bound("g1", "hi"), _bound("g2", "lo")]}, {"defaultProfile": "pp"})),
        ({**where, "systemPrompt": ""}, _scopes({"bindings": [_bound("g1", "hi"), _bound("g2", "hi")], "defaultProfile": "cyc"},
                                                {"bindings": [_bound("p1", "pp", provider="anthropic")],
                                                 "inheritGlobalBindings": False, "defaultProfile": "gone"})),
        (where, _scopes({"bindings": [_bound("g1", "orphan")], "defaultProfile": "base"}, None)),
        (where, _scopes({"bindings": [_bound("g1", "hi"), _bound("g2", "hi"), _bound("g3", "lo", -1)]}, None)),
        # PROF-MATCH-RULE-FIRST: rules of one binding at its best specificity, winning and losing
        (where, _scopes({"bindings": [_tied("g1", "hi", 1), _tied("g2", "lo")]}, None)),
        ({**where, "session": {"mode": "manual"}}, pins),
        ({**where, "session": {"mode": "auto"}, "model": None}, pins),
        ({**where, "trusted": False}, _scopes({"selection": {"mode": "manual", "profile": "gg"}}, {"selection": {"mode": "off"}})),
        (where, _scopes({}, {"selection": {"mode": "manual", "profile": "pp"}})),
        (child, _scopes({"subagents": "inherit", "defaultProfile": "gg"}, {"subagents": "off"})),
        ({**child, "session": {"mode": "manual", "profile": "gg"}}, _scopes(ranked, None)),
        ({**child, "session": {"mode": "off"}}, _scopes(ranked, None)),
        ({**child, "env": {"PI_SUBAGENT_CHILD": "true"}}, _scopes({"subagents": "inherit", "defaultProfile": "gg"}, None)),
        (child, _scopes({"subagents": "inherit", "defaultProfile": "gg"}, None)),
    ]
    out += [({**where, "session": {"mode": "manual", "profile": name}}, pins)
            for name in ("pp", "gg", "nn", "global:gg", "a b", "cyc")]
    # PROF-INHERIT-CYCLE beyond a profile naming itself: a cycle of two pinned, a binding's profile
    # leading into a cycle of three, a project default whose global base comes back; and a project
    # profile extending the global one of its id, which is no cycle
    two = {"cy1": {"extends": "cy2"}, "cy2": {"extends": "cy1"}}
    three = {"t0": {"extends": "t1"}, "t1": {"extends": "t2"}, "t2": {"extends": "t3"}, "t3": {"extends": "t1"}}
    out += [
        ({**where, "session": {"mode": "manual", "profile": "cy1"}},
         _scopes({"profiles": dict(two), "defaultProfile": "base"}, None, names=("base", "cy1", "cy2"))),
        (where, _scopes({"bindings": [_bound("g1", "t0")], "defaultProfile": "base", "profiles": dict(three)}, None,
                        names=("base", "t0", "t1", "t2", "t3"))),
        (where, _scopes({"profiles": dict(two), "defaultProfile": "base"},
                        {"defaultProfile": "pp", "profiles": {"pp": {"extends": "global:cy1"}}}, names=("base", "cy1", "cy2"))),
        (where, _scopes({}, {"defaultProfile": "base", "profiles": {"base": {"extends": "global:base"}}})),
    ]
    # PROF-RESOLVE-CONFLICT by reference, not id: one id in two scopes conflicts, one reference
    # spelt two ways does not, and a third tied binding naming the other scope's makes the three conflict
    out += [(where, _scopes({"bindings": [_bound("g1", "hi")]},
                            {"bindings": [_bound(f"p{n}", name) for n, name in enumerate(names)], "defaultProfile": "pp"}))
            for names in (("base", "global:base"), ("base", "project:base"), ("base", "project:base", "global:base"))]
    wide, wide_meta = bytes_chain(GLOBAL)
    wide.update(_scopes({"defaultProfile": "w0", "profiles": wide_meta}, None))
    out.append((where, wide))
    # PROF-RESOLVE-CONFLICT: a project conflict over a lower-ranked project binding and a better global
    # one, a global conflict beside a project default; PROF-ID: better-ranked bindings dropped for
    # their ids; PROF-INHERIT-CYCLE: ids met again in the other scope further down, no cycle
    out += [
        (where, _scopes({"bindings": [_bound("g1", "hi", 10)], "defaultProfile": "base"},
                        {"bindings": [_bound("p1", "pp", 2), _bound("p2", "base", 2), _bound("p3", "pp", -1)]})),
        (where, _scopes({"bindings": [_bound("g1", "hi"), _bound("g2", "lo")], "defaultProfile": "gg"}, {"defaultProfile": "pp"})),
        (where, _scopes({"bindings": [_bound("_hi", "hi", 9), _bound("caf\u00e9", "lo", 8), _bound("g1", "base")]},
                        {"bindings": [_bound("\u0663", "pp")]})),
        (where, _scopes({"profiles": {"pp": {"extends": "base"}}},
                        {"defaultProfile": "pp", "profiles": {"pp": {"extends": "base"}, "base": {"extends": "global:pp"}}},
                        names=("base", "hi", "lo", "spec", "gg", "pp"))),
    ]
    return out


# --- the managed block -----------------------------------------------------------------------------------------------

OLD = BEGIN + "\nold\n" + END
PROMPTS = ("\n\r\nYou are Pi.", "  You are Pi.", "Intro\n" + OLD + "\n\nmiddle " + OLD + " \ttail", "Pi.\n" + OLD + "\r\n",
           END + " stray, " + BEGIN.upper() + " <!-- system-instructions:begin-->", BEGIN + " unterminated",
           BEGIN + "\nold\n" + BEGIN + "\n" + END + "\n\n" + CHARACTERS, "", "You are Pi.", "\n\r\r\nYou are Pi.",
           OLD + "\n\rYou are Pi.")
"""Base prompts of every form stripping turns on: leading newlines and other white space, blocks
in the middle, twice, at the end, followed by each kind of white space, stray and unterminated
markers, near misses, a begin inside a block, characters, empty, plain, a lone ``\\r`` among the
leading newlines and after a block."""

LAYERS = (["Specific.\n", "Mid\r\nCRLF\r\n", "  indented", "", "# Heading\nbody", CHARACTERS], ["Be brief."], [], None)


@frames("profiles.compose")
def compose_frames() -> list[tuple[dict, None]]:
    """Each base prompt of :data:`PROMPTS` (and none) in each mode (and none given), with each
    kind of layers, composed once and again."""
    modes = ("auto", "manual", "off", None)
    out = []
    for n, prompt in enumerate(PROMPTS + (None,)):
        data: dict = {"systemPrompt": prompt, "layers": LAYERS[n % len(LAYERS)] if n % 3 else LAYERS[0]}
        if modes[n % len(modes)] is not None:
            data["mode"] = modes[n % len(modes)]
        if n % 2:
            data["times"] = 2
        out.append((data, None))
    return out


@frames("profiles.strip")
def strip_frames() -> list[tuple[dict, None]]:
    """Each text of :data:`PROMPTS`."""
    return [({"text": text}, None) for text in PROMPTS]

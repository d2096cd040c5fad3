"""Frames of the profiles area's commands: ``profiles.settings``, ``profiles.config-edit``,
``profiles.picker`` and ``profiles.session`` inputs built on purpose, one per combination of the
classes that :mod:`conformance.strategies.partitions.profiles_commands` declares."""

from __future__ import annotations

import json

from conformance.strategies.profiles import BEGIN, END
from conformance.strategies.profiles_frames import CHARACTERS, GLOBAL, PROJECT
from conformance.strategies.registry import frames

WHERE = {"agentDir": "agent", "cwd": "project", "trusted": True}
MODEL = {"provider": "openai", "id": "gpt-4o"}


@frames("profiles.settings")
def settings_frames() -> list[tuple[dict, None]]:
    """``set`` parsing of keys outside the registry, unknown and empty values, ``selection manual``,
    a project-only key set globally (also with a value it does not accept), defaultProfile with a
    value; effective values from the global config beside a project
    holding an invalid value, and with no project."""
    parses = [("version", "1", "global"), ("theme", "dark", "project"), ("subagents", "", "project"),
              ("selection", "manual", "global"), ("inheritGlobalBindings", "true", "global"), ("subagents", " OFF ", "global"),
              ("defaultProfile", "base", "global"), ("inheritGlobalBindings", "maybe", "global"), ("Subagents", "maybe", "project")]
    out = [({"action": "parse", "key": k, "value": v, "scope": s}, None) for k, v, s in parses]
    good = {"version": 1, "subagents": "inherit", "selection": {"mode": "off"}, "inheritGlobalBindings": False,
            "defaultProfile": "base"}
    bad = {"version": 1, "subagents": "Off", "selection": "auto", "inheritGlobalBindings": "no", "defaultProfile": 3}
    for key in ("subagents", "selection", "inheritGlobalBindings", "defaultProfile"):
        out.append(({"action": "effective", "key": key, "global": good, "project": bad}, None))
        out.append(({"action": "effective", "key": key, "global": good, "project": None}, None))
    return out


def _edit(scope: str, text: "str | None", **data: object) -> tuple[dict, dict]:
    tree: dict = {"project": {"dir": True}, f"{GLOBAL}profiles/base.md": "base\n"}
    if text is not None:
        tree[(GLOBAL if scope == "global" else PROJECT) + "config.json"] = text
    return {**WHERE, "scope": scope, **data}, tree


@frames("profiles.config-edit")
def config_edit_frames() -> list[tuple[dict, dict]]:
    """Edits of a file of another version, not JSON, not an object, holding text outside ASCII
    (every character class), and of a key outside the registry; edits with two problems that
    PROF-EDIT-TRUST ranks (an untrusted project with a refused key and a file of another version,
    or with an unset of a key not set in a file that changes; a removal-only key in a file that is
    not JSON; a project-only key set globally to a value it does not accept; unsets of a key not
    set in a file not editable or changed while edited)."""
    kept = json.dumps({"version": 1, "theme": "Th\u00e8me " + CHARACTERS, "subagents": "off"}, indent=2,
                      ensure_ascii=False) + "\n"
    return [
        _edit("global", '{"version": 2, "subagents": "off"}\n', action="set", key="subagents", value="inherit"),
        _edit("project", "{\n", action="unset", key="selection"),
        _edit("project", "[]\n", action="set", key="selection", value="off"),
        _edit("global", kept, action="set", key="selection", value="auto"),
        _edit("project", kept, action="unset", key="subagents"),
        _edit("global", kept, action="set", key="version", value="2"),
        _edit("project", '{"version": 2}\n', action="set", key="theme", value="dark", trusted=False),
        _edit("project", '{"version": 1}\n', action="unset", key="subagents", trusted=False,
              outsideChange='{"version": 1, "subagents": "off"}\n'),
        _edit("global", "{\n", action="set", key="defaultProfile", value="base"),
        _edit("global", '{"version": 1}\n', action="set", key="inheritGlobalBindings", value="maybe"),
        _edit("global", "[]\n", action="unset", key="subagents"),
        _edit("global", '{"version": 1}\n', action="unset", key="selection", outsideChange='{"version": 1, "selection": {"mode": "off"}}\n'),
    ]


PROVIDERS = ["b", "B", "a", "Mistral", "mistral", "\u00c9cole", "\U0001F600bot", "e\u0301"]


@frames("profiles.picker")
def picker_frames() -> list[tuple[dict, None]]:
    """Providers differing in case, ordered apart by code point and lower case, outside ASCII;
    model ids with ``/``, repeated and differing in case; every kind of query; windows and pages
    around ten; bind on ``*``."""
    models = [{"provider": p, "id": f"{p}-1"} for p in PROVIDERS]
    models += [{"provider": "openai", "id": i} for i in ("gpt-4o", "GPT-4o", "gpt-4o", "org/gpt-5", "\U0001F600-e\u0301")]
    items = ["gpt-4o", "GPT-4o-mini", "deepseek/r1", "caf\u00e9", "\U0001F600", "e\u0301", "a\ufeffb", "gpt\u0085"]
    out: list[tuple[dict, None]] = [({"action": "providers", "models": models}, None),
                                    ({"action": "providers", "models": []}, None),
                                    ({"action": "models", "models": models, "provider": "openai"}, None),
                                    ({"action": "bind", "models": models, "provider": "*"}, None)]
    for query in ("", " \t", "\u00a0\u3000\u2028", "\ufeff", "\ufeffa\ufeffb", "gpt\u0085", "\u001fgpt", "GPT", " gpt ",
                  "zz", None):
        data: dict = {"action": "filter", "items": items}
        if query is not None:
            data["query"] = query
        out.append((data, None))
    for total, selected, rows in ((9, 0, 13), (10, 9, 14), (11, 10, 15), (25, 0, 4), (25, 24, None), (25, 12, 5),
                                  (0, 0, 24)):
        window: dict = {"action": "window", "total": total, "selected": selected}
        if rows is not None:
            window["terminalRows"] = rows
        out.append((window, None))
    out += [({"action": "pages", "items": [f"m{i}" for i in range(n)]}, None) for n in (0, 9, 10, 11, 20, 21)]
    return out


OTHER_BLOCK = BEGIN + "\nSomeone else's block.\n\n" + END + "\n\nYou are Pi."


def _session_tree() -> dict:
    config = {"version": 1, "profiles": {"cyc": {"extends": "cyc"}},
              "bindings": [{"id": "oa", "profile": "terse", "match": [{"provider": "openai"}]}]}
    tree: dict = {f"{GLOBAL}profiles/{n}.md": f"{n} body\n" for n in ("base", "terse", "review", "cyc")}
    tree[GLOBAL + "config.json"] = json.dumps(config, indent=2) + "\n"
    tree["project"] = {"dir": True}
    tree["other"] = {"dir": True}
    return tree


@frames("profiles.session")
def session_frames() -> list[tuple[dict, dict]]:
    """Scripts that select, refuse a pin and keep the last good one, branch back and resume, change
    files before and after a reload, move to another cwd, observe each payload after agent start,
    fail a read, and edit the config over a session pin and while a write races it."""
    scripts = [
        [{"do": "select", "mode": "manual", "profile": "review"}, {"do": "message"},
         {"do": "select", "mode": "manual", "profile": "cyc"}, {"do": "select", "mode": "manual", "profile": "a b"},
         {"do": "select", "mode": "off"}, {"do": "navigate", "to": "e1"}, {"do": "resume"}, {"do": "agentStart"}],
        [{"do": "agentStart", "systemPrompt": "You are Pi."}, {"do": "write", "path": f"{GLOBAL}profiles/terse.md", "text": "New.\n"},
         {"do": "agentStart", "systemPrompt": "You are Pi."}, {"do": "remove", "path": f"{GLOBAL}profiles/review.md"},
         {"do": "reload"}, {"do": "agentStart", "systemPrompt": "You are Pi."},
         {"do": "providerRequest", "payload": {"system": "<composed>", "messages": []}},
         {"do": "providerRequest", "payload": {"system": "<block>\n\nbase", "messages": []}},
         {"do": "providerRequest", "payload": {"system": "other", "messages": []}},
         {"do": "providerRequest", "payload": {"system": OTHER_BLOCK, "messages": []}}, {"do": "cwd", "path": "other"},
         {"do": "model", "provider": "anthropic", "id": "claude"}, {"do": "preview"}],
        [{"do": "failNextLoad"}, {"do": "agentStart"}, {"do": "select", "mode": "manual", "profile": "base"},
         {"do": "set", "scope": "global", "key": "subagents", "value": "off"}, {"do": "unset", "scope": "global", "key": "subagents"},
         {"do": "agentStart"}],
        [{"do": "beginEdit", "scope": "global", "action": "set", "key": "selection", "value": "off"},
         {"do": "write", "path": GLOBAL + "config.json", "text": '{"version": 1}\n'}, {"do": "commitEdit"}],
        [{"do": "unset", "scope": "global", "key": "defaultProfile"}, {"do": "unset", "scope": "global", "key": "theme"},
         {"do": "agentStart"}],
    ]
    out = [({**WHERE, "model": MODEL, "steps": steps}, _session_tree()) for steps in scripts]
    return out + _resolution_frames()


def _tree(global_: dict, project: dict, global_names: tuple, project_names: tuple) -> dict:
    tree: dict = {f"{GLOBAL}profiles/{n}.md": f"{n} body\n" for n in global_names}
    tree.update({f"{PROJECT}profiles/{n}.md": f"project {n} body\n" for n in project_names})
    tree[GLOBAL + "config.json"] = json.dumps({"version": 1, **global_}, indent=2) + "\n"
    tree[PROJECT + "config.json"] = json.dumps({"version": 1, **project}, indent=2) + "\n"
    return tree


def _resolution_frames() -> list[tuple[dict, dict]]:
    """Agent starts that resolve a project conflict beside a matching global binding (with the
    defaults, then without the project's), a global conflict beside a project default, chains
    across scopes (a project profile extending the global one of its id, a cycle reached from the
    project), and pins named with word characters outside the id set."""
    def bound(id: str, profile: str) -> dict:
        return {"id": id, "profile": profile, "match": [{"provider": "openai"}]}

    start = {"do": "agentStart", "systemPrompt": "You are Pi."}
    project = {"bindings": [bound("pa", "a"), bound("pb", "b")]}
    conflict = _tree({"bindings": [bound("gb", "g")], "defaultProfile": "gdef"}, {**project, "defaultProfile": "pdef"},
                     ("g", "gdef"), ("a", "b", "pdef"))
    global_conflict = _tree({"bindings": [bound("g1", "ga"), bound("g2", "gb")], "defaultProfile": "gdef"}, {"defaultProfile": "pdef"},
                            ("ga", "gb", "gdef"), ("pdef",))
    chains = _tree({"profiles": {"review": {"extends": "base"}, "loop": {"extends": "loop2"}, "loop2": {"extends": "loop"}}},
                   {"profiles": {"review": {"extends": "global:review"}, "loop": {"extends": "global:loop"}},
                    "bindings": [bound("pr", "review")]}, ("review", "base", "loop", "loop2"), ("review", "loop"))
    return [
        ({**WHERE, "model": MODEL, "steps": [start, {"do": "write", "path": PROJECT + "config.json",
                                                     "text": json.dumps({"version": 1, **project}) + "\n"},
                                             {"do": "reload"}, start,
                                             {"do": "select", "mode": "manual", "profile": "_fast"},
                                             {"do": "select", "mode": "manual", "profile": "global:caf\u00e9"}]}, conflict),
        ({**WHERE, "model": MODEL, "steps": [start]}, global_conflict),
        ({**WHERE, "model": MODEL, "steps": [start, {"do": "select", "mode": "manual", "profile": "review"}, start,
                                             {"do": "select", "mode": "manual", "profile": "loop"}, start]}, chains),
    ]

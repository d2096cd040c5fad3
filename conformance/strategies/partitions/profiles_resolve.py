"""The input classes of the profiles area's resolution (PROF-DECISION-RESOLUTION, -SUBAGENTS):
``profiles.match`` (one binding's rules against a model) and ``profiles.resolve`` (selection,
bindings of both scopes, defaults, subagents)."""

from __future__ import annotations

import re
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, character_cells
from conformance.strategies.partitions.profiles import (chains, configs, good_id, good_rule, over_in_bytes_only, profile_files,
                                                         reference, same_id_further, wordy)

FIELDS = ("provider", "model")


def field_matches(pattern: str | None, value: str) -> bool:
    """PROF-MATCH-PATTERN: the whole string, ``*`` any run, every other character itself."""
    if pattern is None:
        return True
    return re.fullmatch("".join(".*" if c == "*" else re.escape(c) for c in pattern), value, re.S) is not None


def _part_matches(pattern: str, value: str, how: Callable) -> bool:
    """Whether ``pattern`` matches a part of ``value`` found by ``how`` (``re.match``: from the start)."""
    return how("".join(".*" if c == "*" else re.escape(c) for c in pattern), value, re.S) is not None


def specificity(rule: dict) -> int:
    """PROF-SPECIFICITY: 3 (both exact), 2 (the model), 1 (the provider) or 0; a field holding ``*``
    or absent is a pattern."""
    provider, model = (isinstance(rule.get(f), str) and "*" not in rule[f] for f in FIELDS)
    return 2 * model + provider


def rule_matches(rule: dict, model: dict) -> bool:
    """PROF-MATCH-AND: both fields match (``model`` against the model's ``id``)."""
    return field_matches(rule.get("provider"), str(model.get("provider", ""))) and \
        field_matches(rule.get("model"), str(model.get("id", "")))


# --- profiles.match --------------------------------------------------------------------------------------------------

def _rules(input: dict) -> list:
    rules = input.get("match")
    return rules if isinstance(rules, list) else []


def _model(input: dict) -> dict:
    model = input.get("model")
    return model if isinstance(model, dict) else {}


def _kept(input: dict) -> list[dict]:
    return [r for r in _rules(input) if good_rule(r)]


def _matching(input: dict) -> list[dict]:
    return [r for r in _kept(input) if rule_matches(r, _model(input))]


def _pattern(test: Callable[[str, str], bool]) -> Hit:
    """The class of inputs with a kept rule whose field (pattern, the model's value) passes ``test``."""
    def hit(input: dict, tree: "dict | None") -> bool:
        values = {"provider": str(_model(input).get("provider", "")), "model": str(_model(input).get("id", ""))}
        return any(f in r and test(r[f], values[f]) for r in _kept(input) for f in FIELDS)

    return hit


def _matching_hit(test: Callable[[list[dict]], bool]) -> Hit:
    return lambda input, tree: test(_matching(input))


MATCH = [
    Cell("pattern", "exact, matching", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: "*" not in p and p == v)),
    Cell("pattern", "exact, another string", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: "*" not in p and p != v)),
    Cell("pattern", "differing only in case", ("PROF-MATCH-PATTERN",),
         _pattern(lambda p, v: p != v and p.casefold() == v.casefold())),
    Cell("pattern", "* alone", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: p == "*")),
    Cell("pattern", "* at the start", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: len(p) > 1 and p.startswith("*") and not p.endswith("*"))),
    Cell("pattern", "* at the end", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: len(p) > 1 and p.endswith("*") and not p.startswith("*"))),
    Cell("pattern", "* inside", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: "*" in p[1:-1] and p[0] != "*" and p[-1] != "*")),
    Cell("pattern", "two or more *", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: p.count("*") >= 2)),
    Cell("pattern", "* matching a run holding /", ("PROF-MATCH-PATTERN",),
         _pattern(lambda p, v: "*" in p and "/" in v and field_matches(p, v) and not field_matches(p.replace("*", ""), v)
                  and not re.fullmatch("".join("[^/]*" if c == "*" else re.escape(c) for c in p), v))),
    Cell("pattern", "* matching the empty run", ("PROF-MATCH-PATTERN",),
         _pattern(lambda p, v: "*" in p and p != "*" and field_matches(p.replace("*", ""), v))),
    Cell("pattern", "* not matching", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: "*" in p and not field_matches(p, v))),
    Cell("pattern", "* matching a leading part of the value only", ("PROF-MATCH-PATTERN",),
         _pattern(lambda p, v: "*" in p and not field_matches(p, v) and _part_matches(p, v, re.match))),
    Cell("pattern", "* matching an inner part of the value only", ("PROF-MATCH-PATTERN",),
         _pattern(lambda p, v: "*" in p and not field_matches(p, v) and not _part_matches(p, v, re.match)
                  and _part_matches(p, v, re.search))),
    Cell("pattern", "? or [ ] as plain characters", ("PROF-MATCH-PATTERN",), _pattern(lambda p, v: bool(re.search(r"[?\[\]]", p)))),
    Cell("pattern", "a field absent", ("PROF-MATCH-PATTERN",), lambda i, t: any(len(r) < 2 for r in _kept(i))),
    Cell("rule", "provider and model", ("PROF-MATCH-AND",), lambda i, t: any(len(r) == 2 for r in _kept(i))),
    Cell("rule", "provider only", ("PROF-MATCH-AND",), lambda i, t: any(set(r) == {"provider"} for r in _kept(i))),
    Cell("rule", "model only", ("PROF-MATCH-AND",), lambda i, t: any(set(r) == {"model"} for r in _kept(i))),
    Cell("rule", "no field", ("PROF-MATCH-PATTERN",), lambda i, t: any(r == {} for r in _kept(i))),
    Cell("rule", "one field matching, the other not", ("PROF-MATCH-AND",),
         lambda i, t: any(len(r) == 2 and not rule_matches(r, _model(i))
                          and (field_matches(r["provider"], str(_model(i).get("provider", "")))
                               or field_matches(r["model"], str(_model(i).get("id", "")))) for r in _kept(i))),
    Cell("rule", "dropped: an empty string", ("PROF-CONFIG-RULE",),
         lambda i, t: any(isinstance(r, dict) and "" in (r.get("provider"), r.get("model")) for r in _rules(i))),
    Cell("rule", "dropped: not a string", ("PROF-CONFIG-RULE",),
         lambda i, t: any(isinstance(r, dict) and any(f in r and not isinstance(r[f], str) for f in FIELDS) for r in _rules(i))),
    Cell("rule", "dropped: another key", ("PROF-CONFIG-RULE-KEYS",),
         lambda i, t: any(isinstance(r, dict) and any(k not in FIELDS for k in r) for r in _rules(i))),
    Cell("rule", "dropped: not an object", ("PROF-CONFIG-RULE",), lambda i, t: any(not isinstance(r, dict) for r in _rules(i))),
    Cell("rules", "none", ("PROF-MATCH-OR",), lambda i, t: _rules(i) == []),
    Cell("rules", "every one dropped", ("PROF-CONFIG-RULE",), lambda i, t: _rules(i) != [] and _kept(i) == []),
    Cell("rules", "none of several matching", ("PROF-MATCH-OR",), lambda i, t: len(_kept(i)) >= 2 and not _matching(i)),
    Cell("rules", "one of several matching", ("PROF-MATCH-OR",), lambda i, t: len(_kept(i)) >= 2 and len(_matching(i)) == 1),
    Cell("rules", "several matching, the best not first", ("PROF-MATCH-OR",),
         _matching_hit(lambda m: len(m) >= 2 and specificity(m[0]) < max(specificity(r) for r in m))),
    Cell("rules", "several matching at the same best specificity", ("PROF-MATCH-RULE-FIRST",),
         _matching_hit(lambda m: sum(specificity(r) == max(specificity(x) for x in m) for r in m) >= 2 if m else False)),
    *[Cell("specificity", f"{n} matching", ("PROF-SPECIFICITY",), _matching_hit(lambda m, n=n: any(specificity(r) == n for r in m)))
      for n in (3, 2, 1, 0)],
    Cell("model", "an id holding /", ("PROF-MATCH-PATTERN",), lambda i, t: "/" in str(_model(i).get("id", ""))),
    Cell("model", "a name holding *", ("PROF-MATCH-PATTERN",),
         lambda i, t: "*" in str(_model(i).get("id", "")) + str(_model(i).get("provider", ""))),
    Cell("model", "an empty name", ("PROF-MATCH-PATTERN",), lambda i, t: "" in (_model(i).get("id"), _model(i).get("provider"))),
    *character_cells(("PROF-MATCH-PATTERN",)),
]
"""The classes of ``profiles.match``: every place of ``*`` in a pattern, runs holding ``/`` and
empty runs, ``?`` and brackets kept as characters, case, absent fields, each rule shape kept and
dropped, the rules of a binding (none, all dropped, one or several matching, the best not first,
ties of the best), each specificity, and model names holding ``/``, ``*`` or nothing."""


# --- profiles.resolve ------------------------------------------------------------------------------------------------

def _scope_config(scope: str) -> Callable[[dict, "dict | None"], dict]:
    def get(input: dict, tree: "dict | None") -> dict:
        if scope == "project" and not input.get("trusted"):
            return {}
        for s, config in configs(input, tree):
            if s == scope and isinstance(config, dict) and config.get("version") == 1:
                return config
        return {}

    return get


GLOBAL, PROJECT = _scope_config("global"), _scope_config("project")


def bindings_of(config: dict) -> list[dict]:
    """A config's bindings that survive validation, roughly (PROF-CONFIG-BINDING)."""
    found = config.get("bindings")
    if not isinstance(found, list) or len(found) > 200:
        return []
    return [b for b in found if isinstance(b, dict) and good_id(b.get("id")) and reference(b.get("profile"))
            and isinstance(b.get("match"), list) and any(good_rule(r) for r in b["match"])]


def _rank(binding: dict, model: dict) -> tuple[float, int] | None:
    """A binding's (priority, best specificity) against ``model``, ``None`` when none of its rules matches."""
    found = [specificity(r) for r in binding["match"] if good_rule(r) and rule_matches(r, model)]
    priority = binding.get("priority", 0)
    return (priority if isinstance(priority, (int, float)) and not isinstance(priority, bool) else 0, max(found)) \
        if found else None


def _ranked(input: dict, tree: "dict | None", config: Callable) -> list[tuple[tuple[float, int], dict]]:
    """The matching bindings of a scope with their ranks; the global scope's only when resolution
    consults it (no project binding matches and the project does not skip global bindings)."""
    model = input.get("model")
    if not isinstance(model, dict):
        return []
    if config is GLOBAL and (PROJECT(input, tree).get("inheritGlobalBindings") is False or _ranked(input, tree, PROJECT)):
        return []
    return [(rank, b) for b in bindings_of(config(input, tree)) if (rank := _rank(b, model)) is not None]


def _all_global(input: dict, tree: "dict | None") -> list[dict]:
    """The global bindings that match, whether or not resolution consults them."""
    model = input.get("model")
    return [b for b in bindings_of(GLOBAL(input, tree)) if isinstance(model, dict) and _rank(b, model)]


def _top(input: dict, tree: "dict | None", config: Callable) -> list[str]:
    """The profiles (as written) that the top-ranked matching bindings of a scope name, in file order."""
    ranked = _ranked(input, tree, config)
    if not ranked:
        return []
    top = max(r for r, b in ranked)
    return [b["profile"] for r, b in ranked if r == top]


def _ties(input: dict, tree: "dict | None", config: Callable, same: bool) -> bool:
    """Whether the top-ranked matching bindings of a scope are two or more, naming the same
    profile (``same``) or different ones; a bare id names the profile of the config's scope
    (PROF-REF), so ``base`` and ``project:base`` in the project's config are one profile."""
    names = _top(input, tree, config)
    scope = "project" if config is PROJECT else "global"
    return len(names) >= 2 and (len({_ref(n, scope) for n in names}) == 1) is same


def _tie_by(test: Callable[[list[str], set[tuple[str, str]]], bool]) -> Hit:
    """A tie of two or more top-ranked bindings in a scope whose profiles, as written and as
    references, pass ``test``."""
    def hit(input: dict, tree: "dict | None") -> bool:
        for config, scope in ((PROJECT, "project"), (GLOBAL, "global")):
            names = _top(input, tree, config)
            if len(names) >= 2 and test(names, {_ref(n, scope) for n in names}):
                return True
        return False

    return hit


def _rule_ties(binding: dict, model: dict) -> bool:
    """Whether two different rules of ``binding`` match ``model`` at its best specificity, so that
    which of them it reports is the first one's (PROF-MATCH-RULE-FIRST)."""
    found = [r for r in binding["match"] if good_rule(r) and rule_matches(r, model)]
    best = max((specificity(r) for r in found), default=None)
    return len({tuple(sorted(r.items())) for r in found if specificity(r) == best}) >= 2


def _outranked(by: int) -> Hit:
    """A matching binding beaten by another of its scope on priority (``by`` 0) or specificity (1) alone."""
    def hit(input: dict, tree: "dict | None") -> bool:
        for config in (PROJECT, GLOBAL):
            ranks = [r for r, b in _ranked(input, tree, config)]
            if any(a[by] > b[by] and (by == 0 or a[0] == b[0]) for a in ranks for b in ranks):
                return True
        return False

    return hit


def _session(test: Callable[[dict], bool]) -> Hit:
    return lambda input, tree: isinstance(input.get("session"), dict) and test(input["session"])


def _loaded(input: dict, tree: "dict | None") -> set[tuple[str, str]]:
    return {(s, n[:-3]) for s, n, e in profile_files(input, tree) if n.lower().endswith(".md")
            and (s == "global" or input.get("trusted"))}


def _pin(test: Callable[[str, set], bool]) -> Hit:
    """A session's manual pin whose name passes ``test(name, loaded profiles)``."""
    return lambda i, t: (isinstance(i.get("session"), dict) and i["session"].get("mode") == "manual"
                         and isinstance(i["session"].get("profile"), str) and test(i["session"]["profile"], _loaded(i, t)))


def _unbuildable(input: dict, tree: "dict | None") -> set[tuple[str, str]]:
    """Loaded profiles whose chain cannot be built: a cycle or a missing parent (roughly)."""
    loaded = _loaded(input, tree)
    return {c[0] for c in chains(input, tree) if len(c) > 1 and (c[-1] in c[:-1] or c[-1] not in loaded)}


def _built(input: dict, tree: "dict | None") -> set[tuple[str, str]]:
    """The profiles resolution may build (roughly): a manual pin in either scope, the profile of
    a matching binding of a consulted scope, and each scope's default."""
    out: set[tuple[str, str]] = set()
    session = input.get("session")
    if isinstance(session, dict) and session.get("mode") == "manual" and reference(session.get("profile")):
        out |= {_ref(session["profile"], s) for s in ("project", "global")}
    for config, scope in ((PROJECT, "project"), (GLOBAL, "global")):
        out |= {_ref(b["profile"], scope) for r, b in _ranked(input, tree, config)}
        default = config(input, tree).get("defaultProfile")
        if reference(default):
            out.add(_ref(default, scope))
    return out


def _built_chain(test: Callable[[list[tuple[str, str]]], bool]) -> Hit:
    """The chain of a profile resolution may build passes ``test`` (PROF-INHERIT-CYCLE)."""
    def hit(input: dict, tree: "dict | None") -> bool:
        built = _built(input, tree)
        return any(c[0] in built and test(c) for c in chains(input, tree))

    return hit


def wordy_binding(input: dict, tree: "dict | None") -> bool:
    """A binding of a consulted config that would match the model but is dropped because its id
    holds word characters outside the id set (PROF-ID, PROF-CONFIG-BINDING)."""
    model = input.get("model")
    if not isinstance(model, dict):
        return False
    for config in (PROJECT, GLOBAL):
        found = config(input, tree).get("bindings")
        for b in found if isinstance(found, list) else []:
            if (isinstance(b, dict) and wordy(b.get("id")) and reference(b.get("profile")) and isinstance(b.get("match"), list)
                    and any(good_rule(r) and rule_matches(r, model) for r in b["match"])):
                return True
    return False


def global_conflict_project_default(input: dict, tree: "dict | None") -> bool:
    """A conflict among the global bindings while the trusted project has a default (PROF-AUTO-ORDER)."""
    return _ties(input, tree, GLOBAL, False) and reference(PROJECT(input, tree).get("defaultProfile"))


def project_conflict_over_global(input: dict, tree: "dict | None") -> bool:
    """A conflict among the project's bindings while a global binding matches too."""
    return _ties(input, tree, PROJECT, False) and bool(_all_global(input, tree))


def _default(config: Callable, test: Callable[[str, dict, "dict | None"], bool]) -> Hit:
    return lambda i, t: isinstance(config(i, t).get("defaultProfile"), str) and test(config(i, t)["defaultProfile"], i, t)


def _ref(name: str, scope: str) -> tuple[str, str]:
    prefix, _, id = name.rpartition(":")
    return (prefix or scope, id)


def _child(value: bool) -> Hit:
    return lambda i, t: (isinstance(i.get("env"), dict) and i["env"].get("PI_SUBAGENT_CHILD") == "1") is value


def _policy(name: str) -> Hit:
    def hit(input: dict, tree: "dict | None") -> bool:
        found = [c.get("subagents") for c in (PROJECT(input, tree), GLOBAL(input, tree))
                 if c.get("subagents") in ("bindings", "inherit", "off")]
        return (found[0] if found else "bindings") == name

    return hit


def _selection(config: Callable, mode: str | None = None) -> Hit:
    return lambda i, t: isinstance(config(i, t).get("selection"), dict) and (
        mode is None or config(i, t)["selection"].get("mode") == mode)


def _both(*hits: Hit) -> Hit:
    return lambda i, t: all(h(i, t) for h in hits)


def _model_given(value: bool) -> Hit:
    return lambda i, t: isinstance(i.get("model"), dict) is value


RESOLVE = [
    Cell("selection from", "the session", ("PROF-SELECTION-PRECEDENCE",), lambda i, t: isinstance(i.get("session"), dict)),
    Cell("selection from", "the project config", ("PROF-SELECTION-PRECEDENCE",),
         lambda i, t: not isinstance(i.get("session"), dict) and _selection(PROJECT)(i, t)),
    Cell("selection from", "the global config", ("PROF-SELECTION-PRECEDENCE",),
         lambda i, t: not isinstance(i.get("session"), dict) and not _selection(PROJECT)(i, t) and _selection(GLOBAL)(i, t)),
    Cell("selection from", "nowhere (auto)", ("PROF-SELECTION-PRECEDENCE",),
         lambda i, t: not isinstance(i.get("session"), dict) and not _selection(PROJECT)(i, t) and not _selection(GLOBAL)(i, t)),
    Cell("selection from", "a session beside a config's selection", ("PROF-SELECTION-PRECEDENCE",),
         lambda i, t: isinstance(i.get("session"), dict) and (_selection(PROJECT)(i, t) or _selection(GLOBAL)(i, t))),
    *[Cell("session mode", mode, ("PROF-SELECTION-PRECEDENCE",), _session(lambda s, m=mode: s.get("mode") == m))
      for mode in ("auto", "manual", "off")],
    Cell("manual pin", "a bare name in the trusted project", ("PROF-REF-SESSION",),
         _pin(lambda n, loaded: good_id(n) and ("project", n) in loaded)),
    Cell("manual pin", "a bare name only global", ("PROF-REF-SESSION",),
         _pin(lambda n, loaded: good_id(n) and ("global", n) in loaded and ("project", n) not in loaded)),
    Cell("manual pin", "a bare name in neither scope", ("PROF-REF-SESSION-MISSING",),
         _pin(lambda n, loaded: good_id(n) and ("global", n) not in loaded and ("project", n) not in loaded)),
    Cell("manual pin", "a bare name in neither scope, a trusted project looked in", ("PROF-REF-SESSION-MISSING",),
         lambda i, t: bool(i.get("trusted")) and _pin(lambda n, loaded: good_id(n) and ("global", n) not in loaded
                                                      and ("project", n) not in loaded)(i, t)),
    Cell("manual pin", "an explicit reference", ("PROF-REF",), _pin(lambda n, loaded: reference(n) and ":" in n)),
    Cell("manual pin", "not a reference", ("PROF-SELECTION-INVALID",), _pin(lambda n, loaded: not reference(n))),
    Cell("manual pin", "a profile whose chain fails", ("PROF-MANUAL-MISSING",),
         lambda i, t: _pin(lambda n, loaded: reference(n))(i, t)
         and any(_ref(i["session"]["profile"], s) in _unbuildable(i, t) for s in ("project", "global"))),
    Cell("manual pin", "none given", ("PROF-SELECTION-INVALID",), _session(lambda s: s.get("mode") == "manual" and s.get("profile") is None)),
    Cell("model", "none selected", ("PROF-AUTO-NO-MODEL",), _model_given(False)),
    Cell("model", "given", ("PROF-AUTO-ORDER",), _model_given(True)),
    Cell("bindings", "a project binding matching", ("PROF-AUTO-ORDER",), lambda i, t: bool(_ranked(i, t, PROJECT))),
    Cell("bindings", "a global binding matching", ("PROF-AUTO-ORDER",), lambda i, t: bool(_ranked(i, t, GLOBAL))),
    Cell("bindings", "matching in both scopes", ("PROF-AUTO-ORDER",),
         lambda i, t: bool(_ranked(i, t, PROJECT)) and bool(_all_global(i, t))),
    Cell("bindings", "none matching", ("PROF-AUTO-ORDER",),
         lambda i, t: _model_given(True)(i, t) and not _ranked(i, t, PROJECT) and not _ranked(i, t, GLOBAL)),
    Cell("ranking", "outranked by priority", ("PROF-RESOLVE-ORDER",), _outranked(0)),
    Cell("ranking", "outranked by specificity at equal priority", ("PROF-RESOLVE-ORDER", "PROF-SPECIFICITY"), _outranked(1)),
    Cell("ranking", "a tie naming the same profile", ("PROF-RESOLVE-SAME-PROFILE",),
         lambda i, t: _ties(i, t, PROJECT, True) or _ties(i, t, GLOBAL, True)),
    Cell("ranking", "a conflict in the project", ("PROF-RESOLVE-CONFLICT",), lambda i, t: _ties(i, t, PROJECT, False)),
    Cell("ranking", "a conflict in the global config", ("PROF-RESOLVE-CONFLICT",), lambda i, t: _ties(i, t, GLOBAL, False)),
    Cell("ranking", "a conflict of one id in two scopes", ("PROF-RESOLVE-CONFLICT", "PROF-REF"),
         _tie_by(lambda names, refs: len(refs) > 1 and len({id for s, id in refs}) < len(refs))),
    Cell("ranking", "a tie naming one profile in two spellings", ("PROF-RESOLVE-SAME-PROFILE", "PROF-REF"),
         _tie_by(lambda names, refs: len(refs) == 1 and len(set(names)) > 1)),
    Cell("ranking", "a project conflict over a matching global binding", ("PROF-RESOLVE-CONFLICT",), project_conflict_over_global),
    Cell("ranking", "a project conflict over a lower-ranked project binding", ("PROF-RESOLVE-CONFLICT",),
         lambda i, t: _ties(i, t, PROJECT, False) and len({r for r, b in _ranked(i, t, PROJECT)}) > 1),
    Cell("ranking", "a conflict in the global config beside a project default", ("PROF-RESOLVE-CONFLICT", "PROF-AUTO-ORDER"),
         global_conflict_project_default),
    Cell("bindings", "a matching binding dropped for an id of word characters outside the id set", ("PROF-ID", "PROF-CONFIG-BINDING"),
         wordy_binding),
    Cell("ranking", "two rules of a binding tied at its best", ("PROF-MATCH-RULE-FIRST",),
         lambda i, t: any(_rule_ties(b, i["model"]) for config in (PROJECT, GLOBAL) for r, b in _ranked(i, t, config))),
    Cell("ranking", "a winner whose chain fails", ("PROF-RESOLVE-FALLTHROUGH",),
         lambda i, t: any(_ref(b["profile"], s) in _unbuildable(i, t) for config, s in ((PROJECT, "project"), (GLOBAL, "global"))
                          for r, b in _ranked(i, t, config))),
    Cell("inheritGlobalBindings", "false in the trusted project", ("PROF-INHERIT-GLOBAL-BINDINGS",),
         lambda i, t: PROJECT(i, t).get("inheritGlobalBindings") is False),
    Cell("inheritGlobalBindings", "false, a global binding matching", ("PROF-INHERIT-GLOBAL-BINDINGS",),
         lambda i, t: PROJECT(i, t).get("inheritGlobalBindings") is False and bool(_all_global(i, t))),
    Cell("defaults", "a project default", ("PROF-AUTO-ORDER",), _default(PROJECT, lambda d, i, t: reference(d))),
    Cell("defaults", "a global default", ("PROF-AUTO-ORDER",), _default(GLOBAL, lambda d, i, t: reference(d))),
    Cell("defaults", "a default whose chain fails", ("PROF-RESOLVE-FALLTHROUGH",),
         lambda i, t: any(_default(c, lambda d, i, t, s=s: reference(d) and _ref(d, s) in _unbuildable(i, t))(i, t)
                          for c, s in ((PROJECT, "project"), (GLOBAL, "global")))),
    Cell("defaults", "a default that is not loaded", ("PROF-RESOLVE-FALLTHROUGH",),
         lambda i, t: any(_default(c, lambda d, i, t, s=s: reference(d) and _ref(d, s) not in _loaded(i, t))(i, t)
                          for c, s in ((PROJECT, "project"), (GLOBAL, "global")))),
    Cell("defaults", "none", ("PROF-AUTO-NONE",),
         lambda i, t: "defaultProfile" not in PROJECT(i, t) and "defaultProfile" not in GLOBAL(i, t)),
    Cell("subagent", "a child (PI_SUBAGENT_CHILD=1)", ("PROF-SUBAGENT-DETECT",), _child(True)),
    Cell("subagent", "another value of PI_SUBAGENT_CHILD", ("PROF-SUBAGENT-DETECT",),
         lambda i, t: isinstance(i.get("env"), dict) and "PI_SUBAGENT_CHILD" in i["env"] and i["env"]["PI_SUBAGENT_CHILD"] != "1"),
    *[Cell("subagent", f"a child under {p}", ("PROF-SUBAGENT",), _both(_child(True), _policy(p))) for p in ("bindings", "inherit", "off")],
    Cell("subagent", "a child under the default policy", ("PROF-SUBAGENT-DEFAULT",),
         _both(_child(True), lambda i, t: not any(c.get("subagents") in ("bindings", "inherit", "off")
                                                   for c in (PROJECT(i, t), GLOBAL(i, t))))),
    Cell("subagent", "the project's policy over the global one", ("PROF-SUBAGENT-DEFAULT",),
         lambda i, t: _child(True)(i, t) and PROJECT(i, t).get("subagents") not in (None, GLOBAL(i, t).get("subagents"))
         and GLOBAL(i, t).get("subagents") is not None),
    Cell("subagent", "a child pinned manually under bindings", ("PROF-SUBAGENT", "PROF-RESOLVE-EFFECTIVE"),
         _both(_child(True), _policy("bindings"), _session(lambda s: s.get("mode") == "manual"))),
    Cell("subagent", "a child with selection off under bindings", ("PROF-SUBAGENT-OFF-SELECTION",),
         _both(_child(True), _policy("bindings"), lambda i, t: (i.get("session") or PROJECT(i, t).get("selection")
                                                                or GLOBAL(i, t).get("selection") or {}).get("mode") == "off")),
    Cell("chain", "a profile coming back to itself through another", ("PROF-INHERIT-CYCLE",),
         _built_chain(lambda c: len(c) >= 3 and c[-1] == c[0])),
    Cell("chain", "a profile leading into a cycle of two or more below it", ("PROF-INHERIT-CYCLE",),
         _built_chain(lambda c: c[-1] in c[1:-2])),
    Cell("chain", "a profile extending the profile of its id in the other scope", ("PROF-REF", "PROF-INHERIT-CYCLE"),
         _built_chain(lambda c: any(a[1] == b[1] and a[0] != b[0] for a, b in zip(c, c[1:])))),
    Cell("chain", "a profile whose chain meets one of its ids again in the other scope further down", ("PROF-REF", "PROF-INHERIT-CYCLE"),
         _built_chain(lambda c: len(set(c)) == len(c) and same_id_further(c))),
    Cell("chain", "a profile whose chain runs from the project into a global cycle", ("PROF-INHERIT-CYCLE",),
         _built_chain(lambda c: c[0][0] == "project" and c[-1] in c[:-1] and c[-1][0] == "global")),
    Cell("chain", "bodies over 262,144 bytes but not characters", ("PROF-INHERIT-SIZE",), over_in_bytes_only),
    Cell("trust", "an untrusted project with a config", ("PROF-TRUST",),
         lambda i, t: not i.get("trusted") and any(s == "project" for s, c in configs(i, t))),
    Cell("base prompt", "given", ("PROF-COMPOSE",), lambda i, t: isinstance(i.get("systemPrompt"), str) and i["systemPrompt"] != ""),
    Cell("base prompt", "null or empty", ("PROF-COMPOSE",), lambda i, t: not i.get("systemPrompt")),
]
"""The classes of ``profiles.resolve``: where the selection comes from, each session mode and
each kind of manual pin, a model or none, bindings matching in each scope, every way one binding
loses to another (priority, specificity, a tie on one profile, conflicts, a winner that cannot be
built), conflicts over a matching global binding, over a lower-ranked binding and beside the
project's default, ties whose profiles share an id across scopes or spell one reference two ways,
a binding whose best rule is one of a tie, a matching binding dropped for its id,
``inheritGlobalBindings`` false, defaults of each scope that build or not, chains of a profile that
resolution builds coming back to it or to a base of it, running from the project into a global
cycle, extending the same id in the other scope or meeting an id again there further down,
subagent children under each policy and where it comes from, trust, and the base prompt."""


PARTITIONS: dict[str, list[Cell]] = {
    "profiles.match": MATCH,
    "profiles.resolve": RESOLVE,
}

"""Unit tests of reference.envelope: each expected value is written from the seed and notes."""

from __future__ import annotations

import random

import pytest

from reference.envelope import audit
from reference.envelope.build import EnvelopeRequest, build_envelope, developer_messages
from reference.envelope.collation import id_sort_key
from reference.envelope.context_files import (
    AGENTS_MD_TYPE,
    AUDIT_GROUP_TYPE,
    ContextFile,
    context_body,
    context_message,
    inject_context,
)
from reference.envelope.contributions import (
    Contribution,
    DeveloperMessage,
    RenderContext,
    compose_contributions,
    contribution_registry,
    js_trim,
    register_contribution,
    unregister_contribution,
)
from reference.envelope.environment import HostFacts, environment_message, login_shell, reported_shell
from reference.envelope.globals import CONTRIBUTIONS_KEY, GlobalScope, SharedRegistry
from reference.envelope.instructions import provider_instructions
from reference.envelope.session import entry_messages
from reference.errors import SpecError

N3_ORDER = ["a", "A", "a_b", "a-b", "a.b", "a/b", "a1", "a10", "a2", "b"]
HOST = HostFacts(platform="linux", shell="/bin/zsh", shells=frozenset({"zsh"}), date="2025-01-31",
                 timezone="Europe/Lisbon")


def ctx(**kw) -> RenderContext:
    base = dict(provider="openai-codex", activeTools=("read",), sessionId="s1", prompt="hi")
    base.update(kw)
    return RenderContext(**base)


# --- collation ---------------------------------------------------------------------------------


def test_collation_matches_every_example_of_note_n3():
    for seed in range(5):
        shuffled = N3_ORDER[:]
        random.Random(seed).shuffle(shuffled)
        assert sorted(shuffled, key=id_sort_key) == N3_ORDER


def test_collation_adjacent_pairs_are_strictly_ordered():
    for left, right in zip(N3_ORDER, N3_ORDER[1:]):
        assert id_sort_key(left) < id_sort_key(right), (left, right)


def test_ids_equal_under_uca_fall_back_to_code_points():
    # U+0000 is completely ignorable in the DUCET: both strings share a UCA key.
    assert id_sort_key("ab")[0] == id_sort_key("a\u0000b")[0]
    assert sorted(["ab", "a\u0000b"], key=id_sort_key) == ["a\u0000b", "ab"]



def _table_lines() -> list[str]:
    import pyuca
    from pathlib import Path

    return (Path(pyuca.__file__).parent / "allkeys-10.0.0.txt").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def full_collator():
    from pyuca.collator import Collator_10_0_0

    return Collator_10_0_0()


def _contractions() -> list[str]:
    return ["".join(chr(int(k, 16)) for k in line.split(";")[0].split())
            for line in _table_lines() if line[:1].isalnum() and len(line.split(";")[0].split()) > 1]


def test_the_table_writes_each_first_code_point_as_the_lazy_table_scans_for_it():
    # LazyCollator's scan finds an entry by its first code point written "%04X", then a blank or ";"
    entries = [line for line in _table_lines() if line[:1] not in ("", "#", "@")]
    assert len(entries) > 30000
    firsts = [line.split(";", 1)[0].split(None, 1)[0] for line in entries]
    assert [first for first in firsts if first != "%04X" % int(first, 16)] == []
    assert [line for line, first in zip(entries, firsts) if line[len(first)] not in " \t;"] == []
    assert {len(first) for first in firsts} == {4, 5}


@pytest.mark.parametrize("scans", [0, 3, None, pytest.param(10**9, marks=pytest.mark.untraced)],
                         ids=["split-at-once", "split-after-3", "default", "scans-only"])  # scans-only: 700 scans,
# each made by code the three others measure (tests/conftest.py: untraced)
def test_the_lazily_filled_table_gives_the_full_tables_sort_keys(full_collator, scans):
    from reference.envelope.collation import LazyCollator

    full, lazy = full_collator, LazyCollator()
    if scans is not None:
        lazy.SCANS_BEFORE_SPLIT = scans
    contractions = _contractions()
    assert len(contractions) > 800 and any(ord(c[0]) > 0xFFFF for c in contractions)
    rng = random.Random(7)
    alphabet = [chr(c) for c in [*range(0x20, 0x250), *range(0x300, 0x370), 0x0E40, 0x0E01, 0x0E32, 0x0F71,
                                 0x0F72, 0x0F80, 0x1100, 0x1161, 0x11A8, 0xAC00, 0x4E00, 0x9FEA, 0x17000,
                                 0x1D15E, 0x1D165, 0x20000, 0x2CEB0, 0x10FFFD]]
    strings = contractions + [c + "\u0301" for c in contractions] + [c[0] + "\u0323" + c[1:] for c in contractions]
    strings += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8))) for _ in range(1500)]
    strings += [chr(c) for c in range(0, 0x30000, 61) if not 0xD800 <= c < 0xE000] + N3_ORDER
    rng.shuffle(strings)
    assert [lazy.sort_key(s) for s in strings] == [full.sort_key(s) for s in strings]


def test_a_contraction_collated_after_its_later_code_points_gets_the_full_tables_key(full_collator):
    # each contraction's later code points are collated alone first, so their blocks are scanned
    # before the block of the contraction's first code point
    from reference.envelope.collation import LazyCollator

    lazy = LazyCollator()
    lazy.SCANS_BEFORE_SPLIT = 10**9
    contractions = _contractions()
    later = sorted({c for contraction in contractions for c in contraction[1:]} - {c[0] for c in contractions})
    assert [lazy.sort_key(c) for c in later] == [full_collator.sort_key(c) for c in later]
    assert [lazy.sort_key(c) for c in contractions] == [full_collator.sort_key(c) for c in contractions]
    assert lazy._text is not None  # no split was needed


# --- contributions -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["", "   ", "\t\n", None])
def test_blank_id_is_refused(bad):
    with pytest.raises(SpecError) as err:
        register_contribution(SharedRegistry(CONTRIBUTIONS_KEY), Contribution(id=bad, content="x"))
    assert err.value.code == "contribution-id-blank"
    assert "id" in err.value.message


def test_environment_id_is_reserved():
    with pytest.raises(SpecError) as err:
        register_contribution(SharedRegistry(CONTRIBUTIONS_KEY), Contribution(id="environment"))
    assert err.value.code == "contribution-id-reserved"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "1", True, None])
def test_priority_must_be_finite_number(bad):
    with pytest.raises(SpecError) as err:
        register_contribution(SharedRegistry(CONTRIBUTIONS_KEY), Contribution(id="x", priority=bad))
    assert err.value.code == "contribution-priority-invalid"


def test_same_id_replaces_and_unregister_handle_spares_replacement():
    reg = SharedRegistry(CONTRIBUTIONS_KEY)
    first = register_contribution(reg, Contribution(id="x", content="one"))
    register_contribution(reg, Contribution(id="x", content="two"))
    assert list(reg) == ["x"] and reg["x"].content == "two"
    first()  # the old handle must not remove the replacement
    assert reg["x"].content == "two"
    assert unregister_contribution(reg, "x") is True
    assert unregister_contribution(reg, "x") is False


def test_filters_before_order_and_render():
    called = []

    def spy(c):
        called.append(c.sessionId)
        return "never"

    items = [
        Contribution(id="p", providers=("anthropic",), content=spy),
        Contribution(id="t", activeTools=("read", "write"), content=spy),
        Contribution(id="e", activeTools=(), content="empty tools pass"),
        Contribution(id="k", providers=("openai-codex",), activeTools=("read",), content="kept"),
    ]
    out = compose_contributions(items, ctx())
    assert [m.id for m in out] == ["e", "k"]
    assert called == []


def test_unknown_provider_drops_every_provider_restricted_contribution():
    items = [Contribution(id="a", providers=("x",), content="a"), Contribution(id="b", providers=(), content="b"),
             Contribution(id="c", content="c")]
    assert [m.id for m in compose_contributions(items, ctx(provider=None))] == ["c"]


def test_priority_then_id_order():
    items = [Contribution(id=i, priority=p, content=i) for i, p in
             [("z", -1.5), ("b", 0), ("a", 0), ("m", 0.25), ("y", -2), ("A", 0)]]
    assert [m.id for m in compose_contributions(items, ctx())] == ["y", "z", "a", "A", "b", "m"]


def test_render_trims_and_drops_empty():
    items = [
        Contribution(id="a", content="  padded\n"),
        Contribution(id="b", content=" \n\t "),
        Contribution(id="c", content=None),
        Contribution(id="d", content=lambda c: None),
        Contribution(id="e", content=lambda c: f" {c.sessionId}:{c.prompt} "),
    ]
    assert [m.to_json() for m in compose_contributions(items, ctx())] == [
        {"id": "a", "content": "padded"},
        {"id": "e", "content": "s1:hi"},
    ]


def test_js_trim_set():
    assert js_trim("\ufeff\u00a0\u2028 x \u3000\u2029") == "x"
    assert js_trim("\x85x\x1c") == "\x85x\x1c"


def test_registry_adopts_compatible_and_replaces_incompatible():
    scope = GlobalScope()
    existing = SharedRegistry(CONTRIBUTIONS_KEY)
    existing["pre"] = Contribution(id="pre", content="p")
    scope.objects[CONTRIBUTIONS_KEY] = existing
    assert contribution_registry(scope) is existing and scope.warnings == []

    other = GlobalScope()
    bad = SharedRegistry(CONTRIBUTIONS_KEY, version=2)
    other.objects[CONTRIBUTIONS_KEY] = bad
    installed = contribution_registry(other)
    assert installed is not bad and installed.version == 1 and installed.protocol == CONTRIBUTIONS_KEY
    assert len(installed) == 0 and len(other.warnings) == 1


# --- environment ---------------------------------------------------------------------------------


def test_environment_exact_format():
    msg = environment_message("C:\\work\\a<b&c", HOST, ["read"])
    assert msg.id == "environment"
    assert msg.content == (
        "<environment_context>\n  <cwd>C:/work/a<b&c</cwd>\n  <shell>zsh</shell>\n"
        "  <current_date>2025-01-31</current_date>\n  <timezone>Europe/Lisbon</timezone>\n"
        "</environment_context>"
    )


def test_shell_sources():
    assert login_shell("/usr/bin/fish", "C:\\Windows\\cmd.exe") == "fish"
    assert login_shell(None, "C:\\Windows\\System32\\cmd.exe") == "cmd.exe"
    assert login_shell("", None) == "unknown"
    assert login_shell(None, None) == "unknown"
    assert login_shell("/bin/bash/", None) == "bash"


@pytest.mark.parametrize(
    "name,platform,shells,tools,expected",
    [
        ("fish", "linux", {"bash", "sh"}, ["exec_command"], "bash"),
        ("FISH", "darwin", {"zsh", "bash"}, ["exec_command"], "zsh"),
        ("fish", "linux", set(), ["exec_command"], "sh"),
        ("fish", "win32", {"zsh"}, ["exec_command"], "bash.exe"),
        ("fish", "linux", {"zsh"}, ["read"], "fish"),
        ("fish.exe", "win32", set(), ["exec_command"], "fish.exe"),
        ("bash", "linux", {"zsh"}, ["exec_command"], "bash"),
    ],
)
def test_fish_rule(name, platform, shells, tools, expected):
    assert reported_shell(name, platform, shells, tools) == expected


def test_bad_date_is_refused():
    with pytest.raises(SpecError) as err:
        environment_message("/w", HostFacts(platform="linux", date="2025-02-30"), [])
    assert err.value.code == "environment-date-invalid"


def test_environment_is_last_even_if_id_sorts_after():
    req = EnvelopeRequest("s", "p", (), "", None, {}, "/w", None, HOST)
    out = developer_messages([Contribution(id="zzz", priority=1e9, content="late")], req)
    assert [m.id for m in out] == ["zzz", "environment"]


# --- instructions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "system,custom,append,expected",
    [
        ("PI", "CUSTOM", "APPEND", "CUSTOM\n\nAPPEND"),
        ("PI", "CUSTOM", "", "CUSTOM"),
        ("PI", "CUSTOM", None, "CUSTOM"),
        ("PI", "", "APPEND", "PI"),
        (None, None, "APPEND", ""),
    ],
)
def test_provider_instructions(system, custom, append, expected):
    assert provider_instructions(system, custom, append) == expected


# --- context files -------------------------------------------------------------------------------


def test_context_body_rules():
    g = ContextFile("/home/u/.pi/agent/AGENTS.md", "GLOBAL\n")
    p = ContextFile("/w/AGENTS.md", "  PROJECT  ")
    blank = ContextFile("/w/sub/AGENTS.md", " \n\t")
    agent = "/home/u/.pi/agent/"
    assert context_body([g, blank, p], agent) == "GLOBAL\n\n\n--- project-doc ---\n\n  PROJECT  "
    assert context_body([g], agent) == "GLOBAL\n"
    assert context_body([p, g], agent) == "  PROJECT  \n\nGLOBAL\n"
    assert context_body([blank], agent) is None
    assert context_body([g, p], None) == "GLOBAL\n\n\n  PROJECT  "


def test_context_message_shape_and_windows_cwd():
    msg = context_message("C:\\w", [ContextFile("C:\\w\\AGENTS.md", "X")], "C:\\agent")
    assert msg == {
        "role": "custom",
        "customType": "@luan.sh/pi-developer-messages/agents-md",
        "content": "# AGENTS.md instructions for C:/w\n\n<INSTRUCTIONS>\nX\n</INSTRUCTIONS>",
        "display": False,
        "timestamp": 0,
    }


def test_inject_removes_old_copies_and_audits():
    old = {"role": "custom", "customType": AGENTS_MD_TYPE, "content": "old", "display": False, "timestamp": 0}
    aud = {"role": "custom", "customType": AUDIT_GROUP_TYPE, "content": "x", "display": True, "details": {}}
    user = {"role": "user", "content": "hi"}
    new = {"role": "custom", "customType": AGENTS_MD_TYPE, "content": "new", "display": False, "timestamp": 0}
    assert inject_context([old, user, aud, old], new) == [new, user]
    assert inject_context([old, user, aud], None) == [user]


# --- audit settings ------------------------------------------------------------------------------


def test_audit_setting_defaults_and_toml():
    assert audit.settings_from_toml(None) == (("developer", "context-user"), [])
    text = '[appearance]\npi-developer-messages.auditEntries = ["developer"]\n'
    assert audit.settings_from_toml(text) == (("developer",), [])
    assert audit.settings_from_toml("[appearance]\n") == (("developer", "context-user"), [])
    roles, diags = audit.settings_from_toml('[appearance]\npi-developer-messages.auditEntries = "all"\n')
    assert roles == ("developer", "context-user") and len(diags) == 1
    roles, diags = audit.settings_from_toml("not = [toml")
    assert roles == ("developer", "context-user") and len(diags) == 1
    assert audit.settings_to_toml(("developer", "context-user")) == (
        '[appearance]\npi-developer-messages.auditEntries = ["developer", "context-user"]\n'
    )
    assert audit.settings_to_toml(()) == "[appearance]\npi-developer-messages.auditEntries = []\n"


def test_changed_items_compare_latest_of_same_role_and_id():
    branch = [
        {"type": "custom", "customType": AUDIT_GROUP_TYPE,
         "data": {"entries": [{"role": "developer", "id": "a", "content": "1"}]}},
        {"type": "custom", "customType": AUDIT_GROUP_TYPE,
         "data": {"entries": [{"role": "developer", "id": "a", "content": "2"}]}},
    ]
    items = [{"role": "developer", "id": "a", "content": "1"}, {"role": "user", "id": "a", "content": "2"}]
    assert audit.changed_items(items, branch) == items  # latest of developer/a is "2"; user/a is new
    assert audit.changed_items([{"role": "developer", "id": "a", "content": "2"}], branch) == []
    # a custom message of the group type is not an audit entry and is never compared
    message = {**branch[1], "type": "custom_message", "details": branch[1]["data"]}
    assert audit.changed_items([{"role": "developer", "id": "a", "content": "1"}], [branch[0], message]) == []


@pytest.mark.parametrize("entry", [
    None, "text", [], {}, {"type": "custom"}, {"type": "custom", "customType": AUDIT_GROUP_TYPE},
    {"type": "custom", "customType": AUDIT_GROUP_TYPE, "data": None},
    {"type": "custom", "customType": AUDIT_GROUP_TYPE, "data": {"entries": None}},
    {"type": "custom", "customType": AUDIT_GROUP_TYPE, "data": {"entries": [1]}},
    {"type": "custom", "customType": AUDIT_GROUP_TYPE, "data": {"entries": [{"role": "developer", "id": 1, "content": "x"}]}},
    {"type": "custom", "customType": AUDIT_GROUP_TYPE,
     "data": {"entries": [{"role": "developer", "id": "a", "content": "x"}, {"role": "tool", "id": "a", "content": "x"}]}},
    {"type": "custom", "customType": "@luan.sh/pi-developer-messages/developer", "data": {"role": "developer"}},
    {"type": "custom", "customType": "@luan.sh/pi-developer-messages/context-user", "data": "x"},
])
def test_unreadable_entries_record_nothing_and_give_no_message(entry):
    assert audit.recorded_items(entry) == []
    assert audit.latest_audits([entry]) == {}
    assert entry_messages([entry]) == []


def test_build_envelope_parts():
    req = EnvelopeRequest(
        "s", "p", ("read",), "go", "PI PROMPT",
        {"customPrompt": "", "appendSystemPrompt": "APPEND", "contextFiles": [{"path": "/w/AGENTS.md", "content": "X"}]},
        "/w", None, HOST,
    )
    env = build_envelope([Contribution(id="a", content="A")], req)
    assert env.providerInstructions == "PI PROMPT"
    assert [m.id for m in env.developerMessages] == ["a", "environment"]
    assert env.contextMessage["content"].endswith("<INSTRUCTIONS>\nX\n</INSTRUCTIONS>")
    assert DeveloperMessage("a", "A") in env.developerMessages


@pytest.mark.parametrize("field", ["providers", "activeTools"])
@pytest.mark.parametrize("bad", ["openai-codex", ("ok", 3), 5])
def test_filter_lists_must_be_lists_of_strings(field, bad):
    with pytest.raises(SpecError) as err:
        register_contribution(SharedRegistry(CONTRIBUTIONS_KEY), Contribution(id="x", **{field: bad}))
    assert err.value.code == "contribution-field-invalid"
    assert err.value.path == f"contribution.{field}"


def test_default_scope_is_one_process_global_registry():
    from reference.envelope.globals import PROCESS_SCOPE

    first = contribution_registry()
    assert contribution_registry() is first
    assert PROCESS_SCOPE.objects[CONTRIBUTIONS_KEY] is first
    assert first.protocol == CONTRIBUTIONS_KEY and first.version == 1

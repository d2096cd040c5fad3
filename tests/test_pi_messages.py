"""Unit tests of Pi's message types, system-message replay and conversion (reference.pi)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.errors import SpecError
from reference.pi.core.convert import (
    BRANCH_SUMMARY_PREFIX,
    COMPACTION_SUMMARY_PREFIX,
    bash_execution_to_text,
    convert_to_llm,
    js_number,
)
from reference.pi.core.messages import (
    MESSAGE_MODELS,
    Problem,
    format_path,
    require_valid_messages,
    validate_message,
)
from reference.pi.core.replay import (
    SystemState,
    apply_sections,
    apply_tools,
    message_text,
    render_system_prompt,
    replay_system_messages,
)

USAGE = {
    "input": 1,
    "output": 2,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 3,
    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
}

VALID = {
    "system": {"role": "system", "content": "x", "timestamp": 0},
    "user": {"role": "user", "content": "x", "timestamp": 0},
    "assistant": {
        "role": "assistant",
        "content": [],
        "api": "a",
        "provider": "p",
        "model": "m",
        "usage": USAGE,
        "stopReason": "stop",
        "timestamp": 0,
    },
    "toolResult": {"role": "toolResult", "toolCallId": "c", "toolName": "t", "content": [], "isError": False, "timestamp": 0},
    "bashExecution": {"role": "bashExecution", "command": "ls", "output": "", "cancelled": False, "truncated": False, "timestamp": 0},
    "custom": {"role": "custom", "customType": "t", "content": "x", "display": False, "timestamp": 0},
    "branchSummary": {"role": "branchSummary", "summary": "s", "fromId": None, "timestamp": 0},
    "compactionSummary": {"role": "compactionSummary", "summary": "s", "tokensBefore": 0, "timestamp": 0},
}


def paths(message, **kw):
    return [(p.path, p.code) for p in validate_message(message, **kw).problems]


# ----------------------------------------------------------------------------- validation


def test_every_listed_role_has_a_valid_example():
    assert set(VALID) == set(MESSAGE_MODELS)
    for role, message in VALID.items():
        result = validate_message(message)
        assert result.valid, (role, result.problems)
        assert result.known and result.role == role


@pytest.mark.parametrize("role", sorted(VALID))
def test_removing_a_required_field_is_reported_missing(role):
    required = {
        name
        for name, field in MESSAGE_MODELS[role].model_fields.items()
        if field.is_required() and name != "role"
    }
    for name in required:
        message = {k: v for k, v in VALID[role].items() if k != name}
        assert (f"$.{name}", "missing") in paths(message), (role, name)


def test_a_boolean_is_not_a_number_nor_a_number_a_boolean():
    message = dict(VALID["bashExecution"], timestamp=True, cancelled=0)
    assert paths(message) == [("$.cancelled", "wrong-type"), ("$.timestamp", "wrong-type")]


def test_optional_fields_may_be_absent_but_not_null():
    assert paths(dict(VALID["assistant"], errorMessage=None)) == [("$.errorMessage", "wrong-type")]
    # null is part of these fields' types
    assert validate_message(dict(VALID["bashExecution"], exitCode=None)).valid
    assert validate_message(dict(VALID["custom"], details=None)).valid


def test_a_string_stop_reason_outside_the_set_is_invalid_a_number_is_a_wrong_type():
    assert paths(dict(VALID["assistant"], stopReason="end_turn")) == [("$.stopReason", "invalid-value")]
    assert paths(dict(VALID["assistant"], stopReason=1)) == [("$.stopReason", "wrong-type")]


def test_pending_is_refused_only_for_persistence():
    pending = dict(VALID["assistant"], stopReason="pending")
    assert validate_message(pending, persist=False).valid
    assert paths(pending, persist=True) == [("$.stopReason", "pending-not-persistable")]


def test_deferred_needs_its_handle():
    deferred = dict(VALID["assistant"], stopReason="deferred")
    assert paths(deferred) == [("$.deferred", "missing")]
    handle = {"provider": "p", "modelId": "m", "api": "a", "id": "x"}
    assert validate_message(dict(deferred, deferred=handle)).valid


def test_usage_parts_cannot_exceed_their_whole():
    usage = dict(USAGE, cacheWrite=10, cacheWrite1h=10, output=5, reasoning=5)
    assert validate_message(dict(VALID["assistant"], usage=usage)).valid
    usage = dict(usage, cacheWrite1h=11, reasoning=6)
    assert paths(dict(VALID["assistant"], usage=usage)) == [
        ("$.usage.cacheWrite1h", "exceeds-cache-write"),
        ("$.usage.reasoning", "exceeds-output"),
    ]


def test_blocks_are_checked_per_role():
    user = dict(VALID["user"], content=[{"type": "thinking", "thinking": ""}])
    assert paths(user) == [("$.content[0].type", "invalid-value")]
    system = dict(VALID["system"], content=[{"type": "image", "data": "", "mimeType": "image/png"}])
    assert paths(system) == [("$.content[0].type", "invalid-value")]
    tool = dict(VALID["toolResult"], content="text")
    assert paths(tool) == [("$.content", "wrong-type")]


def test_unknown_roles_and_extra_fields_pass():
    assert validate_message({"role": "x.y", "anything": 1}).valid
    assert not validate_message({"role": "x.y"}).known
    assert validate_message(dict(VALID["user"], future=True)).valid


def test_non_objects_and_missing_roles():
    assert paths([1]) == [("$", "wrong-type")]
    assert paths({}) == [("$.role", "missing")]
    assert paths({"role": None}) == [("$.role", "wrong-type")]


def test_a_role_that_is_not_a_string_is_no_system_message_to_replay():
    # a list or an object as the role is not hashable: it was a TypeError, not "not a system message"
    for role in ([], {"a": 1}, ["system"]):
        assert replay_system_messages([{"role": role}]) == SystemState(content=[], sections={}, tools={})


def test_paths_quote_keys_that_are_not_identifiers():
    assert format_path(("sections", "a.b", 3, "x_1")) == '$.sections["a.b"][3].x_1'
    assert format_path((), root="messages[2]") == "messages[2]"


def test_problems_sort_indices_numerically():
    problems = [Problem(("content", 10), "a", ""), Problem(("content", 2), "a", ""), Problem(("content",), "b", "")]
    ordered = sorted(problems, key=Problem.sort_key)
    assert [p.path for p in ordered] == ["$.content", "$.content[2]", "$.content[10]"]


def test_require_valid_messages_names_the_first_problem():
    with pytest.raises(SpecError) as err:
        require_valid_messages([VALID["user"], dict(VALID["bashExecution"], cancelled="no")])
    assert err.value.code == "message-invalid"
    assert err.value.path == "messages[1].cancelled"


def test_require_valid_messages_can_look_at_some_roles_only():
    require_valid_messages([{"role": "user"}], roles={"system"})
    with pytest.raises(SpecError):
        require_valid_messages([{"role": "system"}], roles={"system"})


# ----------------------------------------------------------------------------- replay


def test_message_text_joins_blocks_with_one_newline():
    assert message_text([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]) == "a\nb"
    assert message_text("plain") == "plain"


def test_sections_update_in_place_and_readd_last():
    state = SystemState()
    apply_sections(state, {"a": "1", "b": "2"})
    apply_sections(state, {"a": "1b", "c": "3"})
    assert list(state.sections.items()) == [("a", "1b"), ("b", "2"), ("c", "3")]
    apply_sections(state, {"a": None, "missing": None})
    apply_sections(state, {"a": "again"})
    assert list(state.sections) == ["b", "c", "a"]


def test_tools_are_removed_before_they_are_added():
    state = SystemState()
    apply_tools(state, {"toolsAdded": [{"name": "a", "v": 1}, {"name": "b"}]})
    apply_tools(state, {"toolsAdded": [{"name": "a", "v": 2}], "toolsRemoved": [{"name": "a"}]})
    assert list(state.tools) == ["b", "a"]
    apply_tools(state, {"toolsAdded": [{"name": "b", "v": 3}]})
    assert list(state.tools) == ["b", "a"] and state.tools["b"]["v"] == 3


def test_replace_starts_a_new_baseline():
    state = replay_system_messages(
        [
            {"role": "system", "content": "old", "sections": {"s": "S"}, "toolsAdded": [{"name": "t", "description": "", "parameters": {}}], "timestamp": 0},
            {"role": "system", "content": "new", "replace": True, "timestamp": 1},
            {"role": "system", "content": "more", "timestamp": 2},
        ]
    )
    assert state.content == ["new", "more"] and not state.sections and not state.tools
    assert render_system_prompt(state) == "new\n\nmore"


def test_render_leaves_out_empty_parts():
    assert render_system_prompt(SystemState()) == ""
    assert render_system_prompt(SystemState([], {"a": "", "b": "B"})) == "B"
    assert render_system_prompt(SystemState(["x", "y"], {"a": "A"})) == "x\n\ny\n\nA"


def test_replay_refuses_a_bad_system_message_but_not_other_roles():
    replay_system_messages([{"role": "user"}, "junk"])
    with pytest.raises(SpecError) as err:
        replay_system_messages([{"role": "system", "content": 1, "timestamp": 0}])
    assert err.value.path == "messages[0].content"


# ----------------------------------------------------------------------------- conversion


def bash(**kw):
    return dict(VALID["bashExecution"], **kw)


def test_bash_text_matches_pi_wrappers():
    assert bash_execution_to_text(bash(command="ls", output="a")) == "Ran `ls`\n```\na\n```"
    assert bash_execution_to_text(bash(command="x", output="")) == "Ran `x`\n(no output)"
    assert bash_execution_to_text(bash(output="", exitCode=2)) == "Ran `ls`\n(no output)\n\nCommand exited with code 2"
    assert bash_execution_to_text(bash(output="", exitCode=2, cancelled=True)) == "Ran `ls`\n(no output)\n\n(command cancelled)"
    assert bash_execution_to_text(bash(output="", truncated=True, fullOutputPath="/f")) == (
        "Ran `ls`\n(no output)\n\n[Output truncated. Full output: /f]"
    )
    assert bash_execution_to_text(bash(output="", truncated=True, fullOutputPath="")) == "Ran `ls`\n(no output)"


def test_exit_codes_are_written_as_javascript_numbers():
    assert js_number(2) == "2" and js_number(2.0) == "2" and js_number(-1.0) == "-1" and js_number(1.5) == "1.5"


def test_exit_codes_follow_javascript_number_to_string_at_every_magnitude():
    # Expected values are what Node's String(n) prints for the same JSON numbers (PI-CONVERT-BASH-EXIT).
    cases = {
        -0.0: "0",
        1e-7: "1e-7",
        0.000001: "0.000001",
        0.00001: "0.00001",
        0.0001: "0.0001",
        1e20: "100000000000000000000",
        123456789012345680000.0: "123456789012345680000",
        1e21: "1e+21",
        2**60: "1152921504606847000",
        123456789012345678901234: "1.2345678901234569e+23",
        5e-324: "5e-324",
        1.7976931348623157e308: "1.7976931348623157e+308",
        -2.5e-8: "-2.5e-8",
        10**400: "Infinity",
    }
    assert {value: js_number(value) for value in cases} == cases


def test_summary_wrappers():
    [branch, compaction] = convert_to_llm(
        [
            {"role": "branchSummary", "summary": "B", "fromId": "x", "timestamp": 5},
            {"role": "compactionSummary", "summary": "C", "tokensBefore": 1, "timestamp": 6},
        ]
    )
    assert branch == {"role": "user", "content": [{"type": "text", "text": BRANCH_SUMMARY_PREFIX + "B</summary>"}], "timestamp": 5}
    assert compaction["content"][0]["text"] == COMPACTION_SUMMARY_PREFIX + "C\n</summary>"
    assert BRANCH_SUMMARY_PREFIX.endswith(":\n\n<summary>\n") and COMPACTION_SUMMARY_PREFIX.endswith(":\n\n<summary>\n")


def test_custom_messages_lose_their_details():
    [out] = convert_to_llm([dict(VALID["custom"], details={"secret": 1}, timestamp=9)])
    assert out == {"role": "user", "content": [{"type": "text", "text": "x"}], "timestamp": 9}


def test_conversion_keeps_base_roles_and_drops_others():
    messages = [VALID["system"], {"role": "other"}, VALID["user"], VALID["assistant"], VALID["toolResult"], bash(excludeFromContext=True)]
    before = copy.deepcopy(messages)
    out = convert_to_llm(messages)
    assert out == [VALID["system"], VALID["user"], VALID["assistant"], VALID["toolResult"]]
    assert messages == before


roles = st.sampled_from(sorted(VALID) + ["unknown"])


@given(st.lists(roles, max_size=12))
def test_conversion_only_yields_model_roles_in_order(sequence):
    messages = [VALID.get(r, {"role": r}) for r in sequence]
    out = convert_to_llm(messages)
    assert all(m["role"] in {"system", "user", "assistant", "toolResult"} for m in out)
    assert len(out) == sum(1 for r in sequence if r != "unknown")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=20,
)
shaped = st.fixed_dictionaries(
    {"role": st.sampled_from(sorted(VALID) + ["x"])},
    optional={k: json_values for k in ["content", "timestamp", "usage", "sections", "toolsAdded", "stopReason", "summary"]},
)


@given(st.one_of(json_values, shaped), st.booleans())
def test_validation_never_raises_and_every_problem_has_a_path_and_code(message, persist):
    result = validate_message(message, persist=persist)
    for problem in result.problems:
        assert problem.path.startswith("$") and problem.code
    assert result.valid == (not result.problems)


@pytest.mark.untraced  # replay and conversion of random messages: the scenario and unit tests measure them
@given(st.lists(st.one_of(json_values, shaped), max_size=4))
def test_replay_and_conversion_answer_or_refuse_with_a_spec_error(messages):
    for run in (replay_system_messages, convert_to_llm):
        try:
            run(messages)
        except SpecError as exc:
            assert exc.code == "message-invalid" and exc.path.startswith("messages[")

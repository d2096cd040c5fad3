"""Unit tests of models.json values, composition, credentials and classifiers (reference.pi)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.errors import SpecError
from reference.pi.core import availability, classifiers, credentials, merge, models_file
from reference.pi.host.commands import run_shell_command
from reference.pi.core.values import CommandResult, parse_config_value, resolve_config_value


class RecordingRunner:
    """A command runner that records its calls and answers from a table."""

    def __init__(self, answers: dict[str, CommandResult] | None = None) -> None:
        self.calls: list[tuple[str, dict, float]] = []
        self.answers = answers or {}

    def __call__(self, command, env, time_limit_s):
        self.calls.append((command, dict(env), time_limit_s))
        return self.answers.get(command, CommandResult(0, "out\n"))


def refuse_runner(command, env, time_limit_s):
    raise AssertionError(f"no command may run here, got {command!r}")


# ---------------------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    "raw, env, expected",
    [
        ("plain", {}, "plain"),
        ("MY_API_KEY", {"MY_API_KEY": "x"}, "MY_API_KEY"),
        ("$A", {"A": "1"}, "1"),
        ("${A}B", {"A": "1", "AB": "no"}, "1B"),
        ("$AB", {"A": "1", "AB": "2"}, "2"),
        ("$$A", {"A": "1"}, "$A"),
        ("$!cmd", {}, "!cmd"),
        ("${a-b}", {}, "${a-b}"),
        ("${A", {"A": "1"}, "${A"),
        ("$", {}, "$"),
        ("$1", {}, "$1"),
        ("$A", {}, None),
        ("$A", {"A": ""}, None),
        ("x$A$B", {"A": "1"}, None),
    ],
)
def test_template_values(raw, env, expected):
    assert resolve_config_value(raw, env, refuse_runner) == expected


def test_command_value_passes_the_case_environment_and_time_limit():
    runner = RecordingRunner({"echo hi": CommandResult(0, "  key \n")})
    assert resolve_config_value("!echo hi", {"T": "1"}, runner, time_limit_s=2.5) == "key"
    assert runner.calls == [("echo hi", {"T": "1"}, 2.5)]


@pytest.mark.parametrize("result", [CommandResult(1, "key"), CommandResult(None, "key"), CommandResult(0, " \n\t")])
def test_failing_command_is_unresolved(result):
    assert resolve_config_value("!x", {}, RecordingRunner({"x": result})) is None


def test_command_without_runner_is_refused():
    with pytest.raises(SpecError) as exc:
        resolve_config_value("!echo hi", {})
    assert exc.value.code == "config-command-not-allowed"


def test_non_string_value_is_refused():
    with pytest.raises(SpecError) as exc:
        parse_config_value(42)  # type: ignore[arg-type]
    assert exc.value.code == "config-value-not-string"


@given(st.text(alphabet=st.characters(blacklist_characters="$!", blacklist_categories=("Cs",))))
def test_text_without_dollar_or_bang_is_literal(text):
    parsed = parse_config_value(text)
    assert parsed.form == "literal"
    assert resolve_config_value(parsed, {}, refuse_runner) == text


def test_shell_runner_uses_only_the_given_environment():
    assert run_shell_command('printf %s "${HOME:-none}"', {}, 5).stdout == "none"
    assert run_shell_command('printf %s "$K"', {"K": "v"}, 5).stdout == "v"


def test_shell_runner_time_limit():
    result = run_shell_command("sleep 5", {"PATH": "/usr/bin:/bin"}, 0.2)
    assert result.exit_code is None


# ------------------------------------------------------------------------------- composition


ACME = {
    "baseUrl": "https://api.acme.test/v1",
    "api": "openai-completions",
    "env": ["ACME_API_KEY"],
    "models": [{"id": "big", "cost": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75}, "maxTokens": 32000}],
}


def test_image_resize_defaults_are_the_seed_numbers():
    assert merge.IMAGE_RESIZE_DEFAULTS == {"maxWidth": 2000, "maxHeight": 2000, "maxBytes": int(4.5 * 1024 * 1024), "jpegQuality": 80}
    assert merge.effective_image_resize({"inputLimits": {"images": {"resize": {"jpegQuality": 60}}}})["jpegQuality"] == 60


def test_schema_error_names_the_path_and_drops_the_file():
    registry = merge.build_registry({"acme": ACME}, {"providers": {"acme": {"baseUrl": "https://p.test"}, "x": {"models": [{"id": 3}]}}})
    assert [i.path for i in registry.issues] == ["providers.x.models.0.id"]
    assert registry.providers["acme"].baseUrl == "https://api.acme.test/v1"
    assert "x" not in registry.providers


def test_schema_does_not_coerce_types():
    _, issues = models_file.validate_models_json({"providers": {"p": {"authHeader": "true"}}})
    assert [i.path for i in issues] == ["providers.p.authHeader"]


def test_override_merges_cost_and_keeps_other_rates():
    registry = merge.build_registry({"acme": ACME}, {"providers": {"acme": {"modelOverrides": {"big": {"cost": {"output": 10}}, "ghost": {"maxTokens": 1}}}}})
    big = merge.find_model(registry, "acme", "big")
    assert big["cost"] == {"input": 3, "output": 10, "cacheRead": 0.3, "cacheWrite": 3.75}
    assert registry.issues == []


def test_deep_merge_does_not_modify_its_arguments():
    base = {"a": {"b": 1}, "l": [1]}
    override = {"a": {"c": 2}, "l": [2]}
    merged = merge.deep_merge(base, override)
    assert merged == {"a": {"b": 1, "c": 2}, "l": [2]}
    assert base == {"a": {"b": 1}, "l": [1]} and override == {"a": {"c": 2}, "l": [2]}


def test_composition_error_keeps_builtin_and_other_providers():
    registry = merge.build_registry(
        {"acme": ACME}, {"providers": {"acme": {"name": "only"}, "o": {"baseUrl": "http://l/v1", "api": "x", "apiKey": "k", "models": [{"id": "m"}]}}}
    )
    assert [(i.code, i.provider) for i in registry.issues] == [("provider-composition", "acme")]
    assert registry.providers["acme"].name == "acme"
    assert [m["id"] for m in registry.providers["o"].models] == ["m"]


def test_invalid_builtin_is_a_spec_error():
    with pytest.raises(SpecError) as exc:
        merge.build_registry({"bad": {"models": [{"id": "m"}]}})
    assert exc.value.code == "builtin-provider-invalid"


# ------------------------------------------------------------------------------- credentials


SOURCES = {
    "runtime": dict(runtime_keys={"acme": "r"}),
    "auth.json": dict(auth_json={"acme": {"type": "api_key", "key": "a"}}),
    "environment": dict(env={"ACME_API_KEY": "e"}),
}


@pytest.mark.parametrize("present", [["runtime", "auth.json", "environment"], ["auth.json", "environment"], ["environment"]])
def test_precedence_first_configured_source_decides(present):
    kwargs: dict = {}
    for name in present:
        for key, value in SOURCES[name].items():
            kwargs.setdefault(key, {}).update(value)
    creds = credentials.Credentials(**kwargs)
    assert credentials.configured_source("acme", None, credentials.EnvAuth(("ACME_API_KEY",)), creds) == present[0]


def test_listing_never_runs_a_command():
    creds = credentials.Credentials()
    assert credentials.configured_source("p", {"apiKey": "!exit 1"}, credentials.EnvAuth(), creds) == "models.json"


def test_unresolved_models_json_key_does_not_fall_back():
    creds = credentials.Credentials(env={"ACME_API_KEY": "e"})
    result = credentials.resolve_request_auth("acme", "big", {"apiKey": "$TEAM"}, credentials.EnvAuth(("ACME_API_KEY",)), creds, refuse_runner)
    assert not result.ok and result.apiKey is None
    assert result.failure == {"code": "api-key-unresolved", "variables": ["TEAM"]}
    assert "TEAM" in result.message


def test_missing_header_variable_names_header_and_variable():
    creds = credentials.Credentials(env={"ACME_API_KEY": "e"})
    result = credentials.resolve_request_auth("acme", "big", {"headers": {"X-Org": "$ORG"}}, credentials.EnvAuth(("ACME_API_KEY",)), creds, refuse_runner)
    assert result.failure == {"code": "header-unresolved", "header": "X-Org", "variables": ["ORG"]}
    assert "X-Org" in result.message and "ORG" in result.message


def test_auth_header_sends_the_key_as_bearer():
    creds = credentials.Credentials(env={"ACME_API_KEY": "e"})
    result = credentials.resolve_request_auth("acme", "big", {"authHeader": True, "headers": {"authorization": "x"}}, credentials.EnvAuth(("ACME_API_KEY",)), creds, refuse_runner)
    assert result.headers == {"Authorization": "Bearer e"}


# ------------------------------------------------------------------------------- classifiers


def test_classifiers_never_in_chat_list():
    registry = merge.build_registry({"openrouter": {"baseUrl": "https://o", "api": "x", "env": ["OPENROUTER_API_KEY"], "models": [{"id": "chat"}]}})
    creds = credentials.Credentials(env={"OPENROUTER_API_KEY": "k"})
    chat = availability.available_models(registry, creds)
    assert chat == [{"provider": "openrouter", "id": "chat"}]
    listed = classifiers.available_classifiers(creds)
    assert {c["id"] for c in listed} == {"typesafe/jev-1.13", "~typesafe/jev-latest"}


@pytest.mark.parametrize(
    "request_, code, path",
    [
        ({"state": [], "questions": {}}, "classifier-state-invalid", "state"),
        ({"state": {}, "questions": []}, "classifier-questions-invalid", "questions"),
        ({"state": {}, "questions": {"q": {"type": "score", "instructions": "i", "criteria": ["a", 1]}}}, "classifier-question-invalid", "questions.q.criteria"),
        ({"state": {}, "questions": {"q": {"type": "choice", "instructions": "i", "criteria": {}}}}, "classifier-question-invalid", "questions.q.criteria"),
        ({"state": {}, "questions": {"q": {"type": "bool", "instructions": 3, "criteria": {"true": "a", "false": "b"}}}}, "classifier-question-invalid", "questions.q.instructions"),
        ({"state": {}, "questions": {"q": {"type": None, "instructions": "i"}}}, "classifier-question-type-unknown", "questions.q.type"),
    ],
)
def test_classify_request_errors_name_the_field(request_, code, path):
    with pytest.raises(SpecError) as exc:
        classifiers.validate_classify_request(request_)
    assert exc.value.code == code
    assert exc.value.path == path
    assert path in exc.value.message


@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=0, max_value=10**9))
def test_usage_without_price_is_free_and_counts_tokens(tokens_in, tokens_out):
    usage = classifiers.classifier_usage({"input_tokens": tokens_in, "output_tokens": tokens_out}, None)
    assert usage["totalTokens"] == tokens_in + tokens_out
    assert usage["cost"]["total"] == 0


def test_usage_cost_per_million():
    usage = classifiers.classifier_usage({"input_tokens": 1_000_000, "output_tokens": 250_000}, {"input": 0.042, "output": 4})
    assert usage["cost"]["input"] == pytest.approx(0.042)
    assert usage["cost"]["output"] == pytest.approx(1.0)
    assert usage["cost"]["total"] == pytest.approx(1.042)


def test_shell_runner_time_limit_covers_grandchildren():
    import time

    started = time.monotonic()
    result = run_shell_command("sleep 5 | cat; echo late", {"PATH": "/usr/bin:/bin"}, 0.3)
    assert result.exit_code is None
    assert time.monotonic() - started < 3


# ---------------------------------------------------------------------------------- pi-1.6.0

def test_named_image_models_keeps_the_pages_two_sorted_and_nothing_else():
    from conformance.operations.pi_models import named_image_models

    listing = {"models": [{"provider": "openrouter", "id": "google/gemini-2.5-flash-image"},
                          {"provider": "openrouter", "id": "recraft/recraft-v4.1"},
                          {"provider": "other", "id": "black-forest-labs/flux.2-pro"},
                          {"provider": "openrouter", "id": "black-forest-labs/flux.2-pro"}],
               "sources": [{"provider": "openrouter", "source": "environment"}]}
    assert named_image_models(listing) == {
        "models": [{"provider": "openrouter", "id": "black-forest-labs/flux.2-pro"},
                   {"provider": "openrouter", "id": "google/gemini-2.5-flash-image"}],
        "sources": [{"provider": "openrouter", "source": "environment"}]}
    assert named_image_models({"models": []}) == {"models": []}
    assert named_image_models("not a listing") == "not a listing"


def test_sampling_clamps_then_merges_per_key():
    from reference.pi.core import sampling

    model = {"api": "openai-completions", "reasoning": True, "thinkingLevelMap": {"low": None, "max": "max"},
             "samplingParams": {"temperature": 1, "extra": {"a": 1}},
             "samplingParamsByThinkingLevel": {"medium": {"top_k": 5}, "max": {"extra": {"b": 2}}}}
    assert sampling.supported_thinking_levels(model) == ["off", "minimal", "medium", "high", "max"]
    assert sampling.clamp_thinking_level(model, "low") == "medium"
    assert sampling.clamp_thinking_level(model, "xhigh") == "max"
    assert sampling.request_sampling(model, "xhigh", {"temperature": 0})["samplingParams"] == {
        "temperature": 0, "extra": {"b": 2}}
    assert sampling.request_sampling({**model, "api": "anthropic-messages"}, "low", None)["samplingParams"] is None
    with pytest.raises(ValueError, match="unknown thinking level"):
        sampling.clamp_thinking_level(model, "ultra")

"""Unit tests of Pi's prompt templates (reference.pi.core.templates, reference.pi.host.disk)."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.adapters.base import ImplementationError
from conformance.adapters.reference import ReferenceImplementation
from reference.errors import SpecError
from reference.pi.host.disk import load_prompt_templates, template_files
from reference.pi.core.templates import (
    JS_WHITESPACE,
    Template,
    command_name,
    expand_input,
    first_line_description,
    js_trim,
    parse_command_args,
    split_frontmatter,
    substitute_args,
    template_from_text,
)

# ----------------------------------------------------------------------------- arguments


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", []),
        ("a  b\tc\nd", ["a", "b", "c", "d"]),
        ('"a b" c', ["a b", "c"]),
        ("it's", ["it's"]),
        ('a"b c"', ['a"b', 'c"']),
        ('"a"b', ["ab"]),
        ('"" x', ["", "x"]),
        ('"say \\"hi\\""', ['say "hi"']),
        ("'a\\\"b'", ['a\\"b']),
        ('x "open', ["x", '"open']),
        ('"', ['"']),
        ('"a\\"', ['"a\\"']),
    ],
)
def test_parse_command_args(text, expected):
    assert parse_command_args(text) == expected


words = st.text(alphabet=st.characters(blacklist_characters="\"'\\" + JS_WHITESPACE), min_size=1, max_size=8)


@given(st.lists(words, max_size=6))
def test_plain_words_round_trip(args):
    assert parse_command_args(" ".join(args)) == args


quoted = st.text(alphabet=st.characters(blacklist_characters='"\\'), max_size=8)


@given(st.lists(quoted, max_size=5))
def test_double_quoted_arguments_round_trip(args):
    assert parse_command_args(" ".join(f'"{a}"' for a in args)) == args


def test_js_whitespace_is_not_pythons():
    assert js_trim("\ufeff x \u3000") == "x"
    assert js_trim("\x1c") == "\x1c"  # Python's str.strip would remove it; JavaScript's trim keeps it
    assert parse_command_args("a\x1cb") == ["a\x1cb"]


# ----------------------------------------------------------------------------- substitution


def test_substitute_forms():
    args = ["a", "b c", "d"]
    assert substitute_args("$1|$2|$3|$4|$0", args) == "a|b c|d||"
    assert substitute_args("$@|$ARGUMENTS", args) == "a b c d|a b c d"
    assert substitute_args("${2:-x}|${4:-x}|${@:-x}|${ARGUMENTS:-x}", args) == "b c|x|a b c d|a b c d"
    assert substitute_args("${@:2}|${@:2:1}|${@:0}|${@:9}", args) == "b c d|b c|a b c d|"
    assert substitute_args("${1:-x}|${@:-y}", [""]) == "x|y"


def test_tenth_argument_and_ascii_digits_only():
    args = [str(i) for i in range(1, 11)]
    assert substitute_args("$10", args) == "10"
    assert substitute_args("$10", args[:9]) == ""
    assert substitute_args("$\u0661", args) == "$\u0661"  # an Arabic-Indic one is not a digit here


def test_defaults_end_at_the_first_brace_and_are_not_substituted():
    assert substitute_args("${1:-a}b}", []) == "ab}"
    assert substitute_args("${1:-$2 $@}", ["", "X"]) == "$2 $@"


placeholder_text = st.text(alphabet="$@{}:-ARGUMENTS0123456789& x", max_size=12)


@given(st.lists(placeholder_text, max_size=4))
def test_arguments_are_never_substituted_again(args):
    assert substitute_args("$@", args) == " ".join(args)
    assert substitute_args("[$1]", args) == f"[{args[0] if args else ''}]"


# ----------------------------------------------------------------------------- frontmatter and description


def test_split_frontmatter_variants():
    fm = split_frontmatter("\ufeff---\r\ndescription: d\r\n---\r\n\n Body \n")
    assert fm.present and fm.fields == {"description": "d"} and fm.body == "Body"
    assert split_frontmatter("No frontmatter\n").body == "No frontmatter\n"
    assert split_frontmatter("---\nx: 1\nnever closed").present is False
    assert split_frontmatter("---\n---\nB").fields == {}
    assert split_frontmatter("---\n- a\n---\nB").fields == {}


def test_frontmatter_uses_the_core_schema():
    fields = split_frontmatter("---\na: 2024-01-01\nb: 1_000\nc: true\nd: 0x10\ne: ~\n---\n").fields
    assert fields == {"a": "2024-01-01", "b": "1_000", "c": True, "d": 16, "e": None}
    tagged = split_frontmatter("---\na: !note x\nb: !n 2\nc: !s [1, !t y]\n---\n").fields
    assert tagged == {"a": "x", "b": "2", "c": [1, "y"]}


@pytest.mark.parametrize(
    "text, role",
    [
        ("a:\tb", "separation"),
        ("a: b\t", "separation"),
        ("a: b\t# c", "separation"),
        ("\t", "separation"),
        ("a: Fix\tthis", "content"),
        ("\tb: c", "indent"),
        ("-\tx", "separation"),
        ("-\tx: y", "indent"),
        ("- \t{k: v}", "separation"),
        ("a: b,\tc", "content"),
        ("a: x, [\ty", "content"),
    ],
)
def test_tab_roles(text, role):
    """Tabs the parser stops at outside flow collections (inside them it skips a tab after
    ``,`` ``[`` ``{`` itself, so a bracket before a tab here is text of a plain scalar)."""
    from reference.pi.core.templates import _tab_role

    assert _tab_role(text, text.index("\t")) == role


@pytest.mark.parametrize("text, role", [("{a: b\tc}", "content"), ("[a\n\tb]", "separation"), ("[a\tb\t]", "content")])
def test_tab_roles_in_flow_collections(text, role):
    """Inside a flow collection a line may start with a tab: it separates, never indents."""
    from reference.pi.core.templates import _tab_role

    assert _tab_role(text, text.index("\t"), flow=True) == role


def test_tabs_in_flow_plain_scalars_are_content():
    fields = split_frontmatter("---\n{d: a\tb, e: [c\td, f\t], g: h\n\ti}\n---\n").fields
    assert fields == {"d": "a\tb", "e": ["c\td", "f"], "g": "h i"}


def test_tabs_yaml_allows_are_read_as_yaml_reads_them():
    fields = split_frontmatter("---\ndescription:\tFix\tthis\t\nhint: [a,\tb]\n\t\n---\n").fields
    assert fields == {"description": "Fix\tthis", "hint": ["a", "b"]}
    with pytest.raises(SpecError):
        split_frontmatter("---\na: 1\n\tb: 2\n---\n")


@pytest.mark.parametrize(
    "bad", ["---\na: [\n---\n", "---\na: 1\na: 2\n---\n", "---\na: b: c\n---\n", "---\na: !!int x\n---\n"]
)
def test_bad_yaml_is_a_spec_error(bad):
    with pytest.raises(SpecError) as err:
        split_frontmatter(bad)
    assert err.value.code == "template-frontmatter-invalid"


def test_fallback_description_counts_code_points():
    assert first_line_description("\n  \n" + "x" * 60) == "x" * 60
    assert first_line_description("x" * 61) == "x" * 60 + "..."
    assert first_line_description("x" * 59 + "\U0001F680") == "x" * 59 + "\U0001F680"
    assert first_line_description("  lead") == "  lead"
    assert first_line_description("\n \t\n") == ""


def test_template_from_text():
    t = template_from_text("review.md", '---\ndescription: ""\nargument-hint: "[focus]"\n---\nBody line\n')
    assert (t.name, t.description, t.argumentHint, t.content) == ("review", "Body line", "[focus]", "Body line")
    assert command_name("a.md.md") == "a.md"


# ----------------------------------------------------------------------------- loading


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_only_direct_md_children_in_name_order(tmp_path):
    prompts = tmp_path / "prompts"
    for name in ["b.md", "a.md", ".h.md", "x.MD", "n.txt", "sub/deep.md"]:
        write(prompts / name, "x")
    (prompts / "dir.md").mkdir()
    assert [p.name for p in template_files(prompts)] == ["a.md", "b.md"]
    assert template_files(tmp_path / "missing") == []


def test_loading_trust_precedence_and_collisions(tmp_path):
    agent, project = tmp_path / "agent", tmp_path / "project"
    write(agent / "prompts" / "review.md", "mine")
    write(agent / "prompts" / "bad.md", "---\na: [\n---\n")
    write(project / ".pi" / "prompts" / "review.md", "theirs")
    untrusted = load_prompt_templates(agent, project, project_trusted=False)
    assert [(t.name, t.content, t.scope) for t in untrusted.templates] == [("review", "mine", "user")]
    assert [d.code for d in untrusted.diagnostics] == ["template-frontmatter-invalid"]
    trusted = load_prompt_templates(agent, project, project_trusted=True)
    assert [(t.name, t.content, t.scope) for t in trusted.templates] == [("review", "theirs", "project")]
    collision = [d for d in trusted.diagnostics if d.code == "template-name-collision"]
    assert len(collision) == 1 and collision[0].path.endswith(os.path.join("agent", "prompts", "review.md"))
    assert collision[0].winnerPath.endswith(os.path.join(".pi", "prompts", "review.md"))


def test_undecodable_bytes_are_replaced(tmp_path):
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "bin.md").write_bytes(b"ok \xff\n")
    [t] = load_prompt_templates(tmp_path, tmp_path / "p", project_trusted=False).templates
    assert t.content == "ok \ufffd\n"


# ----------------------------------------------------------------------------- expansion


TEMPLATES = [Template("review", "", None, "Review $1."), Template("review", "", None, "second"), Template("plain", "", None, "P")]


def test_expand_input():
    assert expand_input("/review x y", TEMPLATES).text == "Review x."
    assert expand_input("/plain x y", TEMPLATES).text == "P"
    assert expand_input(" /review x", TEMPLATES).kind == "text"
    assert expand_input("/nope x", TEMPLATES).text == "/nope x"
    ext = expand_input("/review  a", TEMPLATES, {"review"})
    assert (ext.kind, ext.name, ext.args, ext.text) == ("extension-command", "review", " a", "/review  a")
    assert expand_input("/review\ta", TEMPLATES, {"review"}).kind == "template"


# ----------------------------------------------------------------------------- operations


def test_load_templates_operation_refuses_paths_outside_the_tree(tmp_path):
    impl = ReferenceImplementation()
    with pytest.raises(ImplementationError) as err:
        impl.run("pi.load-templates", {"agentDir": "../x", "cwd": "p"}, str(tmp_path))
    assert err.value.code == "input-path-outside-tree"


def test_load_templates_operation_answers_relative_paths(tmp_path):
    write(tmp_path / "agent" / "prompts" / "a.md", "A")
    out = ReferenceImplementation().run("pi.load-templates", {"agentDir": "agent", "cwd": "p"}, str(tmp_path))
    assert out["templates"][0]["path"] == "agent/prompts/a.md"
    assert out["templates"][0]["argumentHint"] is None

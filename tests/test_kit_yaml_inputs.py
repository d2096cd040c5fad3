"""The YAML files the kit reads, as a user may write them: aliases that contain themselves or
expand without bound are errors at the alias's place (in every kind of file and on both parsing
roads, never kept in the parse cache); a scenario file reached through a symbolic link is named by
the link, and read once; a golden named ``.yml`` is reported, never silently left unread."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.judge import golden
from conformance.corpus import yamlio
from conformance.corpus.cases import load_suite
from conformance.cli import main
from tests.kit_fixtures import mini_suite, write

ROOT = Path(__file__).resolve().parent.parent


def _cli(dirs, *args):
    return main([*args, "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                 "--golden-dir", str(dirs["golden"])])


def bomb(levels: int) -> str:
    """An alias bomb: ``levels`` lists of ten aliases of the list before (10**levels values)."""
    rows = ["l0: &l0 [lol]"] + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, levels + 1)]
    return "\n".join(rows) + "\n"


# (text, line and column of the alias): the C loader's road, a merge key's, and a document only the
# exact parser reads (a tab in a block scalar).
SELF = [
    ("a: &a [*a]\n", (1, 8)),
    ("a: &a\n  b: *a\n", (2, 6)),
    ("base: &b {x: 1}\nm:\n  <<: *b\n  own: &s {k: [*s]}\n", (4, 16)),
    ("v: |\n  \tindented with a tab\nlist: &l\n  - [1, *l]\n", (4, 9)),
]


@pytest.mark.parametrize(("text", "place"), SELF)
def test_a_value_that_contains_itself_is_an_error_at_the_alias(tmp_path, cache, text, place):
    from ruamel.yaml.error import MarkedYAMLError

    path = write(tmp_path / "f.yaml", "")
    path.write_text(text, encoding="utf-8")
    for _ in range(2):  # nothing is kept: the second read finds the same error
        with pytest.raises(yamlio.SuiteFileError) as info:
            yamlio.load_with_positions(path, "f.yaml")
        (err,) = info.value.errors
        assert (err.file, err.line, err.column) == ("f.yaml", *place) and "cannot contain itself" in err.message
        with pytest.raises(MarkedYAMLError) as raw:
            yamlio.load_data(text)
        assert yamlio.yaml_problem(raw.value)[:2] == place
    assert not cache.exists() or not list(cache.glob("*.json"))


@pytest.mark.parametrize(("levels", "place"), [(6, (5, 35)), (9, (5, 40))])
def test_an_alias_bomb_is_refused_without_expanding_it(tmp_path, cache, levels, place):
    text = bomb(levels)
    path = write(tmp_path / "bomb.yaml", text)
    with pytest.raises(yamlio.SuiteFileError) as info:
        yamlio.load_with_positions(path, "bomb.yaml")
    (err,) = info.value.errors
    # the first alias past the bound (10,000 + 10 per character: under 16,000), in the fourth list
    assert len(text) < 600 and (err.line, err.column) == place
    assert f"past {yamlio.alias_bound(text):,} nodes" in err.message
    with pytest.raises(Exception, match="past"):
        yamlio.load_data(text, cache=False)
    with pytest.raises(golden.GoldenError) as bad:
        golden.parse(text)
    assert (bad.value.line, bad.value.column) == place
    assert not cache.exists() or not list(cache.glob("*.json"))


def test_aliases_count_at_the_full_size_of_what_they_name(cache, monkeypatch):
    text = "two: &two [1, 2]\nfour: [*two, *two]\nmore: &m {a: *two}\nlast: [*m, *m]\n"
    assert yamlio.load_data(text) == {"two": [1, 2], "four": [[1, 2], [1, 2]], "more": {"a": [1, 2]},
                                      "last": [{"a": [1, 2]}, {"a": [1, 2]}]}
    # the root, 4 keys, [1, 2] (3), four (1 + 3 + 3), more (1 + 1 + 3), last (1 + 5 + 5): 31 nodes
    monkeypatch.setattr(yamlio, "ALIAS_PER_CHARACTER", 0)
    monkeypatch.setattr(yamlio, "ALIAS_ALLOWANCE", 31)
    yamlio.check_aliases(text)  # exactly at the bound: accepted
    monkeypatch.setattr(yamlio, "ALIAS_ALLOWANCE", 30)
    with pytest.raises(Exception, match=r"alias \*m expands the document past 30 nodes") as info:
        yamlio.check_aliases(text)
    assert yamlio.yaml_problem(info.value)[:2] == (4, 12)


def test_no_file_of_the_kit_comes_near_the_bound(monkeypatch):
    """Every YAML file of the suite stays within a bound ten times tighter: one node per
    character, with no allowance."""
    monkeypatch.setattr(yamlio, "ALIAS_ALLOWANCE", 0)
    monkeypatch.setattr(yamlio, "ALIAS_PER_CHARACTER", 1)
    files = [p for folder in ("conformance", "golden") for p in sorted((ROOT / folder).rglob("*.yaml"))
             if "node_modules" not in p.parts]
    assert len(files) > 500
    aliased = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        aliased += "*" in text and "&" in text
        yamlio.check_aliases(text)
    assert aliased >= 10  # the files that use aliases (`*two`, ...) are among them


def test_the_cli_reports_a_self_containing_scenario_file_as_a_suite_error(tmp_path, cache, capsys):
    dirs = mini_suite(tmp_path)
    write(dirs["scenarios"] / "kit" / "alias.yaml", "a: &a [*a]\n")
    for args in (("run", "-q", "--adapter", "python:tests.kit_fixtures:Echo"), ("list",),
                 ("run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-*")):
        assert _cli(dirs, *args) == 2
        err = capsys.readouterr().err
        assert "kit/alias.yaml:1:8: YAML error: alias *a stands inside the node it names" in err
        assert "Traceback" not in err


def test_a_self_containing_expectations_file_stops_the_run(tmp_path, cache, capsys):
    dirs = mini_suite(tmp_path)
    exp = write(tmp_path / "e.yaml", "implementation: x\nexpectations: &a [*a]\n")
    assert _cli(dirs, "run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--expectations", str(exp)) == 2
    assert f"{exp}:2:19: YAML error: alias *a stands inside" in capsys.readouterr().err


def test_a_catalogue_file_with_an_alias_bomb_is_a_suite_error(tmp_path, cache, capsys):
    dirs = mini_suite(tmp_path)
    write(dirs["spec"] / "bomb.yaml", bomb(9))
    assert _cli(dirs, "list") == 2
    assert "bomb.yaml:5:40: YAML error: alias *l3 expands the document past" in capsys.readouterr().err


# --- scenario files reached through symbolic links -------------------------------------------------

def test_a_link_to_a_scenario_file_of_the_suite_is_refused_naming_both(tmp_path, cache, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # messages name files relative to the working folder
    dirs = mini_suite(Path("."))
    (dirs["scenarios"] / "kit" / "link.yaml").symlink_to("echo.yaml")
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert [str(e) for e in suite.errors] == [
        "scenarios/kit/link.yaml: a symbolic link to the scenario file scenarios/kit/echo.yaml; a file is read "
        "once, so this one is not read"]
    assert [c.file for c in suite.cases] == ["scenarios/kit/echo.yaml"] * 3
    assert _cli(dirs, "list") == 2
    err = capsys.readouterr().err
    assert "scenarios/kit/link.yaml: a symbolic link to the scenario file scenarios/kit/echo.yaml" in err
    assert "also used" not in err


def test_a_link_from_outside_is_read_under_its_own_name_and_only_once(tmp_path, cache, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dirs = mini_suite(Path("."))
    kept = dirs["scenarios"] / "kit" / "echo.yaml"
    outside = Path("elsewhere.yaml")
    kept.rename(outside)
    (dirs["scenarios"] / "kit" / "a.yaml").symlink_to(Path("../..") / outside)
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert suite.errors == [] and {c.file for c in suite.cases} == {"scenarios/kit/a.yaml"}
    (dirs["scenarios"] / "kit" / "b.yaml").symlink_to(Path("../..") / outside)
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert [str(e) for e in suite.errors] == [
        "scenarios/kit/b.yaml: a symbolic link to the scenario file elsewhere.yaml, which scenarios/kit/a.yaml "
        "already reads; a file is read once, so this one is not read"]


def test_a_duplicate_id_names_a_linked_file_by_its_own_path(tmp_path, cache, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dirs = mini_suite(Path("."))
    copy = write(Path("copy.yaml"), (dirs["scenarios"] / "kit" / "echo.yaml").read_text())
    (dirs["scenarios"] / "kit" / "twin.yaml").symlink_to(Path("../..") / copy)
    errors = [str(e) for e in load_suite(dirs["scenarios"], spec_dir=dirs["spec"]).errors]
    assert errors[0] == "scenarios/kit/twin.yaml:6:5: id: case id 'kit-echo-text' is also used at scenarios/kit/echo.yaml:6"


# --- goldens written with a .yml suffix ---------------------------------------------------------

def test_a_yml_golden_is_a_suite_error_under_run_and_show(tmp_path, cache, capsys):
    dirs = mini_suite(tmp_path)
    gold = dirs["golden"] / "kit"
    (gold / "kit-echo-text.yaml").rename(gold / "kit-echo-text.yml")
    misnamed = (f"{gold / 'kit-echo-text.yml'}: goldens end in .yaml (<area>/<case-id>.yaml), so this file is "
                "not read: rename it kit-echo-text.yaml, or delete it when kit-echo-text.yaml is there")
    beside = f"({gold / 'kit-echo-text.yml'} is there, but goldens end in .yaml)"
    run = ("run", "-q", "--adapter", "python:tests.kit_fixtures:Echo")
    assert _cli(dirs, *run, "--case", "kit-echo-text") == 2
    err = capsys.readouterr().err
    assert misnamed in err and f"no golden at {gold / 'kit-echo-text.yaml'} {beside}" in err
    assert _cli(dirs, "show", "kit-echo-text") == 2
    out, err = capsys.readouterr()
    assert f"missing {beside}" in out and misnamed in err
    # beside the right golden it is still reported: it would never be read
    golden.write(gold / "kit-echo-text.yaml", "kit-echo-text", "kit.echo", {"value": "one\ntwo\n"})
    assert _cli(dirs, *run, "--case", "kit-echo-number") == 2
    assert misnamed in capsys.readouterr().err
    assert _cli(dirs, "show", "kit-echo-text") == 2
    out, err = capsys.readouterr()
    assert "beside" not in out and "is there" not in out and misnamed in err
    (gold / "kit-echo-text.yml").unlink()
    assert _cli(dirs, *run) == 0 and _cli(dirs, "show", "kit-echo-text") == 0


@pytest.mark.parametrize("cache", [True, False])
def test_a_document_nested_too_deeply_is_a_suite_error_not_a_traceback(cache, monkeypatch):
    # an expectations file or a scenario nested 400 or 5,000 deep ended in a RecursionError
    if not cache:
        monkeypatch.setenv("PI_CONFORMANCE_CACHE", "off")
    text = "implementation: x\nexpectations: " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(yamlio.SuiteFileError) as refused:
        yamlio.load_text_with_positions(text, "deep.yaml")
    assert str(refused.value.errors[0]).startswith("deep.yaml:1:1: YAML error: nested too deeply to read")
    from ruamel.yaml.error import YAMLError

    with pytest.raises(YAMLError, match="nested too deeply"):
        yamlio.load_data(text, cache=cache)

"""Fast reading of suite files: the C loader and the parse cache give exactly what the round-trip
parser gives, positions stay exact, a stale cache entry is never used, and a selection reads only
the files that hold its cases."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from conformance.judge import golden
from conformance.corpus import yamlcache, yamlio
from conformance.corpus.cases import load_file, load_suite, scan_ids
from conformance.cli import main
from tests.kit_fixtures import mini_suite, write


@pytest.fixture()
def exact_reads(monkeypatch) -> list[str]:
    """Records every document read by the round-trip (exact, positioned) parser."""
    seen: list[str] = []
    original = yamlio._read_positioned

    def counting(text, shown):
        seen.append(shown)
        return original(text, shown)

    monkeypatch.setattr(yamlio, "_read_positioned", counting)
    return seen


# Documents where YAML readers commonly differ: YAML 1.1 words and numbers, aliases, merge keys,
# dates, non-string keys, flow scalars with ':' and '?', tabs in block scalars, odd line breaks.
TRICKY = [
    "a: [yes, no, on, off, y, n, ~, null, 0o17, 017, 0x1f, 1_000, 1:30, .5, 1e3, .inf, -.inf, .nan]\n",
    "base: &b {x: 1, y: [1, 2]}\nuse: *b\nlist: [*b, *b]\n",
    "base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2\n",
    "when: 2024-01-01\nstamp: 2024-01-01T10:00:00Z\n",
    "1: one\nfalse: two\n",
    "a: !custom 1\nb: !!python/none ''\n",
    "m: { url: https://proxy.test/v1, q: How severe is it?, r: [a, b] }\n",
    "v: |\n  \tindented with a tab\n  next\n",
    "s: \"a\\u2028b\\x85c\"\nt: 'it''s'\n",
    "k: !!str 12\nf: !!float 1\nb: !!binary aGk=\n",
    "s: !!set {a, b}\no: !!omap [{a: 1}]\n",
    "",
    "# only a comment\n",
    "- 1\n- [2, {a: 3}]\n",
    "a: 1\r\nb:\r\n  - x\r\n",
    "\ufeffa: 1\n",
]

BAD = [
    "a: 1\na: 2\n",
    "a: [unclosed\n",
    "a: 1\n---\nb: 2\n",
    "a:\n\tb: 1\n",
]


def _exact(text: str):
    data, positions = yamlio._read_positioned(text, "f.yaml")
    return data, {p: pos for p, pos in positions.items() if len(p) <= yamlio.SHALLOW}


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True, default=repr) == json.dumps(b, sort_keys=True, default=repr) and a == b \
        or (a != a and b != b)


@pytest.mark.parametrize("text", TRICKY)
def test_fast_and_exact_reading_agree(tmp_path, cache, text):
    path = write(tmp_path / "f.yaml", "")
    path.write_text(text, encoding="utf-8", newline="")
    want_data, want_positions = _exact(text)
    for _ in range(2):  # a cold and then a warm cache
        data, positions = yamlio.load_with_positions(path, "f.yaml")
        assert json.dumps(data, sort_keys=True, default=repr) == json.dumps(want_data, sort_keys=True, default=repr)
        assert {p: positions[p] for p in want_positions} == want_positions
        assert {p: pos for p, pos in positions.items() if len(p) <= yamlio.SHALLOW} == want_positions


@pytest.mark.parametrize("text", TRICKY)
def test_data_only_reading_agrees_with_the_safe_loader(cache, text):
    from ruamel.yaml import YAML

    try:
        want = YAML(typ="safe", pure=True).load(text)
    except Exception as exc:  # the safe loader refuses some of them: so must load_data
        with pytest.raises(type(exc)):
            yamlio.load_data(text)
        return
    for _ in range(2):
        got = yamlio.load_data(text)
        assert json.dumps(got, sort_keys=True, default=repr) == json.dumps(want, sort_keys=True, default=repr)


@pytest.mark.parametrize("text", BAD)
def test_refused_documents_give_the_exact_parsers_message(tmp_path, cache, text):
    path = write(tmp_path / "f.yaml", text)
    with pytest.raises(yamlio.SuiteFileError) as first:
        yamlio.load_with_positions(path, "f.yaml")
    with pytest.raises(yamlio.SuiteFileError) as exact:
        yamlio._read_positioned(text, "f.yaml")
    assert str(first.value) == str(exact.value) and first.value.errors[0].line > 0
    assert not list(cache.glob("*.json")) if cache.exists() else True


def test_a_good_file_is_read_without_the_exact_parser(tmp_path, cache, exact_reads):
    dirs = mini_suite(tmp_path)
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert suite.errors == [] and suite.cases[1].line == 10 and suite.cases[1].column == 5
    assert exact_reads == []


def test_a_deep_error_is_positioned_from_a_warm_cache(tmp_path, cache, exact_reads):
    dirs = mini_suite(tmp_path)
    path = dirs["scenarios"] / "kit" / "echo.yaml"
    path.write_text(path.read_text().replace("input: {value: 1.0}", "input: {value: 1.0, extra: 2}"))
    cold = load_file(path)
    assert exact_reads, "the error's place comes from the exact parser"
    exact_reads.clear()
    warm = load_file(path)
    assert [str(e) for e in warm[1]] == [str(e) for e in cold[1]]
    (err,) = warm[1]
    assert (err.line, err.field) == (13, "cases[1].input.extra") and exact_reads


def test_a_changed_file_never_gets_the_old_entry(tmp_path, cache):
    path = write(tmp_path / "f.yaml", "value: 1\n")
    assert yamlio.load_with_positions(path)[0] == {"value": 1}
    assert len(list(cache.glob("*.json"))) == 1
    path.write_text("value: 2\n")
    assert yamlio.load_with_positions(path)[0] == {"value": 2}
    assert len(list(cache.glob("*.json"))) == 2
    path.write_text("value: 1\n")
    assert yamlio.load_with_positions(path)[0] == {"value": 1}


def test_the_cache_is_used_when_it_holds_the_document(tmp_path, cache, monkeypatch):
    path = write(tmp_path / "f.yaml", "value: 1\n")
    yamlio.load_with_positions(path)
    monkeypatch.setattr(yamlio, "_parse_c", lambda text: pytest.fail("parsed although cached"))
    assert yamlio.load_with_positions(path)[0] == {"value": 1}


def test_an_entry_under_the_wrong_name_or_damaged_is_ignored(tmp_path, cache):
    one = write(tmp_path / "one.yaml", "value: 1\n")
    two = write(tmp_path / "two.yaml", "value: 2\n")
    yamlio.load_with_positions(one)
    (entry,) = cache.glob("*.json")
    impostor = cache / f"{yamlcache.key_of(chr(10) + two.read_text())}.json"
    impostor.write_text(entry.read_text())  # another document's entry under two's name
    assert yamlio.load_with_positions(two)[0] == {"value": 2}
    entry.write_text(entry.read_text()[:20])
    assert yamlio.load_with_positions(one)[0] == {"value": 1}


def test_the_cache_lives_in_the_users_cache_folder_or_nowhere(tmp_path, monkeypatch):
    monkeypatch.delenv(yamlcache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert yamlcache.cache_dir() == tmp_path / "xdg" / "pi-conformance" / "yaml"
    monkeypatch.delenv("XDG_CACHE_HOME")
    folder = yamlcache.cache_dir()
    assert folder is not None and Path(yamlio.__file__).parent not in folder.parents
    for off in ("", "off", "0", "none"):
        monkeypatch.setenv(yamlcache.ENV, off)
        assert yamlcache.cache_dir() is None
    path = write(tmp_path / "f.yaml", "value: 1\n")
    assert yamlio.load_with_positions(path)[0] == {"value": 1}


def test_an_unwritable_cache_is_left_out(tmp_path, monkeypatch):
    blocker = write(tmp_path / "file", "not a folder")
    monkeypatch.setenv(yamlcache.ENV, str(blocker))
    path = write(tmp_path / "f.yaml", "value: 1\n")
    assert yamlio.load_with_positions(path)[0] == {"value": 1}


def test_parallel_writers_never_show_half_an_entry(cache):
    key = yamlcache.key_of("value: x\n")
    entry = cache / f"{key}.json"
    torn = []

    def writer():
        for _ in range(30):
            yamlcache.put(key, json.dumps({"data": {"value": "x" * 500_000}, "positions": []}))

    def reader():
        for _ in range(300):
            try:
                text = entry.read_text(encoding="utf-8")
            except FileNotFoundError:
                continue
            try:
                json.loads(text.partition("\n")[2])
            except ValueError:
                torn.append(len(text))

    threads = [threading.Thread(target=writer) for _ in range(2)] + [threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert torn == []
    assert len(yamlcache.get(key)["data"]["value"]) == 500_000
    assert [p.name for p in cache.iterdir()] == [entry.name], "no temporary file is left behind"


def test_goldens_read_through_the_cache_are_the_same(tmp_path, cache):
    path = tmp_path / "g.yaml"
    golden.write(path, "c", "o", {"s": "a\nb\n", "n": 1.5, "w": "yes"})
    assert golden.read(path) == golden.read(path) == {"case": "c", "op": "o",
                                                      "output": {"s": "a\nb\n", "n": 1.5, "w": "yes"}}
    with pytest.raises(ValueError, match="golden is not valid YAML"):
        golden.parse("a: [unclosed\n")



def test_goldens_in_compared_form_hold_the_canonical_output_cold_and_warm(tmp_path, cache):
    path = tmp_path / "g.yaml"
    path.write_text("case: c\nop: o\noutput: {n: 1.0, m: 1.5, b: true, s: 'x', l: [2.0]}\n")
    cold, warm = golden.read_stored(path), golden.read_stored(path)
    for stored in (cold, warm):
        assert (stored.get("case"), stored.get("op")) == ("c", "o")
        assert golden.same(stored.output, {"b": True, "l": [2], "m": 1.5, "n": 1, "s": "x"})
        assert stored.text == golden.encoded(golden.canonical(golden.read(path)["output"]))
    assert not golden.same(warm.output, {"b": 1, "l": [2], "m": 1.5, "n": 1, "s": "x"})
    path.write_text("case: c\nop: o\noutput: {n: 2}\n")
    assert golden.read_stored(path).output == {"n": 2}, "an edited golden is never the old entry"
    path.write_text("case: c\nop: o\noutput: {d: 2024-01-01}\n")
    with pytest.raises(ValueError, match="not JSON data"):
        golden.read_stored(path)
    assert golden.read_stored(tmp_path / "none.yaml") is None


def test_a_folder_of_goldens_read_whole_is_each_golden_in_compared_form(tmp_path, cache):
    golden.write(tmp_path / "a.yaml", "a", "o", {"n": 1.0, "s": "x\ny\n"})
    golden.write(tmp_path / "b.yaml", "b", "o", {"l": [True]})
    (tmp_path / "bad.yaml").write_text("case: [unclosed\n")
    (tmp_path / "notes.txt").write_text("not a golden")
    for _ in range(2):  # cold, then from the folder's cache entry
        found = golden.read_folder(tmp_path)
        assert sorted(found) == ["a.yaml", "b.yaml", "bad.yaml"]
        for name in ("a.yaml", "b.yaml"):
            one = golden.read_stored(tmp_path / name)
            assert (found[name].case, found[name].op, found[name].text) == (one.case, one.op, one.text)
        assert isinstance(found["bad.yaml"], golden.GoldenError)
        assert found["bad.yaml"].at("bad.yaml").startswith("bad.yaml:2:1: golden is not valid YAML")
    golden.write(tmp_path / "b.yaml", "b", "o", {"l": [False]})
    assert golden.read_folder(tmp_path)["b.yaml"].output == {"l": [False]}, "an edited golden is never the old one"
    assert golden.read_folder(tmp_path / "none") == {}

def test_yaml_dumps_kept_in_the_cache_are_the_dumpers_own_and_change_with_its_code(cache, monkeypatch):
    data = {"s": "a\nb\n", "w": "yes", "n": [1, 2.5, None, True], "x": "\u2028"}
    golden._dump_memo.cache_clear()
    cold = golden.dump(data)
    golden._dump_memo.cache_clear()
    warm = golden.dump(data)
    monkeypatch.setenv(yamlcache.ENV, "off")
    golden._dump_memo.cache_clear()
    assert cold == warm == golden.dump(data)
    encoded = json.dumps(golden.canonical(data), ensure_ascii=False)
    key = golden._dump_key(encoded)
    assert (cache / f"{key}.json").is_file()
    monkeypatch.setattr(golden, "_dumper_identity", lambda: "another version of the dumping code")
    assert golden._dump_key(encoded) != key
    golden._dump_memo.cache_clear()

# --- selection before parsing ----------------------------------------------------------------------

def _more_files(dirs) -> Path:
    """A second scenario file and a broken third one, beside the mini suite's echo.yaml."""
    write(dirs["scenarios"] / "kit" / "more.yaml", """\
        format: 1
        area: kit
        title: More
        op: kit.echo
        cases:
          - id: kit-more-one
            title: one more
            clauses: [ENV-TEST-ECHO]
            input:
              value:
                id: not-a-case-id
        """)
    return write(dirs["scenarios"] / "kit" / "broken.yaml", "format: 1\ncases: [unclosed\n")


def test_ids_are_scanned_without_parsing(tmp_path):
    dirs = mini_suite(tmp_path)
    _more_files(dirs)
    assert scan_ids(dirs["scenarios"] / "kit" / "echo.yaml") == ["kit-echo-text", "kit-echo-number",
                                                                  "kit-echo-refused"]
    assert scan_ids(dirs["scenarios"] / "kit" / "more.yaml") == ["kit-more-one"]
    assert scan_ids(dirs["scenarios"] / "kit" / "broken.yaml") is None


def test_a_selection_reads_only_the_files_holding_its_cases(tmp_path, cache, monkeypatch):
    dirs = mini_suite(tmp_path)
    _more_files(dirs)
    read: list[str] = []
    original = yamlio.read_text
    monkeypatch.setattr("conformance.corpus.cases.read_text",
                        lambda path, shown: (read.append(Path(path).name), original(path, shown))[1])
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"], patterns=["kit-more-*"])
    assert [c.id for c in suite.cases] == ["kit-more-one"]
    assert [Path(e.file).name for e in suite.errors] == ["broken.yaml"], "a file without ids is read"
    assert "echo.yaml" not in read and "more.yaml" in read
    assert not suite.complete and suite.ids == {"kit-echo-text", "kit-echo-number", "kit-echo-refused",
                                                "kit-more-one"}
    full = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    assert full.complete and [e.file for e in full.errors] and full.ids == suite.ids


def test_an_area_selection_reads_only_that_areas_files(tmp_path, cache):
    dirs = mini_suite(tmp_path)
    _more_files(dirs)
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"], areas=["pi"])
    assert suite.cases == [] and suite.errors == [] and "kit-more-one" in suite.ids


def _cli(dirs, *args):
    return main([*args, "--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]),
                 "--golden-dir", str(dirs["golden"])])


def test_a_selected_run_still_judges_expectations_and_orphans_against_every_id(tmp_path, cache, capsys):
    dirs = mini_suite(tmp_path)
    expectations = write(tmp_path / "exp.yaml", """\
        expectations:
          - id: kit-echo-number
            status: skip
            reason: not today
        """)
    run = ("run", "-q", "--adapter", "python:tests.kit_fixtures:Echo", "--case", "kit-echo-text")
    assert _cli(dirs, *run, "--expectations", str(expectations)) == 0, capsys.readouterr().err
    golden.write(dirs["golden"] / "kit" / "kit-gone.yaml", "kit-gone", "kit.echo", {"value": 1})
    assert _cli(dirs, *run) == 2
    assert "kit-gone.yaml: orphaned golden" in capsys.readouterr().err


def test_show_suggests_ids_of_files_it_did_not_read(tmp_path, capsys):
    dirs = mini_suite(tmp_path)
    assert _cli(dirs, "show", "kit-echo-numbr") == 2
    assert "did you mean kit-echo-number" in capsys.readouterr().err

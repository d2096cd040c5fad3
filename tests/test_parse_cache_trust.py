"""The parse cache never decides a result: an edited, damaged, misshapen or special entry (a FIFO,
a link to a device) is ignored and replaced, a cache folder of another user or writable by others
is not used (and that is said once), and the folder has a size bound past which the oldest
entries are evicted."""

from __future__ import annotations

import json
import os
import shutil
import threading

import pytest

from conformance.judge import golden
from conformance.corpus import yamlcache
from conformance.corpus.cases import load_suite
from tests.kit_fixtures import cache_document, mini_suite


@pytest.fixture(autouse=True)
def fresh_judgement(monkeypatch):
    """Each test judges its cache folder afresh (a process judges each folder once)."""
    monkeypatch.setattr(yamlcache, "_refused", set())
    monkeypatch.setattr(yamlcache, "_written", {})
    monkeypatch.setattr(yamlcache, "_tagged", set())
    yamlcache._problem_of.cache_clear()
    yamlcache._foreign_content.cache_clear()
    yield
    yamlcache._problem_of.cache_clear()
    yamlcache._foreign_content.cache_clear()


def _load(dirs):
    suite = load_suite(dirs["scenarios"], spec_dir=dirs["spec"])
    goldens = golden.read_folder(dirs["golden"] / "kit")
    return suite, goldens


def _view(loaded):
    suite, goldens = loaded
    return ([(c.id, c.title, c.input, c.error_code) for c in suite.cases], [str(e) for e in suite.errors],
            {name: (s.case, s.op, s.text) for name, s in goldens.items()})


def _records_entry(cache):
    (entry,) = [p for p in cache.glob("*.json")
                if isinstance(cache_document(p), list) and cache_document(p) and "title" in cache_document(p)[0]]
    return entry


def test_an_entry_edited_to_flip_a_verdict_is_ignored_and_replaced(tmp_path, cache):
    dirs = mini_suite(tmp_path)
    before = _view(_load(dirs))
    entry = _records_entry(cache)
    data = entry.read_bytes()
    assert b'"value-refused"' in data
    entry.write_bytes(data.replace(b'"value-refused"', b'"value-refuses"'))  # what a refusal must say
    assert _view(_load(dirs)) == before, "the edited entry decided the case's expected error"
    assert entry.read_bytes() == data, "the entry is written again"


@pytest.mark.parametrize("damage", ["truncated", "empty", "nested past recursion", "not utf-8", "header only"])
def test_a_damaged_entry_is_ignored(tmp_path, cache, damage):
    dirs = mini_suite(tmp_path)
    before = _view(_load(dirs))
    for entry in cache.glob("*.json"):
        data = entry.read_bytes()
        header = data.partition(b"\n")[0]
        entry.write_bytes({"truncated": data[: len(data) // 2], "empty": b"",
                           "nested past recursion": header + b"\n" + b"[" * 100_000 + b"]" * 100_000,
                           "not utf-8": header + b"\n\xff\xfe", "header only": header}[damage])
    assert _view(_load(dirs)) == before


@pytest.mark.parametrize("document", [[[1, 2, 3]], {"x": [1]}, [{"id": 1}], "text", None, {"data": 1, "positions": [["a"]]}])
def test_an_entry_of_the_wrong_shape_with_its_own_key_and_digest_is_ignored(tmp_path, cache, document):
    # a reader that took any document its key named ended in a traceback or a suite error
    dirs = mini_suite(tmp_path)
    before = _view(_load(dirs))
    for entry in cache.glob("*.json"):
        yamlcache.put(entry.stem, json.dumps(document))
    assert _view(_load(dirs)) == before


def test_a_tree_entry_of_unknown_fields_in_a_cached_case_is_ignored(tmp_path, cache):
    dirs = mini_suite(tmp_path)
    before = _view(_load(dirs))
    entry = _records_entry(cache)
    records = cache_document(entry)
    records[0]["tree"] = {"a.txt": {"text": "x", "mode": 511}}
    yamlcache.put(entry.stem, json.dumps(records))
    assert _view(_load(dirs)) == before


def _with_deadline(fn, seconds, unblock):
    """``fn()`` in a thread; when it has not returned within ``seconds``, ``unblock()`` and fail."""
    done = []
    worker = threading.Thread(target=lambda: done.append(fn()), daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        unblock()
        worker.join(10)
        pytest.fail(f"still waiting after {seconds} s")
    return done[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_place_of_an_entry_is_never_waited_on_and_is_replaced(tmp_path, cache):
    dirs = mini_suite(tmp_path)
    before = _view(_load(dirs))
    entry = _records_entry(cache)
    entry.unlink()
    os.mkfifo(entry)

    def unblock():
        fd = os.open(entry, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)

    assert _view(_with_deadline(lambda: _load(dirs), 20, unblock)) == before
    assert entry.is_file() and not entry.is_symlink(), "the FIFO is replaced by the entry"


def test_a_folder_in_place_of_an_entry_is_ignored_and_replaced(tmp_path, cache):
    dirs = mini_suite(tmp_path)
    before = _view(_load(dirs))
    entry = _records_entry(cache)
    entry.unlink()
    (entry / "deep" / "er").mkdir(parents=True)
    assert _view(_load(dirs)) == before
    assert entry.is_file(), "the folder is replaced by the entry"


def test_a_link_in_place_of_an_entry_is_not_followed(tmp_path, cache):
    dirs = mini_suite(tmp_path)
    before = _view(_load(dirs))
    entry = _records_entry(cache)
    forged = tmp_path / "forged.json"
    forged.write_bytes(entry.read_bytes().replace(b'"value-refused"', b'"value-refuses"'))
    entry.unlink()
    entry.symlink_to("/dev/zero" if os.path.exists("/dev/zero") else forged)
    assert _view(_load(dirs)) == before
    assert entry.is_file() and not entry.is_symlink()


@pytest.mark.parametrize("how", ["writable by others", "another user's"])
def test_a_cache_folder_others_control_is_not_used_and_that_is_said_once(tmp_path, cache, monkeypatch, capfd, how):
    dirs = mini_suite(tmp_path)
    shutil.rmtree(cache, ignore_errors=True)  # writing the goldens may have made it (seen under xdist)
    cache.mkdir(parents=True)
    if how == "writable by others":
        cache.chmod(0o777)
    else:
        owner = os.stat(cache).st_uid
        monkeypatch.setattr(os, "geteuid", lambda: owner + 1)
    _load(dirs)
    _load(dirs)
    err = capfd.readouterr().err
    assert err.count(f"the cache folder {cache} is not used") == 1, err
    assert ("other users can write to it" if how == "writable by others" else "belongs to another user") in err
    assert list(cache.iterdir()) == [], "nothing is written to it"
    assert yamlcache.cache_dir() is None, "nor is it the place of the kit's other caches (installed releases)"


def test_a_cache_folder_is_made_for_its_user_alone(tmp_path, cache):
    yamlcache.put(yamlcache.key_of("x"), "1")
    assert cache.is_dir() and cache.stat().st_mode & 0o077 == 0
    assert yamlcache.get(yamlcache.key_of("x")) == 1


def test_the_cache_keeps_to_its_size_bound_by_evicting_the_oldest(cache, monkeypatch):
    monkeypatch.setenv(yamlcache.SIZE_ENV, "1")
    value = json.dumps("x" * 100_000)
    keys = [yamlcache.key_of(f"document {i}") for i in range(40)]
    for i, key in enumerate(keys):
        yamlcache.put(key, value)
        os.utime(cache / f"{key}.json", (1_000_000 + i, 1_000_000 + i))  # written in this order
    total = sum(p.stat().st_size for p in cache.iterdir())
    assert total <= 1024 * 1024, f"{total} bytes in a cache bound to 1 MB"
    assert yamlcache.get(keys[-1]) == "x" * 100_000, "the newest entry is kept"
    assert yamlcache.get(keys[0]) is None, "the oldest entry is evicted"


def test_an_entry_larger_than_the_bound_is_not_read(cache, monkeypatch):
    key = yamlcache.key_of("big")
    yamlcache.put(key, json.dumps("y"))
    body = json.dumps("y" * 2_000_000).encode()
    (cache / f"{key}.json").write_bytes(yamlcache._header(key, body) + b"\n" + body)  # its own key and digest
    assert yamlcache.get(key) == "y" * 2_000_000
    monkeypatch.setenv(yamlcache.SIZE_ENV, "1")
    assert yamlcache.get(key) is None


@pytest.mark.parametrize("value, words", [("abc", "a whole number of megabytes, got 'abc'"),
                                          ("-1", "at least 1 megabyte, got -1")])
def test_a_cache_size_the_cache_cannot_take_is_a_usage_error(monkeypatch, capsys, value, words):
    # it was ignored silently, where a bad $PI_CONFORMANCE_INVARIANT_EXAMPLES is refused
    from conformance.cli import main

    monkeypatch.setenv(yamlcache.SIZE_ENV, value)
    assert main(["list"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"$PI_CONFORMANCE_CACHE_MB: the cache's size must be {words}" in captured.err
    assert yamlcache.size_bound() == yamlcache.DEFAULT_SIZE_MB * 1024 * 1024  # where nothing refused it first


@pytest.mark.parametrize("home", ["missing", "unset"])
def test_no_home_folder_turns_the_cache_off_and_makes_none(tmp_path, monkeypatch, capsys, home):
    """A ``HOME`` that names no folder is not made up as a cache's home: the cache is off (the
    suite still loads, from the files), said once; with ``HOME`` unset the user database's home
    is used, as Python's ``expanduser`` gives it."""
    dirs = mini_suite(tmp_path / "s")
    monkeypatch.delenv(yamlcache.ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    if home == "missing":
        monkeypatch.setenv("HOME", str(tmp_path / "gone"))
    else:
        monkeypatch.delenv("HOME", raising=False)
        monkeypatch.setattr(os.path, "expanduser", lambda path: str(tmp_path / "nobody") if path == "~" else path)
    capsys.readouterr()
    assert yamlcache.cache_dir() is None and yamlcache.cache_dir() is None
    loaded = _load(dirs)
    assert [c.id for c in loaded[0].cases] and not loaded[0].errors
    err = capsys.readouterr().err
    assert err.count("the cache is off") == 1 and "(HOME)" in err, err
    assert not (tmp_path / "gone").exists() and not (tmp_path / "nobody").exists()


def test_a_home_folder_that_exists_keeps_the_cache_there(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(yamlcache.ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert yamlcache.cache_dir() == tmp_path / ".cache" / "pi-conformance" / "yaml"
    assert "cache is off" not in capsys.readouterr().err


def _kit_places():
    from conformance.output.report_paths import kit_folders

    conformance_dir, reference_dir, golden_dir = kit_folders()
    return {"the kit's package": conformance_dir, "a folder inside it": conformance_dir / "scenarios" / "cache",
            "a folder of scenarios": conformance_dir / "scenarios",
            "the reference's package": reference_dir, "the golden folder": golden_dir}


@pytest.mark.parametrize("place", sorted(_kit_places()))
@pytest.mark.parametrize("variable", [yamlcache.ENV, "XDG_CACHE_HOME", "HOME"])
def test_a_cache_among_the_kit_s_own_files_is_off_and_that_is_said_once(tmp_path, monkeypatch, capsys, place, variable):
    """A cache folder equal to or inside the kit's own folders (its package, the reference's, the
    goldens) would put entries among the files the kit reads and ships: the cache is off, said
    once, naming the variable that chose it, and nothing is made there."""
    folder = _kit_places()[place]
    existed = folder.exists()
    monkeypatch.delenv(yamlcache.ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv(variable, str(folder))
    capsys.readouterr()
    assert yamlcache.cache_dir() is None and yamlcache.cache_dir() is None
    yamlcache.put(yamlcache.key_of("a: 1\n"), "{}")
    err = capsys.readouterr().err
    words = "does not exist" if variable == "HOME" and not existed else "kit's own files"
    assert err.count("the cache is off") == 1 and f"({variable})" in err and words in err, err
    assert folder.exists() == existed
    for made in (folder / "yaml", folder / "pi-conformance", folder / ".cache"):
        assert not made.exists(), made


@pytest.mark.parametrize("variable,value,words", [
    (yamlcache.ENV, "relative/cache", "not an absolute path"),
    (yamlcache.ENV, "./cache", "not an absolute path"),
    ("HOME", "relative-home", "not an absolute path"),
    ("HOME", "", "empty"),
])
def test_a_relative_or_empty_cache_place_turns_the_cache_off(tmp_path, monkeypatch, capsys, variable, value, words):
    """A cache named by a relative path would move with the working folder (and land in a case's
    tree or the checkout); an empty ``HOME`` would put it at the root: the cache is off, said
    once, and nothing is made in the working folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "relative-home").mkdir()
    monkeypatch.delenv(yamlcache.ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv(variable, value)
    capsys.readouterr()
    assert yamlcache.cache_dir() is None and yamlcache.cache_dir() is None
    yamlcache.put(yamlcache.key_of("a: 1\n"), "{}")
    err = capsys.readouterr().err
    assert err.count("the cache is off") == 1 and f"({variable})" in err and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["relative-home"]
    assert not any((tmp_path / "relative-home").iterdir())


def test_a_relative_xdg_cache_home_is_ignored_as_its_specification_says(tmp_path, monkeypatch, capsys):
    """The XDG Base Directory specification asks that a relative ``XDG_CACHE_HOME`` be ignored:
    the cache falls back to ``$HOME/.cache``, and that is said once."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(yamlcache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative-xdg")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    capsys.readouterr()
    assert yamlcache.cache_dir() == tmp_path / "home" / ".cache" / "pi-conformance" / "yaml"
    assert yamlcache.cache_dir() == tmp_path / "home" / ".cache" / "pi-conformance" / "yaml"
    err = capsys.readouterr().err
    assert err.count("XDG_CACHE_HOME") == 1 and "not an absolute path" in err, err
    assert not (tmp_path / "relative-xdg").exists()


def test_eviction_removes_only_the_cache_s_own_entries(tmp_path, monkeypatch):
    """A file of the user's under the cache folder (any .json) is never evicted, however old:
    only files named and headed as the cache writes its entries are."""
    monkeypatch.setenv(yamlcache.ENV, str(tmp_path / "c"))
    for n in range(4):
        yamlcache.put(yamlcache.key_of(f"doc {n}\n"), json.dumps({"n": n, "pad": "x" * 2000}))
    folder = tmp_path / "c" / "yaml"
    mine = {folder / "config.json": '{"a": 1}\n', folder / ("a" * 64 + ".json"): "not an entry\n"}
    for path, text in mine.items():
        path.write_text(text)
        os.utime(path, (0, 0))  # the oldest there
    assert yamlcache.evict(folder, bound=100) >= 4
    assert {p: p.read_text() for p in mine} == mine


@pytest.mark.parametrize("holds", ["a package", "a project"])
def test_a_cache_folder_that_holds_other_files_is_not_used(tmp_path, monkeypatch, capsys, holds):
    """$PI_CONFORMANCE_CACHE naming a folder of other content (site-packages, where a yaml/ folder
    would shadow the PyYAML package; a project) is refused, said once, and nothing is made there."""
    folder = tmp_path / "site-packages"
    (folder / ("ruamel" if holds == "a package" else "src")).mkdir(parents=True)
    (folder / "README.md").write_text("mine\n")
    monkeypatch.setenv(yamlcache.ENV, str(folder))
    capsys.readouterr()
    assert yamlcache.cache_dir() is None and yamlcache.cache_dir() is None
    yamlcache.put(yamlcache.key_of("a: 1\n"), "{}")
    err = capsys.readouterr().err
    assert err.count("not used") == 1 and "holds files that are not the cache's" in err, err
    assert sorted(p.name for p in folder.iterdir()) == sorted(["README.md", "ruamel" if holds == "a package" else "src"])


def test_a_new_cache_folder_is_tagged_and_an_old_one_of_the_kit_s_own_is_kept(tmp_path, monkeypatch, capsys):
    """The folder the cache makes holds a CACHEDIR.TAG (the Cache Directory Tagging
    Specification's), by which it is known again; a folder of an earlier kit, holding only what
    the kit makes there, is used and tagged."""
    monkeypatch.setenv(yamlcache.ENV, str(tmp_path / "new"))
    yamlcache.put(yamlcache.key_of("a: 1\n"), "{}")
    tag = tmp_path / "new" / "CACHEDIR.TAG"
    assert tag.read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    old = tmp_path / "old"
    for name in ("yaml", "pi-node", "hypothesis", "diffs"):
        (old / name).mkdir(parents=True)
    monkeypatch.setenv(yamlcache.ENV, str(old))
    assert yamlcache.cache_dir() == old / "yaml"
    yamlcache.put(yamlcache.key_of("b: 1\n"), "{}")
    assert (old / "CACHEDIR.TAG").is_file() and "not used" not in capsys.readouterr().err


def test_an_untagged_folder_whose_entries_folder_holds_other_files_is_not_used(tmp_path, monkeypatch, capsys):
    """A folder laid out as the kit's (``yaml/``) but holding files of the user's there is not
    taken for an earlier kit's cache."""
    folder = tmp_path / "mine"
    (folder / "yaml").mkdir(parents=True)
    (folder / "yaml" / "x.bin").write_text("keep\n")
    monkeypatch.setenv(yamlcache.ENV, str(folder))
    capsys.readouterr()
    assert yamlcache.cache_dir() is None
    yamlcache.put(yamlcache.key_of("a: 1\n"), "{}")
    assert "yaml/x.bin" in capsys.readouterr().err
    assert sorted(p.name for p in folder.rglob("*")) == ["x.bin", "yaml"]

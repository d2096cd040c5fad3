"""No command deletes or overwrites a file it did not write: ``schema --out`` keeps the user's own
``*.schema.json`` files (it removes only stale ones it listed as written), and ``docs --out``
refuses a file system's root and a folder holding any page it would write (an index or an area's
page) that is not the kit's."""

from __future__ import annotations

import json

import pytest

from conformance.cli import main


def test_schema_out_keeps_the_users_own_schema_files(tmp_path):
    mine = tmp_path / "my.schema.json"
    mine.write_text('{"mine": 1}\n')
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert json.loads(mine.read_text()) == {"mine": 1}
    # a schema the kit wrote there before and no longer produces is removed on the next write
    stale = tmp_path / "gone.schema.json"
    stale.write_text("{}\n")
    listed = tmp_path / ".pi-conformance-schemas"
    listed.write_text(listed.read_text() + "gone.schema.json\n")
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert not stale.exists() and mine.exists()


@pytest.mark.parametrize("fmt, name", [("html", "index.html"), ("md", "index.md")])
def test_docs_out_does_not_replace_the_users_own_index(tmp_path, capsys, fmt, name):
    index = tmp_path / name
    index.write_text("my own page\n")
    assert main(["docs", "--format", fmt, "--out", str(tmp_path)]) == 2
    assert index.read_text() == "my own page\n"
    assert "is not a page the kit wrote" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # nothing else written either
    again = tmp_path / "pages"
    assert main(["docs", "--format", fmt, "--out", str(again)]) == 0
    assert main(["docs", "--format", fmt, "--out", str(again)]) == 0  # its own earlier pages: replaced


def test_docs_out_refuses_the_root_of_the_file_system(capsys, monkeypatch):
    import conformance.output.docs as docs

    monkeypatch.setattr(docs, "write_docs", lambda *a, **k: pytest.fail("the root was written"))
    monkeypatch.setattr("conformance.output.site.pages.write_site", lambda *a, **k: pytest.fail("the root was written"))
    for fmt in ("html", "md"):
        assert main(["docs", "--format", fmt, "--out", "/"]) == 2
        assert "root of the file system" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["html", "md"])
@pytest.mark.parametrize("area", ["envelope", "profiles", "pi"])
def test_docs_out_does_not_replace_the_users_own_page_of_an_area(tmp_path, capsys, fmt, area):
    """A folder of the user's own guides (``docs/envelope.md`` of a checkout, say) keeps them: a
    page the kit would write over is judged as the index is, before anything is written."""
    mine = tmp_path / f"{area}.{fmt}"
    mine.write_text("# my own guide\n")
    assert main(["docs", "--format", fmt, "--out", str(tmp_path)]) == 2
    assert mine.read_text() == "# my own guide\n"
    err = capsys.readouterr().err
    assert f"{mine} is not a page the kit wrote" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == [mine.name]


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_docs_out_replaces_every_page_it_wrote_before(tmp_path, capsys, fmt):
    assert main(["docs", "--format", fmt, "--out", str(tmp_path)]) == 0
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert set(before) == {f"{n}.{fmt}" for n in ("index", "envelope", "profiles", "pi")}
    for page in tmp_path.iterdir():
        page.write_text(before[page.name] + "edited after it was written\n")
    assert main(["docs", "--format", fmt, "--out", str(tmp_path)]) == 0, capsys.readouterr().err
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == before


def test_schema_out_does_not_replace_the_users_file_of_a_schema_s_name(tmp_path, capsys):
    """A file named as one of the kit's schemas that no earlier ``schema --out`` listed is the
    user's: refused before anything is written; one the kit listed there is replaced."""
    mine = tmp_path / "scenario.schema.json"
    mine.write_text("MINE\n")
    assert main(["schema", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{mine} exists and is not a schema the kit wrote" in err, err
    assert mine.read_text() == "MINE\n" and sorted(p.name for p in tmp_path.iterdir()) == ["scenario.schema.json"]
    mine.unlink()
    assert main(["schema", "--out", str(tmp_path)]) == 0
    (tmp_path / "scenario.schema.json").write_text("{}\n")  # an older schema the kit wrote and listed
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "scenario.schema.json").read_text() != "{}\n"

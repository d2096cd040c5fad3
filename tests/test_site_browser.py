"""The site and a report page opened from ``file://`` in headless Chromium: they render, log
nothing to the console, every internal link resolves, and a screenshot of each is saved under
the test's temporary folder.

Where no Chromium is installed the tests are skipped, saying so; under ``CI=true`` they fail
instead (``.ci/run`` installs Chromium from the distribution's packages)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from conformance.cli import main
from tests.test_site import broken_links, parse

pytestmark = pytest.mark.untraced  # code the other tests measure (see tests/conftest.py)

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
HEADLESS = ["--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--enable-logging=stderr", "--v=0"]


def chromium() -> str:
    """The Chromium binary; skips the test (fails it under ``CI=true``) when there is none."""
    found = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if found is None:
        reason = ("no Chromium on this machine (looked for " + ", ".join(BROWSERS)
                  + "); install it with `apt-get install -y chromium`")
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def open_page(browser: str, page: Path, shot: Path) -> tuple[str, list[str]]:
    """The DOM Chromium built from ``page`` and the console messages it logged; saves a
    screenshot to ``shot``. One start of Chromium does both (each start costs about a second of
    processor time)."""
    url = page.resolve().as_uri()
    done = subprocess.run([browser, *HEADLESS, "--dump-dom", f"--screenshot={shot}", "--window-size=1280,1600", url],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.is_file(), f"Chromium wrote no screenshot: {done.stderr[-2000:]}"
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, console


def png_byte_variety(data: bytes) -> int:
    """How many different byte values the decompressed image data of a PNG holds: a blank page
    gives a handful, a page of text and colours dozens."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat)))


def test_a_blank_screenshot_is_told_from_a_page(tmp_path):
    browser = chromium()
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    _, console = open_page(browser, blank, tmp_path / "blank.png")
    assert console == [] and png_byte_variety((tmp_path / "blank.png").read_bytes()) < 16


def test_console_errors_are_seen(tmp_path):
    """The check below can fail: a page with a script error logs it."""
    browser = chromium()
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><body><p>x</p><script>missing();</script></body></html>")
    _, console = open_page(browser, page, tmp_path / "broken.png")
    assert any("missing is not defined" in line for line in console)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    run = out / "reference.json"
    assert main(["run", "-q", "--area", "envelope", "--report-json", str(run),
                 "--report-html", str(out / "report.html")]) == 0
    report = json.loads(run.read_text())
    failed = next(r for r in report["cases"] if r["op"] == "envelope.build")
    failed.update(status="failed", message="answer differs from the golden", actual={"text": "a\tb \u200b"},
                  diff="--- golden\n+++ answer\n@@ -1 +1 @@\n-text: a b\n+text: a\tb \r\n")
    run.write_text(json.dumps(report))
    assert main(["docs", "--out", str(out / "docs"), "--results", str(run)]) == 0
    with (out / "compare.html").open("w", encoding="utf-8") as fh, contextlib.redirect_stdout(fh):
        assert main(["compare", "--html", str(run)]) == 0
    return out


def test_every_internal_link_of_the_site_resolves(site):
    pages = {p.name: p.read_text(encoding="utf-8") for p in (site / "docs").glob("*.html")}
    assert sorted(pages) == ["envelope.html", "index.html", "pi.html", "profiles.html"]
    assert broken_links(pages) == []
    assert all(parse(html).scripts == 0 for html in pages.values())


@pytest.mark.parametrize("name, heading", [("docs/index.html", "The specification by example"),
                                           ("docs/envelope.html", "envelope: clauses and their cases"),
                                           ("report.html", "Conformance report: reference 0.1.0 (pi-0.99.4)"),
                                           ("compare.html", "Conformance report: reference 0.1.0 (reference.json, pi-0.99.4)")])
def test_page_renders_in_chromium_without_console_messages(site, tmp_path, name, heading):
    browser = chromium()
    shot = tmp_path / (Path(name).stem + ".png")
    dom, console = open_page(browser, site / name, shot)
    assert console == []
    assert f'<h1 id="top">{heading}</h1>' in dom
    built = parse(dom)
    assert built.ids and built.hrefs
    # the DOM's own links resolve too (for a page of the site, against the other pages as written)
    pages = {p.name: p.read_text(encoding="utf-8") for p in (site / name).parent.glob("*.html")}
    pages[Path(name).name] = dom
    assert broken_links(pages) == []
    if name == "compare.html":
        assert 'title="tab"' in dom and 'title="zero-width space"' in dom and 'class="failed"' in dom
    assert png_byte_variety(shot.read_bytes()) > 64

"""The site and a report page opened from ``file://`` in headless Chromium: they render, log
nothing to the console, every internal link resolves, and a screenshot of each is saved under
the test's temporary folder. One Chromium, started once for the module, opens each page in a
tab of its own.

Where no Chromium is installed the tests are skipped, saying so; under ``CI=true`` they fail
instead (``.ci/run`` installs Chromium from the distribution's packages)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from pathlib import Path

import pytest

from conformance.cli import main
from tests.kit_fixtures import resummed
from tests.test_site import broken_links, parse

pytestmark = pytest.mark.untraced  # code the other tests measure (see tests/conftest.py)

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
HEADLESS = ["--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--window-size=1280,1600"]
TIMEOUT = 180  # seconds, for any one answer of the browser
# What a page logs to its console: its console calls, its uncaught exceptions, and what the browser
# logs about it (a resource that failed to load, a refused style, a deprecation).
CONSOLE_EVENTS = ("Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded")


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


class Browser:
    """One headless Chromium spoken to over the DevTools protocol on a pipe
    (``--remote-debugging-pipe``: commands on its descriptor 3, answers and events on 4, each a JSON
    object ended by a NUL byte). Each page opens in a tab of its own, closed after it; a start of
    Chromium costs about a second of processor time, a tab a small part of that."""

    def __init__(self, binary: str) -> None:
        self._log = tempfile.TemporaryFile()  # what Chromium writes on standard error
        command_read, self._commands = os.pipe()
        self._answers, answer_write = os.pipe()
        self.proc = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{command_read} 4>&{answer_write}', binary, *HEADLESS,
             "--remote-debugging-pipe", "about:blank"],
            pass_fds=(command_read, answer_write), stdout=subprocess.DEVNULL, stderr=self._log)
        os.close(command_read)
        os.close(answer_write)
        self._pending = b""
        self._last_id = 0
        self._events: list[dict] = []

    def _receive(self) -> dict:
        deadline = time.monotonic() + TIMEOUT
        while b"\0" not in self._pending:
            ready, _, _ = select.select([self._answers], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"Chromium did not answer within {TIMEOUT} s"
            chunk = os.read(self._answers, 1 << 16)
            assert chunk, f"Chromium closed its pipe: {self.log()[-2000:]}"
            self._pending += chunk
        message, self._pending = self._pending.split(b"\0", 1)
        return json.loads(message)

    def log(self) -> str:
        """What Chromium wrote on standard error so far."""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def call(self, method: str, session: str | None = None, **params) -> dict:
        """The result of one command (in a tab's ``session`` when given); events that arrive
        meanwhile are kept for :meth:`wait` and :meth:`events_of`."""
        self._last_id += 1
        message = {"id": self._last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while (answer := self._receive()).get("id") != self._last_id:
            self._events.append(answer)
        assert "error" not in answer, f"{method}: {answer['error']}"
        return answer["result"]

    def wait(self, method: str, session: str) -> None:
        """Until the tab of ``session`` sends event ``method`` (kept, like every other)."""
        if any(e.get("method") == method and e.get("sessionId") == session for e in self._events):
            return
        while True:
            event = self._receive()
            self._events.append(event)
            if event.get("method") == method and event.get("sessionId") == session:
                return

    def events_of(self, session: str) -> list[dict]:
        """The events of the tab of ``session``, removed from those kept."""
        mine = [e for e in self._events if e.get("sessionId") == session]
        self._events = [e for e in self._events if e.get("sessionId") != session]
        return mine

    def close(self) -> None:
        try:
            self.call("Browser.close")
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self._commands)
            os.close(self._answers)
            self._log.close()


def console_line(event: dict) -> str:
    """One console message of a page, as text: its kind, then what it says."""
    params = event["params"]
    if event["method"] == "Runtime.exceptionThrown":
        details = params["exceptionDetails"]
        return f"exception: {details['text']} {details.get('exception', {}).get('description', '')}"
    if event["method"] == "Runtime.consoleAPICalled":
        said = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"])
        return f"console.{params['type']}: {said}"
    entry = params["entry"]
    return f"{entry['level']} ({entry['source']}): {entry['text']} {entry.get('url', '')}".rstrip()


@pytest.fixture(scope="module")
def browser():
    """One Chromium for every page of the module's tests."""
    started = Browser(chromium())
    yield started
    started.close()


def open_page(browser: Browser, page: Path, shot: Path) -> tuple[str, list[str]]:
    """The DOM Chromium built from ``page`` (once loaded) and the console messages it logged;
    saves a screenshot of its 1280x1600 window to ``shot``."""
    tab = browser.call("Target.createTarget", url="about:blank")["targetId"]
    session = browser.call("Target.attachToTarget", targetId=tab, flatten=True)["sessionId"]
    try:
        for domain in ("Page", "Runtime", "Log"):
            browser.call(f"{domain}.enable", session)
        browser.call("Page.navigate", session, url=page.resolve().as_uri())
        browser.wait("Page.loadEventFired", session)
        dom = browser.call("Runtime.evaluate", session, expression="document.documentElement.outerHTML",
                           returnByValue=True)["result"]["value"]
        shot.write_bytes(base64.b64decode(browser.call("Page.captureScreenshot", session, format="png")["data"]))
    finally:
        browser.call("Target.closeTarget", targetId=tab)
    console = [console_line(e) for e in browser.events_of(session) if e.get("method") in CONSOLE_EVENTS]
    return dom, console


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


def test_a_blank_screenshot_is_told_from_a_page(browser, tmp_path):
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    _, console = open_page(browser, blank, tmp_path / "blank.png")
    assert console == [] and png_byte_variety((tmp_path / "blank.png").read_bytes()) < 16


def test_console_errors_are_seen(browser, tmp_path):
    """The check below can fail: a page with a script error logs it."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><body><p>x</p><img src="absent.png">'
                    '<script>console.log("said", 3); missing();</script></body></html>')
    _, console = open_page(browser, page, tmp_path / "broken.png")
    assert any("missing is not defined" in line for line in console)
    assert "console.log: said 3" in console
    assert any("absent.png" in line for line in console)


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
    run.write_text(json.dumps(resummed(report)))
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
                                           ("report.html", "Conformance report: reference 0.1.0 (edition envelope)"),
                                           ("compare.html", "Conformance report: reference 0.1.0 (reference.json, edition envelope)")])
def test_page_renders_in_chromium_without_console_messages(browser, site, tmp_path, name, heading):
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

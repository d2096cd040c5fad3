"""One hostile text (``tests/standins/hostile_everywhere.py``: ANSI and OSC escapes, a bare CR, a
forged line, HTML tags, Markdown pipes, backticks and a link, U+2028, bidirectional overrides, C1
and DEL) in every message an adapter controls (its start refusal, its name, version, language and
list of operations, error codes and messages, unsupported reasons, answers, standard error),
under ``run``, ``diff``, ``invariants`` and ``smoke``: it reaches no output raw (its start
refusal: ``tests/test_adapter_refusal_text.py``). The console and
every report shows it escaped (:mod:`conformance.output.console`: one helper per format); the
JSON reports keep it exact when read back."""

from __future__ import annotations

import json
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conformance.cli import main
from tests.kit_fixtures import mini_suite
from tests.test_report_escaping import _outside_code_blocks

sys.path.insert(0, str(Path(__file__).parent / "standins"))
from hostile_everywhere import HOSTILE  # noqa: E402

STANDIN = Path(__file__).parent / "standins" / "hostile_everywhere.py"
RAW = "\x1b\r\x07\x7f\x9b\u2028\u2029\u202e\u202c\u2066\u2069"
"""What no output of the kit may hold raw: escapes' ESC and BEL, CR, DEL, C1's CSI, the line and
paragraph separators, the bidirectional controls of :data:`HOSTILE`."""


def adapter(mode: str) -> str:
    """The stand-in's command line in ``mode`` (``refuse``, ``answer``, ``crash``)."""
    return shlex.join([sys.executable, str(STANDIN), mode])


def _raw_in(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in text if c in RAW})


def console_is_safe(text: str) -> None:
    """Fail unless console ``text`` holds no character of :data:`RAW` and no line of the
    stand-in's own."""
    assert not _raw_in(text), _raw_in(text)
    for line in text.split("\n"):
        assert not line.startswith(("FORGED", "<xevil", "| pipe")), f"a forged line of the kit's: {line!r}"


def _unescaped(text: str, char: str) -> int:
    """How many times ``char`` stands in ``text`` not escaped by a backslash."""
    return len(re.findall(r"(?<!\\)(?:\\\\)*" + re.escape(char), text))


def _markdown_is_safe(text: str) -> None:
    assert not _raw_in(text), _raw_in(text)
    outside = _outside_code_blocks(text)
    for line in outside:
        assert not line.startswith("FORGED"), line
        for markup in ("<xevil", "<script", "</td"):
            assert markup not in line, f"{markup} is markup in {line!r}"
        for markup in ("[link]", "`tick`", "*em*"):  # a link, code, emphasis of the adapter's
            assert not re.search(r"(?<!\\)" + re.escape(markup), line), f"{markup} is markup in {line!r}"
    tables = [line for line in outside if line.startswith("|")]
    if tables:
        assert len({_unescaped(line, "|") for line in tables}) == 1, "a row of another number of cells"


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.texts += [value or "" for _, value in attrs]

    def handle_data(self, data):
        self.texts.append(data)


def _html_is_safe(text: str) -> None:
    assert not _raw_in(text), _raw_in(text)
    parsed = _Tags()
    parsed.feed(text)
    assert "xevil" not in parsed.tags
    assert not _raw_in("".join(parsed.texts)), "an entity stands for a raw control"
    assert "<script>x</script>" not in text


def _junit_is_safe(data: bytes) -> None:
    root = ET.fromstring(data)  # well-formed
    texts = [t for e in root.iter() for t in (e.text or "", e.tail or "", *e.attrib.values())]
    assert not _raw_in(data.decode("utf-8")), _raw_in(data.decode("utf-8"))
    assert not _raw_in("".join(texts)), "an entity stands for a raw control"
    assert any("FORGED-CR" in t for t in texts), "the adapter's text is shown, not dropped"


def _json_is_safe(text: str) -> object:
    assert not _raw_in(text), f"the file shows {_raw_in(text)} raw (JSON escapes them)"
    return json.loads(text)


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))] if value else []
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.fixture()
def suite(tmp_path):
    dirs = mini_suite(tmp_path / "suite")
    return ["--scenarios-dir", str(dirs["scenarios"]), "--spec-dir", str(dirs["spec"]), "--golden-dir", str(dirs["golden"])]


@pytest.mark.parametrize("mode", ["answer", "crash"])
def test_run_shows_every_adapter_text_escaped_in_every_report(mode, suite, tmp_path, capsys):
    paths = {flag: tmp_path / name for flag, name in (("--report-json", "r.json"), ("--report-md", "r.md"),
                                                      ("--report-html", "r.html"), ("--junit", "r.xml"))}
    assert main(["run", *suite, "--adapter", adapter(mode), *[str(x) for p in paths.items() for x in p]]) == 1
    out = capsys.readouterr()
    console_is_safe(out.out + out.err)
    assert mode != "crash" or "adapter stderr (tail)" in out.out, "the standard error is shown, not dropped"
    report = _json_is_safe(paths["--report-json"].read_text(encoding="utf-8"))
    texts = _strings(report)
    assert any(HOSTILE in t for t in texts), "the JSON report keeps the adapter's text exact"
    _markdown_is_safe(paths["--report-md"].read_text(encoding="utf-8"))
    _html_is_safe(paths["--report-html"].read_text(encoding="utf-8"))
    _junit_is_safe(paths["--junit"].read_bytes())
    for command in (["compare", str(paths["--report-json"])], ["compare", "--markdown", str(paths["--report-json"])],
                    ["compare", "--by-op", str(paths["--report-json"])]):
        assert main(command) == 0
        shown = capsys.readouterr()
        (_markdown_is_safe if "--markdown" in command else console_is_safe)(shown.out + shown.err)


@pytest.mark.parametrize("mode", ["answer", "crash"])
def test_diff_shows_every_adapter_text_escaped_and_its_scenarios_keep_it(mode, tmp_path, capsys):
    out_dir = tmp_path / "found"
    code = main(["diff", "--adapter", adapter(mode), "--adapter", "reference", "--op", "envelope.instructions",
                 "--examples", "2", "--out", str(out_dir)])
    out = capsys.readouterr()
    console_is_safe(out.out + out.err)
    assert code != 0 and "FORGED-LINE" in out.out + out.err, out
    if mode == "crash":
        return
    written = sorted(out_dir.glob("*.yaml"))
    assert written
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert not _raw_in(text), _raw_in(text)
        YAML(typ="safe").load(text)  # a scenario file that loads
        assert "FORGED-LINE" in text, "the answer is shown, not dropped"


@pytest.mark.parametrize("mode", ["answer", "crash"])
def test_invariants_show_every_adapter_text_escaped_and_its_report_keeps_it(mode, tmp_path, capsys):
    report = tmp_path / "inv.json"
    assert main(["invariants", "--adapter", adapter(mode), "--invariant", "inv-mdl-literal-value",
                 "--examples", "2", "--report-json", str(report)]) == 1
    out = capsys.readouterr()
    console_is_safe(out.out + out.err)
    assert "FORGED-LINE" in out.out + out.err
    assert any("FORGED-LINE" in s for s in _strings(_json_is_safe(report.read_text(encoding="utf-8"))))


def test_smoke_shows_every_adapter_text_escaped(capsys):
    main(["smoke", "--adapter", adapter("answer")])
    out = capsys.readouterr()
    console_is_safe(out.out + out.err)
    assert "FORGED-LINE" in out.out + out.err

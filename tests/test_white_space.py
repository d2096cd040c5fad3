""""White space" and "blank" are defined where a clause uses them: each such clause lists the
characters, or names the clause that does, and the reference strips exactly those characters."""

from __future__ import annotations

import re
import sys

import pytest

from conformance.corpus.catalogue import load_catalogue

CAT = load_catalogue()
WORDS = re.compile(r"\b(white ?space|blank|trimmed)\b", re.I)
# The clauses whose statement lists the characters, and the clauses that name one of them instead.
DEFINING = {"ENV-TRIM-JS", "ENV-CTX-BLANK", "PI-PKG-SOURCE-TRIM", "PI-TPL-BODY-TRIM", "PI-TPL-ARGS-SPLIT",
            "PI-MODELS-VALUE-COMMAND", "PROF-PICKER-FILTER", "PROF-SETTINGS-PARSE"}
# Clauses that use the words for something no character set decides, each with why.
NO_SET = {
    "ENV-DECISION-CONTRIBUTIONS": "the decision; ENV-CONTRIB-ID and ENV-TRIM-JS define its 'blank' and 'trimmed'",
    "ENV-DECISION-CONTEXT-FILES": "the decision; ENV-CTX-BLANK defines its 'blank'",
    "ENV-DECISION-ADAPTERS": "the decision; ENV-ADAPTER-PROVIDER defines its 'blank'",
    "ENV-RENDER-TRIM": "'trimmed' as ENV-TRIM-JS trims, which it follows",
    "ENV-REGISTRY-DIRECT": "a refused entry's 'blank' id as ENV-CONTRIB-ID has it",
    "PROF-BLOCK-CONTROL-PARAGRAPH": "a blank line is an empty one, as PROF-DECISION-BLOCK writes it (\\n\\n)",
    "PI-TPL-YAML-SCHEMA": "YAML's own separation white space (space and tab), named by the YAML 1.2 reference",
    "PROF-LOAD-VERBATIM": "nothing is trimmed",
    "PROF-NEWLINES": "what is removed is named (\\n and \\r\\n); other white space stays",
    "PROF-CONFIG-BINDING-PROFILE-EXACT": "nothing is trimmed",
}
CHARACTER_LIST = re.compile(r"U\+00A0.*U\+2028")


def _statement(cid: str) -> str:
    return " ".join(CAT.clauses[cid].statement.split())


def test_every_clause_saying_white_space_or_blank_defines_it_or_names_the_clause_that_does():
    using = {cid for cid in CAT.clauses if WORDS.search(_statement(cid))}
    undefined = sorted(cid for cid in using - DEFINING - set(NO_SET)
                       if not any(other in _statement(cid) for other in DEFINING))
    assert undefined == []
    assert sorted(cid for cid in DEFINING if not CHARACTER_LIST.search(_statement(cid))) == []
    assert sorted(set(NO_SET) - using) == []  # an exemption that no longer applies goes


JS = "\t\n\v\f\r \u00a0\ufeff\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f\u3000\u2028\u2029"
# Every character either Python's str.strip() or JavaScript's trim removes.
ALL = "".join(chr(i) for i in range(sys.maxunicode + 1) if chr(i).isspace() or chr(i) in JS)


def _listed(cid: str) -> str:
    """The characters the clause's statement lists (the ranges written out)."""
    text = _statement(cid)
    names = {"tab": "\t", "LF": "\n", "VT": "\v", "FF": "\f", "CR": "\r", "space": " "}
    found = {ch for word, ch in names.items() if re.search(rf"\b{word}\b", text)}
    listed = text.split("not U+", 1)[0]
    for start, end in re.findall(r"U\+([0-9A-F]{4})(?:\.\.U\+([0-9A-F]{4}))?", listed):
        found |= {chr(i) for i in range(int(start, 16), int(end or start, 16) + 1)}
    return "".join(sorted(found))


@pytest.mark.parametrize("cid", sorted(DEFINING))
def test_each_clause_lists_javascripts_white_space(cid):
    assert _listed(cid) == "".join(sorted(JS))


def test_the_reference_strips_exactly_the_listed_characters():
    from reference.envelope.contributions import js_trim as envelope_trim
    from reference.errors import SpecError
    from reference.pi.core.sources import parse_source
    from reference.pi.core.templates import js_trim as template_trim
    from reference.pi.core.values import CommandResult, run_config_command
    from reference.profiles.core.picker import filter_items
    from reference.profiles.core.settings import parse_setting
    from reference.text import js_trim

    def strips(trim) -> str:
        return "".join(ch for ch in ALL if trim(f"{ch}x{ch}") == "x")

    def source_strips(ch: str) -> bool:
        try:
            parse_source(ch, "/work")
        except SpecError:
            return True
        return False

    def setting_strips(ch: str) -> bool:
        try:
            return parse_setting("selection", f"{ch}off{ch}", "global") == ("selection", "off")
        except SpecError:
            return False

    def command_strips(ch: str) -> bool:
        return run_config_command("printf", {}, lambda *_: CommandResult(0, f"{ch}x{ch}")) == "x"

    assert strips(js_trim) == strips(envelope_trim) == strips(template_trim) == "".join(sorted(JS))
    assert "".join(ch for ch in ALL if source_strips(ch)) == "".join(sorted(JS))
    assert "".join(ch for ch in ALL if command_strips(ch)) == "".join(sorted(JS))
    assert "".join(ch for ch in ALL if filter_items(["a", "b"], ch) == ["a", "b"]) == "".join(sorted(JS))
    assert "".join(ch for ch in ALL if setting_strips(ch)) == "".join(sorted(JS))


# A trim with Python's set where the published implementation trims with JavaScript's is the fault
# the clauses above fixed; the reference (and its adapter) trims with reference.text.js_trim, except where the text
# trimmed is YAML's and YAML's own rule applies.
PYTHON_TRIM = re.compile(r"\.(strip|lstrip|rstrip)\(\)")
YAML_OWN = {"reference/pi/core/templates.py": 'not before[:-1].strip()'}


def test_the_reference_trims_only_with_javascripts_set():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    found = []
    for path in sorted([*(root / "reference").rglob("*.py"), *(root / "conformance/adapters/reference").glob("*.py")]):
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if PYTHON_TRIM.search(code) and not ('"""' in line or "``" in line) and YAML_OWN.get(rel, "\0") not in line:
                found.append(f"{rel}:{number}: {line.strip()}")
    assert found == []

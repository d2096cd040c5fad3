"""The README and the guides under docs/: the README stays short and plain, every link among them
leads to a file, and docs/cli.md is what the parser prints (:mod:`conformance.commands.cli_reference`)."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

from conformance.commands.cli_reference import reference

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def _prose(text: str) -> str:
    """The text without code blocks, tables and HTML comments."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))


def _sentences(text: str) -> list[str]:
    flat = re.sub(r"\s+", " ", _prose(text).replace("\n- ", "\n\n")).strip()
    parts = re.split(r"(?<=[.:;!?])\s+(?=[A-Z`\[*])|\n\n|^#+ ", flat)
    return [p for p in parts if len(p.split()) > 1]


def test_the_cli_reference_is_what_the_parser_prints():
    assert (DOCS / "cli.md").read_text(encoding="utf-8") == reference(), \
        "docs/cli.md is stale: python -m conformance.commands.cli_reference > docs/cli.md"


def test_the_reference_names_every_subcommand_with_its_own_options():
    page = reference()
    for command, option in [("run", "--report-md"), ("diff", "--examples"), ("faults", "--via"),
                            ("history", "--jobs"), ("invariants", "--examples"), ("smoke", "--locales")]:
        section = page.split(f"## `pi-conformance {command}`", 1)[1].split("\n## ", 1)[0]
        assert option in section, (command, option)


def test_the_readme_is_short_and_plain():
    text = README.read_text(encoding="utf-8")
    assert len(_prose(text).split()) <= 1500
    lengths = [len(s.split()) for s in _sentences(text)]
    assert statistics.median(lengths) <= 20, statistics.median(lengths)
    assert not re.search(r"\b(at|commit) [0-9a-f]{7,40}\b", text), "a commit hash in the README"


def test_the_readme_opens_with_the_two_commands_ci_runs():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", text, re.S)[:2]
    assert blocks[0].startswith("python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/pi-conformance run")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for step in blocks[1].split(" && ")[1:]:
        assert step.replace("'.[test]'", "").split()[0] in ci, step
    assert text.index("## Test your implementation") < text.index("## Results") < text.index("## Guides")


def test_every_relative_link_of_the_readme_and_the_guides_leads_to_a_file():
    pages = [README, *sorted(DOCS.glob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []
    guides = set(re.findall(r"\]\(docs/([\w-]+\.md)\)", README.read_text(encoding="utf-8")))
    assert guides == {p.name for p in DOCS.glob("*.md")} - {"README.md"}


def test_the_profiles_guide_lists_every_diagnostic_the_reference_gives_with_its_level():
    table = dict(re.findall(r"^\| ([a-z-]+)(?: \([^)]*\))? \| (error|warn|info) \|",
                            (DOCS / "profiles.md").read_text(encoding="utf-8"), re.M))
    given = set()
    for path in (ROOT / "reference" / "profiles").rglob("*.py"):
        given |= set(re.findall(r'"(error|warn|info)",\s*"([a-z][a-z-]+)"', path.read_text(encoding="utf-8")))
    given = {(level, code) for level, code in given if code not in {"error", "warn", "info"}}
    assert len(given) > 30
    assert {(level, code) for level, code in given if table.get(code) != level} == set()


def test_the_operation_guides_describe_every_session_step():
    from typing import get_args

    from conformance.operations.envelope_session import STEP_MODELS
    from conformance.operations.profiles import Step

    envelope = (DOCS / "envelope.md").read_text(encoding="utf-8")
    profiles = (DOCS / "profiles.md").read_text(encoding="utf-8")
    assert [kind for kind in STEP_MODELS if f"`{kind}: " not in envelope] == []
    kinds = get_args(Step.model_fields["do"].annotation)
    assert len(kinds) > 10
    assert [kind for kind in kinds if not re.search(rf"`{kind} \{{", profiles)] == []


def test_the_readme_adapter_passes_smoke_and_runs_as_the_readme_shows(tmp_path, monkeypatch, capsys):
    """The README's adapter, commands and output, as a newcomer copies them (numbers aside: the
    suite grows)."""
    from conformance.cli import main

    text = README.read_text(encoding="utf-8")
    section = text.split("## Test your implementation", 1)[1].split("\n## ", 1)[0]
    (tmp_path / "my_impl.py").write_text(re.search(r"```python\n(.*?)```", section, re.S).group(1), encoding="utf-8")
    commands = re.search(r"```sh\n(pi-conformance smoke.*?)```", section, re.S).group(1).splitlines()
    shown = re.search(r"```text\n(.*?)```", section, re.S).group(1).splitlines()
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert [main(line.split()[1:]) for line in commands] == [0, 0]
    printed = {re.sub(r"\d+", "N", line) for line in capsys.readouterr().out.splitlines()}
    assert [line for line in shown if line != "..." and re.sub(r"\d+", "N", line) not in printed] == []
    assert (tmp_path / "reports" / "my.md").is_file()


def test_every_file_of_the_tree_the_readme_and_the_guides_name_exists():
    pages = [README, *sorted(DOCS.glob("*.md"))]
    named = {(page.name, path) for page in pages
             for path in re.findall(r"`((?:conformance|reference|tests|benchmarks)/[\w/.-]+\.(?:py|md|yaml|mjs|txt))`",
                                    page.read_text(encoding="utf-8"))}
    assert len(named) > 20
    assert sorted((page, path) for page, path in named if not (ROOT / path).exists()) == []


def test_the_help_and_the_running_guide_name_the_same_exit_codes():
    """``--help``'s epilog and docs/running.md's table of ``run``'s exit codes agree (the epilog
    once left out 129, SIGHUP)."""
    import re

    from conformance.commands.parser import EPILOG

    table = (DOCS / "running.md").read_text(encoding="utf-8").split("| code | `run` |", 1)[1].split("\n\n", 1)[0]
    in_table = {int(n) for row in table.splitlines()[2:] for n in re.findall(r"\d+", row.split("|")[1])}
    assert {int(n) for n in re.findall(r"\b\d+\b", EPILOG)} == in_table


SMOKE_WORDS = {"handshake": "handshake", "operations": "operation", "echo": "`kit.echo`",
               "repeat": "repeated request", "malformed": "malformed", "stop": "stop", "locales": "locales"}
"""How the README names each of ``smoke``'s checks."""


def test_the_readme_says_which_smoke_checks_a_python_adapter_gets():
    """The README's sentence on what ``smoke`` checks names exactly the checks that run for the
    README's ``python:`` adapter (it once promised the stop, which only a process can show), and
    the next sentences name the others."""
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.adapters.smoke import smoke
    from tests.kit_fixtures import Echo

    checks = smoke(InProcessAdapter(Echo()))
    ran = {c.name for c in checks if not c.detail.startswith("not applicable")}
    text = README.read_text(encoding="utf-8")
    paragraph = text[text.index("`smoke` checks"):].split("\n\n", 1)[0].replace("\n", " ")
    first, rest = paragraph.split(". ", 1)
    assert {name for name, words in SMOKE_WORDS.items() if words in first} == ran
    assert {name for name, words in SMOKE_WORDS.items() if words in rest} >= set(SMOKE_WORDS) - ran



def test_diffs_help_names_no_default_adapter(capsys):
    # it said 'reference (default)', while diff without --adapter is a usage error
    from conformance.cli import main

    section = reference().split("## `pi-conformance diff`", 1)[1].split("\n## ", 1)[0]
    adapter = section.split("  --adapter ADAPTER", 1)[1].split("--adapter-env", 1)[0]
    assert "(default)" not in adapter and "there is no default" in adapter, adapter
    assert main(["diff"]) == 2 and "give --adapter exactly twice" in capsys.readouterr().err


def _options_by_visibility() -> tuple[set[str], set[str]]:
    """The options of every command of the parser: those ``--help`` shows, and those it hides
    (``argparse.SUPPRESS``) in every command that has them."""
    import argparse

    from conformance.cli import parser

    top = parser()
    (sub,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    shown, hidden = set(), set()
    for name, sp in sub.choices.items():
        fill = sub.deferred.pop(name, None)
        if fill is not None:
            fill(sp)
        for action in sp._actions:
            (hidden if action.help == argparse.SUPPRESS else shown).update(
                o for o in action.option_strings if o.startswith("--"))
    return shown, hidden - shown


def test_no_guide_names_an_option_that_help_hides():
    """An option the README or a guide tells a user of is one ``--help`` (and docs/cli.md) shows;
    hidden options are the kit's tests' own."""
    shown, hidden = _options_by_visibility()
    assert "--case" in shown, "the parser was read"
    pages = [README, *sorted(DOCS.glob("*.md")), *sorted((ROOT / "conformance").glob("*.md"))]
    named = {(page.name, flag) for page in pages
             for flag in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", page.read_text(encoding="utf-8")) if flag in hidden}
    assert sorted(named) == []

"""Strategies of the pi area's inputs: templates (PI-DECISION-TEMPLATES), ``models.json`` values
(PI-DECISION-MODELS) and package sources (PI-DECISION-PACKAGES); the message operations' are in
:mod:`conformance.strategies.messages`. Each builds texts from the pieces the rules distinguish
(placeholder forms and near misses, quoting forms, value interpolations), so that examples reach
the branches, not just valid JSON."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from conformance.strategies.registry import drawn_number, frames, strategy

# --- templates (PI-DECISION-TEMPLATES) -----------------------------------------------------------------------------

NUMBERS = ("0", "1", "2", "10")


def placeholder(pick: random.Random) -> str:
    """One placeholder of every form of the substitution table (PI-TPL-SUB-*), with the numbers
    0, 1, 2 and 10: ``$N``, ``$@``, ``$ARGUMENTS``, ``${N:-default}`` (and of ``@`` and
    ``ARGUMENTS``), ``${@:N}`` and ``${@:N:L}``."""
    form = pick.randrange(4)
    if form == 0:
        return "$" + pick.choice(NUMBERS)
    if form == 1:
        return pick.choice(("$@", "$ARGUMENTS"))
    if form == 2:
        return "${%s:-%s}" % (pick.choice(NUMBERS + ("@", "ARGUMENTS")), pick.choice(("", "d", "$1", "a b")))
    return "${@:%s%s}" % (pick.choice(NUMBERS), pick.choice(("", ":0", ":1", ":2")))


NEAR_MISSES = ("$", "$$1", "\\$1", "${1", "${1:-", "${@:", "${@:x}", "${@:1:}", "$ARGUMENT", "$arguments",
               "${}", "${1}", "${ARGUMENTS}", "${1:-$2}", "${1:-${2}}", "$1$2", "$-1", "$1a", "${ 1:-d}")
"""Texts that look like placeholders but are not, or nest one in another: braced without a
default, unterminated, escaped, doubled."""

_PLAIN = ("a", "b c", "x\n", " ", "}", ":-", "{", "é", "\U0001F600", "e\u0301")


def template_text(pick: random.Random) -> str:
    """A template's content built from placeholders, near misses and plain text."""
    pieces = (placeholder, lambda p: p.choice(NEAR_MISSES), lambda p: p.choice(_PLAIN))
    return "".join(pick.choice(pieces)(pick) for _ in range(pick.randrange(7)))


ARG_PIECES = ("a", "bc", "$1", "$@", "${1:-x}", "é", "", " ", "a b", "\U0001F600", "e\u0301")


def arg_values(pick: random.Random) -> list[str]:
    """Arguments to substitute: none, one empty, and lists including ones that look like
    placeholders (never re-substituted), characters beyond the Basic Multilingual Plane and
    combining marks."""
    if pick.randrange(3) == 0:
        return pick.choice(([], [""]))
    return [pick.choice(ARG_PIECES) for _ in range(pick.randint(1, 4))]


QUOTING = ('"a b"', "'a b'", '""', "''", '"open', "'open", '\\"', "a\"b\"c", "a'b'c", '"it\'s"', "'say \"hi\"'",
           "\\", "$1", "x", "\U0001F600", "e\u0301")
SEPARATORS = (" ", "  ", "\t", "\n", "\u00a0", "\u3000", "")
JS_ONLY_SEPARATORS = ("\ufeff", "\u2028", "\u1680")
"""Characters of JavaScript's ``\\s`` that other languages' white space leaves out."""
NOT_SEPARATORS = ("\u001c", "\u0085", "\u200b")
"""Characters other languages call white space that JavaScript's ``\\s`` does not (PI-TPL-ARGS-SPLIT)."""


def argument_text(pick: random.Random) -> str:
    """An argument text with every quoting form (double, single, empty, unterminated, escaped,
    adjacent) and JavaScript's whitespace characters as separators."""
    return "".join(pick.choice(QUOTING) + pick.choice(SEPARATORS) for _ in range(pick.randrange(6)))


def split_text(pick: random.Random) -> str:
    """An argument text whose separators are the characters where JavaScript's ``\\s`` and
    other languages' white space part (PI-TPL-ARGS-SPLIT)."""
    separators = JS_ONLY_SEPARATORS + NOT_SEPARATORS + (" ", "  ")
    return "".join(pick.choice(QUOTING) + pick.choice(separators) for _ in range(pick.randint(2, 4)))


@strategy("pi.parse-args")
def parse_args() -> Any:
    """Examples ``(input, tree)`` of ``pi.parse-args`` (see the module docstring)."""
    def build(k: int) -> tuple[dict, None]:
        pick = random.Random(k)
        form = pick.randrange(5)
        text = pick.choice(("", " ", "\t\n\u00a0")) if form == 0 else split_text(pick) if form == 1 else argument_text(pick)
        return {"text": text}, None

    return drawn_number().map(build)


BACKSLASH_RUNS = ('"a\\\\b" "a\\\\\\\\b" "2\\\\" x" "3\\\\\\" x" "a\\\\\'b"',
                  "'a\\\\b' '2\\\\' x' '4\\\\\\\\' x' 'a\\\\\"b'",
                  'a\\\\b \\\\\\ x\\\\"y" "a\\\\" \'b\\\\\'')
"""Argument texts with runs of two to four backslashes inside double and single quotes (between
letters, before the open quote's character, before the other one), outside quotes, and before
the last quote (PI-TPL-ARGS-ESCAPE)."""


@frames("pi.parse-args")
def parse_args_frames() -> list[tuple[dict, None]]:
    """Each text of :data:`BACKSLASH_RUNS`."""
    return [({"text": text}, None) for text in BACKSLASH_RUNS]


@strategy("pi.substitute-args")
def substitute_args() -> Any:
    """Examples ``(input, tree)`` of ``pi.substitute-args`` (see the module docstring)."""
    def build(k: int) -> tuple[dict, None]:
        pick = random.Random(k)
        return {"content": template_text(pick), "args": arg_values(pick)}, None

    return drawn_number().map(build)


@frames("pi.substitute-args")
def substitute_args_frames() -> list[tuple[dict, None]]:
    """Every placeholder form of the substitution table and near misses in one template, with
    no arguments, one empty argument, and arguments of every kind: an empty one among others, one
    holding placeholder text, fewer than a positional placeholder asks for, every character class."""
    every = ("$1 $0 $10 $@ $ARGUMENTS ${2:-d} ${@:-all} ${ARGUMENTS:-} ${1:-$2} ${@:1} ${@:2:1} ${@:0} "
             "${1} ${@:x} $arguments")
    return [({"content": every, "args": args}, None)
            for args in ([], [""], ["a", "", "caf\u00e9 \U0001F600", "e\u0301", "$1"])]


NAMES = ("t", "a-b", "T", "review", "x.y", "\u00e9", "e\u0301", "\U0001F600")


EXPAND_SALT = 1
"""Added to the drawn number before it seeds the forms of a ``pi.expand-input`` example: the first
offset whose 20 derandomized examples (diff's default budget) reach every declared class of the
operation (``tests/test_partitions.py`` fails when a change loses one)."""


@strategy("pi.expand-input")
def expand_input() -> Any:
    """Examples ``(input, tree)`` of ``pi.expand-input``: every command form (a name alone, with
    arguments after a space, a tab or a newline, leading whitespace, a lone ``/``, no ``/``),
    templates named once, twice or not at all, with and without placeholders, and extension
    commands of a template's name or none."""
    def build(k: int) -> tuple[dict, None]:
        # The whole example follows from one drawn number, so no two examples share their forms
        # (hypothesis never draws the same number twice, while it does redraw the same forms when
        # they are drawn one by one): the name, the command form, the separator, how many
        # templates have the name and the extension commands are picked afresh for each number.
        pick = random.Random(k + EXPAND_SALT)
        name = pick.choice(NAMES + ("nope",))
        head = pick.choice(("/", "/", "/", "/", " /", "\t/", "", "//", "/ "))
        sep = pick.choice(("", " ", " ", "\t", "\n", "\u00a0", "\u3000"))
        named = pick.choice((0, 0, 1, 2, 2))  # templates of the name: none, one, two
        others = pick.sample(NAMES + (name.swapcase(),), pick.randrange(3))
        args = "".join(pick.choice(QUOTING) + pick.choice(SEPARATORS) for _ in range(pick.randrange(4)))
        text = head + name + (sep + args if sep else "")
        contents = ("plain text", "", "no placeholder here", "$1 and $@", "${1:-d} ${@:2}", "$ARGUMENTS")
        templates = [{"name": n, "content": pick.choice(contents)}
                     for n in [name] * min(named, 1) + others + [name] * (named - 1)]
        data: dict = {"text": text, "templates": templates}
        commands = pick.choice(([], [name], [name], others[:1], [name, *others[:1]]))
        if commands:
            data["extensionCommands"] = list(dict.fromkeys(commands))
        return data, None

    return drawn_number().map(build)


DESCRIPTION_LINES = ("short", "x" * 59, "y" * 60, "z" * 61, "w" * 62, "  padded  ", "\u00e9" * 61, "# Title",
                     "\U0001F680" * 61, "e\u0301" * 31, "   ")
FRONTMATTER = ("", "---\ndescription: Given\n---\n", "---\nargument-hint: <file>\n---\n",
               "---\ndescription: 12\n---\n", "---\ndescription: [\n---\n", "---\n---\n",
               "---\ndescription: a\n", "---\r\ndescription: crlf\r\n---\r\n",
               "---\ndescription: \"\"\nargument-hint: null\n---\n", "---\ndescription: 2024-01-01\n---\n",
               "---\ndescription: a\ndescription: b\n---\n", "---\ndescription:\tTabbed\n---\n",
               "---\ndescription: After\n--- trailing\n", "---\nargument-hint: [a, b]\n---\n",
               "---\ndescription: 1_000\nargument-hint: yes\n---\n")
BOMS = ("", "", "\ufeff")
LINE_ENDS = ("\n", "\n", "\r\n", "\r")
TEMPLATE_FILES = ("t.md", "a-b.md", "T.md", "notes.txt", "UP.MD", "sub/deep.md", ".hidden.md", "\u00e9.md",
                  "e\u0301.md", "\U0001F600.md", "link.md", "broken.md", "latin.md")
"""File names of a templates folder: ``.md`` children and others, names differing only in case,
beyond ASCII, links (``link.md`` to ``t.md``, ``broken.md`` to nothing) and a file that is not UTF-8."""


EXPLICIT_PATHS = ("extra", "./extra", "extra/", "extra/t.md", "missing.md", "./missing.md", "extra/notes.txt",
                  "../project/extra", "extra/sub/../t.md", "gone/../missing.md")
"""Explicit template paths: a folder in three spellings, a ``.md`` file, a file that is not, missing,
and a file and a missing path through ``..``."""
SETTINGS_PROMPTS = ("prompts", "!t.md", "+prompts/t.md", "-prompts/T.md", "prompts/**/*.md")
"""A settings ``prompts`` list's entry forms: a folder, ``!``, ``+``, ``-`` and a glob."""


LOAD_SALT = 4
"""Added to the drawn number before it seeds a ``pi.load-templates`` example (see :data:`EXPAND_SALT`)."""


@strategy("pi.load-templates")
def load_templates() -> Any:
    """Template folders: personal (``agent/prompts``), project (``project/.pi/prompts``) and an
    explicit folder, with colliding names, names differing only in case and beyond ASCII, links
    and broken links, frontmatter forms (valid, invalid, duplicate keys, unterminated, CRLF,
    schema strings, tabs), byte-order marks, lone CRs and bytes that are not UTF-8, description
    lines around the 60-code-point limit, nested folders and files that are not ``.md``; explicit
    paths in every spelling and settings lists of every entry form."""
    folders = ("agent/prompts/", "project/.pi/prompts/", "project/extra/")

    def body(k: int, n: int) -> str:
        # File n of an example drawn with k: consecutive files take consecutive forms, so that
        # one example holds many frontmatter forms and description lines, not one drawn again.
        return "".join((BOMS[(k + n // 5) % len(BOMS)], FRONTMATTER[(k + n) % len(FRONTMATTER)],
                        ("", "\n", "\n\n")[(k + n // 3) % 3],
                        DESCRIPTION_LINES[(k // 7 + 5 * n) % len(DESCRIPTION_LINES)],
                        LINE_ENDS[(k + n // 2) % len(LINE_ENDS)], ("", "body $1", "  ")[(k // 3 + n) % 3]))

    def entry(k: int, n: int, name: str) -> Any:
        if name == "link.md":
            return {"symlink": "t.md"}
        if name == "broken.md":
            return {"symlink": "gone.md"}
        if name == "latin.md":
            return {"base64": "Y2Fm6QpCb2R5Cg=="}  # "caf\xe9\nBody\n": Latin-1, not UTF-8
        return body(k, n)

    def build(k: int) -> tuple[dict, dict]:
        # The whole example follows from one drawn number (see expand_input): no two examples
        # share their forms, and diff shrinks a disagreeing tree file by file on its own.
        pick = random.Random(k + LOAD_SALT)
        if pick.randrange(5) == 0:  # ASCII only, with a first line one short of the limit
            tree = {folder + name: pick.choice(("x" * 59 + "\n", "y" * 60 + "\n", "Plain $1\n", "---\ndescription: d\n---\nbody\n"))
                    for folder in folders for name in pick.sample(("t.md", "a-b.md", "notes.txt"), pick.randrange(3))}
        else:
            names = [folder + name for folder in folders for name in pick.sample(TEMPLATE_FILES, pick.randrange(7))]
            tree = {path: entry(k, n, path.rsplit("/", 1)[1]) for n, path in enumerate(names)}
        if tree:
            tree.update({"project/extra/notes.txt": "not a template", "project/extra/t.md": body(k, 0)})
        data: dict = {"agentDir": "agent", "cwd": "project", "projectTrusted": pick.random() < 0.5}
        paths = pick.choices(EXPLICIT_PATHS, k=pick.randrange(4))
        if k % 4 == 1:  # one file and one missing path named again through ".." (taking nothing from pick)
            paths += ["extra/t.md", "extra/sub/../t.md", "missing.md", "gone/../missing.md"]
        if paths:
            data["paths"] = paths
        if pick.randrange(4) == 0:
            data["defaultFolders"] = False
        for key in ("personalPrompts", "projectPrompts"):
            if pick.randrange(3) == 0:
                data[key] = pick.sample(SETTINGS_PROMPTS, pick.randrange(4))
        return data, tree or {"agent": {"dir": True}}

    return drawn_number().map(build)


TEXT_FIELD_SCALARS = ("7", "0x1F", "2.5", ".inf", "true", "FALSE", "~", "\"7\"", "'true'", "\"null\"")
"""Frontmatter values of each kind the core schema reads as no string (integers, floats,
booleans, null) and the same forms quoted, which are strings (PI-TPL-YAML-SCHEMA)."""


BLANK_FIELD_SCALARS = ('"  "', "'\t'", '"\\n"', '"\\u00a0"', "\u3000")
"""Frontmatter strings of white space only, quoted and plain: not empty, so kept as the
description and the argument hint (PI-TPL-DESCRIPTION, PI-TPL-ARGUMENT-HINT)."""


@frames("pi.load-templates")
def load_templates_frames() -> list[tuple[dict, dict]]:
    """One personal folder with a template per value of :data:`TEXT_FIELD_SCALARS`, given as its
    description and as its argument hint; another with one per value of :data:`BLANK_FIELD_SCALARS`."""
    tree = {f"agent/prompts/v{n}.md": f"---\ndescription: {value}\nargument-hint: {value}\n---\nBody {n}\n"
            for n, value in enumerate(TEXT_FIELD_SCALARS)}
    blank = {f"agent/prompts/w{n}.md": f"---\ndescription: {value}\nargument-hint: {value}\n---\nBody {n}\n"
             for n, value in enumerate(BLANK_FIELD_SCALARS)}
    return [({"agentDir": "agent", "cwd": "project"}, {**tree, "project": {"dir": True}}),
            ({"agentDir": "agent", "cwd": "project"}, {**blank, "project": {"dir": True}})]


# --- models.json values (PI-DECISION-MODELS) --------------------------------------------------------------------

VALUE_PIECES = ("$A", "${A}", "$B", "${B}", "$$", "$!", "$", "${", "${A", "${}", "$1", "$_x", "x", "-", "{A}", "!",
                "${A-B}", "MY_KEY", "caf\u00e9", "\U0001F511", "e\u0301", " ")
COMMANDS = ("!echo hi", "!printf ab", "!false", "!true", "!echo $A", "! echo spaced", "!", "!printf '  key \\n'",
            "!printf ' \\n\\t'", "!printf ''", "!echo partial; exit 3", "!printf 'caf\\351'", "!cat", "!read x; echo $x")
"""The only commands a generated value runs: harmless and quick (PI-MODELS-VALUE-COMMAND)."""

ENV_NAMES = ("A", "B", "_x", "MY_KEY")
ENV_VALUES = ("", "v", "$B", "a b", "caf\u00e9")


def models_value_input(pick: random.Random) -> dict:
    """A value built from the pieces PI-MODELS-VALUE-FORMS and -ESCAPES tell apart (or one of
    :data:`COMMANDS`) and an environment of some of its names, set, empty or missing."""
    if pick.randrange(4) == 0:
        value = pick.choice(COMMANDS)
    else:
        value = "".join(pick.choice(VALUE_PIECES) for _ in range(pick.randint(1, 5)))
        if value.startswith("!"):
            value = "$" + value
    env = {name: pick.choice(ENV_VALUES) for name in pick.sample(ENV_NAMES, pick.randrange(len(ENV_NAMES) + 1))}
    return {"value": value, "env": env}


env = st.dictionaries(st.sampled_from(ENV_NAMES), st.sampled_from(ENV_VALUES), max_size=3)
"""An environment of some of :data:`ENV_NAMES` (what the invariants draw)."""


@strategy("pi.models-value")
def models_value() -> Any:
    """Examples ``(input, tree)`` of ``pi.models-value``: :func:`models_value_input`."""
    return drawn_number().map(lambda k: (models_value_input(random.Random(k)), None))


@frames("pi.models-value")
def models_value_frames() -> list[tuple[dict, None]]:
    """Each form, escape and near miss, each state of a variable and each kind of command once."""
    inputs = (
        {"value": "MY_KEY", "env": {"MY_KEY": "secret"}},
        {"value": "", "env": {}},
        {"value": "Bearer $A.v1 and ${B}", "env": {"A": "a$B", "B": ""}},
        {"value": "$!x $$1 $ ${ ${A-B} ${}", "env": {"A": "v"}},
        {"value": "$A:$MISSING", "env": {"A": "caf\u00e9 \U0001F511 e\u0301"}},
        {"value": "!printf '  key \\n'", "env": {}},
        {"value": "!printf ' \\n\\t'", "env": {}},
        {"value": "!echo partial; exit 3", "env": {}},
        {"value": "!printf ''", "env": {}},
        {"value": "!printf '%s' '$A'", "env": {"A": "v"}},
        {"value": "!printf 'caf\\351'", "env": {}},
        {"value": "!cat", "env": {}},
        {"value": "$TOK\u00c9N ${\u00c9} $\u00c9x $A\u0663", "env": {"TOK": "t", "TOK\u00c9N": "no", "\u00c9": "no", "A": "a", "A\u0663": "no"}},
    )
    return [(dict(i), None) for i in inputs]


# --- package sources (PI-DECISION-PACKAGES) -----------------------------------------------------------------------

NPM_NAMES = ("pkg", "@scope/pkg", "a-b.c_d", "PKG", "caf\u00e9", "", "@scope", "a b", "@scope/pkg/extra")
NPM_VERSIONS = ("", "@1.2.3", "@1.2.3-beta.1", "@^2", "@~1.0", "@>=1", "@1.x", "@1", "@latest", "@next", "@")
GIT_HOSTS = ("github.com", "gitlab.example.org", "localhost", "host")
GIT_PATHS = ("u/r", "u/r.git", "u/r/", "u/r.git/", "u", "u/r#v1", "group/sub/r", "u/\u00e9")
GIT_REFS = ("", "", "@v1", "@main", "@1.0.0")
URL_SCHEMES = ("https", "http", "ssh", "git", "ftp", "git+https")
URL_AUTHORITIES = ("{host}", "git@{host}", "{host}:2222", "user@{host}:8443")
LOCAL_PATHS = (".", "./local", "../up", "~", "~/pkgs/x", "/abs/path", "pkg", "local/dir", "github.com/u/r",
               "git@github.com:u/r.git", "C:\\pkg", "caf\u00e9/\U0001F600", "cafe\u0301")
HOME_FORMS = ("~pkgs", "~pkgs/tools", "~user/x", "pkgs/~/x", "~\\x", "~.pi/x")
"""Local sources holding ``~`` that PI-PKG-SOURCE-HOME leaves relative: a name after ``~``, ``~``
further in, ``~`` then a backslash."""
AROUND = ("", "", "", " ", "\t", "\n", "  ")


def package_source_text(pick: random.Random) -> str:
    """A source of one of the forms of PI-PKG-SOURCE-NPM, -GIT, -URL and -LOCAL, put together
    from its parts (names, versions, hosts, paths, refs, users and ports), refused forms among
    them, sometimes with white space around or only white space (PI-PKG-SOURCE-TRIM)."""
    form = pick.randrange(6)
    if form == 0:
        text = "npm:" + pick.choice(NPM_NAMES) + pick.choice(NPM_VERSIONS)
    elif form == 1:
        text = "git:" + pick.choice(GIT_HOSTS) + "/" + pick.choice(GIT_PATHS) + pick.choice(GIT_REFS)
    elif form == 2:
        text = "git:git@" + pick.choice(GIT_HOSTS) + ":" + pick.choice(GIT_PATHS) + pick.choice(GIT_REFS)
    elif form == 3:
        authority = pick.choice(URL_AUTHORITIES).format(host=pick.choice(GIT_HOSTS))
        text = (pick.choice(("", "", "git:")) + pick.choice(URL_SCHEMES) + "://" + authority
                + pick.choice(("", "/")) + pick.choice(GIT_PATHS + ("",)) + pick.choice(GIT_REFS))
    elif form == 4:
        text = pick.choice(LOCAL_PATHS + HOME_FORMS)
    else:
        text = pick.choice(("", "npm:", "git:", "git:github.com", "https://", "ftp://host/x"))
    if pick.randrange(12) == 0:
        return pick.choice(AROUND[3:]) * pick.randint(1, 2)
    return pick.choice(AROUND) + text + pick.choice(AROUND)


def _source_input(source: str, scope: str, home: bool) -> dict:
    data: dict = {"source": source, "scope": scope}
    # A `~` source without `home` resolves against the implementation's own home, which no two
    # processes share (each adapter has a scratch home): the input always says it then.
    if home or source.strip().startswith("~"):
        data["home"] = "/home/user"
    return data


@strategy("pi.package-source")
def package_source() -> Any:
    """Examples ``(input, tree)`` of ``pi.package-source``: a source of every form
    (:func:`package_source_text`) in either scope, with or without a home."""
    def build(k: int) -> tuple[dict, None]:
        pick = random.Random(k)
        return _source_input(package_source_text(pick), pick.choice(("user", "project")), pick.random() < 0.5), None

    return drawn_number().map(build)


@frames("pi.package-source")
def package_source_frames() -> list[tuple[dict, None]]:
    """One source of each form and part of PI-PKG-SOURCE-*, the refused ones included, npm
    versions that are and are not valid semantic versions among them, in both
    scopes and with and without a home; and with a home, each form of :data:`HOME_FORMS` and
    white space around ``~/``."""
    sources = ("npm:@scope/pkg@1.2.3", "npm:pkg@latest", "npm:caf\u00e9@^2", "npm:@scope", "npm:a b",
               "git:localhost/u/r@v1", "git:git@github.com:u/r.git@v2", "git:https://github.com/u/r",
               "git:github.com/u/r.git/@v1", "git:u/r", "git:github.com/u", "git:github.com/u/r#v1",
               "http://host.example.org/u/r", "ssh://git@host.example.org:2222/u/r.git", "git://host.example.org/u/r",
               "ftp://host.example.org/u/r", "https://github.com/u/r/",
               "~", "~/pkgs/x", "/abs/path", "github.com/u/r", "git@github.com:u/r", "C:\\pkg",
               "caf\u00e9/\U0001F600", "cafe\u0301", "", " \t", " npm:pkg ", "./local", "pkg",
               "npm:pkg@01.2.3", "npm:pkg@1.2.03", "npm:pkg@1.0.0-01", "npm:pkg@v1.2.3", "npm:pkg@=1.2.3",
               "npm:pkg@1.2.3+build.007", "npm:pkg@1.2")
    homed = [(_source_input(source, ("project", "user")[n % 2], True), None) for n, source in enumerate(HOME_FORMS + (" ~/x\t",))]
    return [(_source_input(source, ("user", "project")[n % 2], n % 3 == 0), None) for n, source in enumerate(sources)] + homed

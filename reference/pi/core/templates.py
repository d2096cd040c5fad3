"""Prompt templates (Pi's docs "Prompt Templates", PI-DECISION-TEMPLATES): every rule that needs no
file system (frontmatter, description, argument parsing, substitution, the expansion of ``/name
args`` input), following Pi's published implementation exactly. Reading the directories is
:mod:`reference.pi.host.disk`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.nodes import ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.scanner import Scanner, ScannerError

from reference.errors import SpecError
from reference.text import JS_WHITESPACE, js_trim

#: "Whitespace" in this module is JavaScript's (what ``\s`` and ``trim`` use), as Pi's published
#: implementation has it (PI-DECISION-TEMPLATES), including where it is not POSIX-like.
_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_NON_WS = "[^" + re.escape(JS_WHITESPACE) + "]"

#: How much of the first body line a fallback description keeps (PI-TPL-DESCRIPTION-FALLBACK).
DESCRIPTION_LIMIT = 60


# ---------------------------------------------------------------------------------------------
# Frontmatter
# ---------------------------------------------------------------------------------------------

_CORE_SCHEMA = [
    ("tag:yaml.org,2002:null", re.compile(r"(?:~|null|Null|NULL|)\Z")),
    ("tag:yaml.org,2002:bool", re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")),
    ("tag:yaml.org,2002:int", re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")),
    (
        "tag:yaml.org,2002:float",
        re.compile(
            r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)\Z"
        ),
    ),
]


class _CoreSchemaResolver(VersionedResolver):
    """Resolves plain scalars by the YAML 1.2 *core* schema only (null, bool, int, float; every
    other plain scalar is a string), so ``2024-01-01`` or ``1_000`` stay strings.
    Implements PI-TPL-YAML-SCHEMA."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is ScalarNode and implicit[0]:
            from ruamel.yaml.tag import Tag

            for tag, pattern in _CORE_SCHEMA:
                if pattern.match(value):
                    return Tag(suffix=tag)
            return self.DEFAULT_SCALAR_TAG
        return super().resolve(kind, value, implicit)


class _TolerantConstructor(SafeConstructor):
    """Builds the safe types; a node with a tag it does not know is read as if it had no tag
    (a scalar as a string), the way YAML processors treat an unresolved tag as a warning.
    Implements the unknown-tag part of PI-TPL-YAML-SCHEMA."""

    def construct_untagged(self, node: Any) -> Any:
        """The node's value as if it had no tag."""
        if isinstance(node, ScalarNode):
            return self.construct_scalar(node)
        if isinstance(node, SequenceNode):
            return self.construct_sequence(node, deep=True)
        return self.construct_mapping(node, deep=True)


_TolerantConstructor.add_constructor(None, _TolerantConstructor.construct_untagged)


#: A block mapping key: a colon followed by whitespace or the end of the line.
_MAPPING_KEY = re.compile(r":(?:[ \t]|$)")
#: What may follow a tab that ends a plain scalar in a flow collection on its line without the
#: scalar going on: a flow indicator that closes or separates an entry, a comment, or a ``:``
#: value indicator. Anything else, the end of the line included (the scalar may go on below),
#: is read again with the tab taken for what it is (:func:`_tab_role`).
_FLOW_SCALAR_END = re.compile(r"[ \t]*(?:[,\]}#]|:(?:[ \t,\]}]|$))")


class _FlowTab(ScannerError):
    """A tab inside a plain scalar of a flow collection, where the parser would end the scalar."""


class _TabScanner(Scanner):
    """The parser's scanner, stopping at a tab that it would otherwise take as the end of a plain
    scalar inside a flow collection (``{description: a<TAB>b}``): there it skips the tab as
    separation and reads ``b`` as a second scalar, so the YAML looks invalid. Raising
    :class:`_FlowTab` at the tab lets :func:`_load_yaml` carry it through as content
    (PI-TPL-YAML-SCHEMA)."""

    def scan_plain(self) -> Any:
        token = super().scan_plain()
        if self.flow_level and self.reader.peek() == "\t":
            buffer, at = self.reader.buffer, self.reader.pointer
            end = buffer.find("\n", at)
            rest = buffer[at : len(buffer) if end == -1 else end].rstrip("\0")
            if not _FLOW_SCALAR_END.match(rest):
                raise _FlowTab("while scanning a plain scalar", token.start_mark,
                               "found a tab inside it", self.reader.get_mark())
        return token


def _tab_role(text: str, index: int, *, flow: bool = False) -> str:
    """What the tab at ``index`` is in YAML 1.2 terms, judged from its line; ``flow``: the tab is
    inside a flow collection (:class:`_FlowTab`), where a line may start with tabs.

    - ``"indent"``: outside a flow collection, only whitespace before it and content after it,
      or it follows a ``-`` or ``?`` that opens a block mapping (tabs may not indent);
    - ``"separation"``: only whitespace or a comment after it; inside a flow collection, only
      whitespace before it; or it follows an indicator: ``:``, or ``-`` or ``?`` opening the
      line's content;
    - ``"content"``: between two characters of a plain scalar. The parser stops at a tab of its
      own accord only outside flow collections, so a ``,`` ``[`` or ``{`` before the tab there is
      a character of the scalar (``x, [<TAB>y``), not an indicator.
    """
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    before = text[start:index].rstrip(" \t")
    after = text[index + 1 : len(text) if end == -1 else end].lstrip(" \t")
    if not after or after.startswith("#"):
        return "separation"
    if not before:
        return "separation" if flow else "indent"
    if before[-1] == ":":
        return "separation"
    if before[-1] in "-?" and not before[:-1].strip():
        # A block mapping after "- " is indented by this tab, which YAML forbids.
        block_mapping = after[0] not in "[{\"'" and _MAPPING_KEY.search(after)
        return "indent" if block_mapping else "separation"
    return "content"


def _restore(value: Any, marker: str) -> Any:
    if isinstance(value, str):
        return value.replace(marker, "\t")
    if isinstance(value, list):
        return [_restore(v, marker) for v in value]
    if isinstance(value, dict):
        return {_restore(k, marker): _restore(v, marker) for k, v in value.items()}
    return value


def _load_yaml(text: str) -> Any:
    """Parse frontmatter YAML (PI-TPL-YAML-SCHEMA).

    The parser used refuses tabs that YAML 1.2 allows: as separation (``key:<TAB>value``, a
    trailing tab, a line holding only a tab) and inside plain scalars (``Fix<TAB>this``; in a
    flow collection it ends the scalar there, which :class:`_TabScanner` turns into a stop).
    Where its scanner stops at such a tab, a separating tab is read as a space and a tab inside
    a scalar is carried through as a marker character and put back afterwards; parsing then
    starts again. A tab that indents content stays an error, as YAML requires.

    Raises:
        YAMLError: the text is not valid YAML.
    """
    marker = next(chr(c) for c in range(0xE000, 0xF900) if chr(c) not in text)
    marked = False
    for _ in range(text.count("\t") + 1):
        yaml = YAML(typ="safe", pure=True)
        yaml.Resolver = _CoreSchemaResolver
        yaml.Constructor = _TolerantConstructor
        yaml.Scanner = _TabScanner
        try:
            loaded = yaml.load(text)
            return _restore(loaded, marker) if marked else loaded
        except ScannerError as exc:
            mark = exc.problem_mark
            at = mark.index if mark is not None else -1
            if not (0 <= at < len(text) and text[at] == "\t"):
                raise
            role = _tab_role(text, at, flow=isinstance(exc, _FlowTab))
            if role == "indent":
                raise
            marked = marked or role == "content"
            text = text[:at] + (" " if role == "separation" else marker) + text[at + 1 :]
    raise AssertionError("unreachable: every retry replaces one tab")  # pragma: no cover


def normalise_text(raw: str) -> str:
    """A template file's text with one leading BOM removed and ``\\r\\n`` and lone ``\\r`` made
    ``\\n``. Implements PI-TPL-NEWLINES."""
    if raw.startswith("\ufeff"):
        raw = raw[1:]
    return raw.replace("\r\n", "\n").replace("\r", "\n")


@dataclass
class Frontmatter:
    """A template file split into its parts.

    Attributes:
        fields: the frontmatter mapping (empty when there is none, or when the YAML is not a
            mapping).
        body: the text after the frontmatter.
        present: whether the file had a closed frontmatter block.
    """

    fields: dict[str, Any]
    body: str
    present: bool


def split_frontmatter(raw: str) -> Frontmatter:
    """Split a template file's text into frontmatter and body.

    After :func:`normalise_text`: the file has frontmatter when it starts with ``---`` and a
    later line starts with ``---`` (the first ``\\n---`` after position 3). The YAML text runs from
    position 4 to that line; the body is everything after the closing ``---`` with JavaScript
    whitespace trimmed from both ends. Without a closing line the whole text is the body,
    untrimmed. Implements PI-TPL-FRONTMATTER and PI-TPL-BODY-TRIM.

    Raises:
        SpecError: ``template-frontmatter-invalid`` when the YAML cannot be parsed
            (PI-TPL-YAML-ERROR).
    """
    text = normalise_text(raw)
    if not text.startswith("---"):
        return Frontmatter({}, text, False)
    end = text.find("\n---", 3)
    if end == -1:
        return Frontmatter({}, text, False)
    yaml_text = text[4:end]
    body = js_trim(text[end + 4 :])
    if not yaml_text:
        return Frontmatter({}, body, True)
    try:
        parsed = _load_yaml(yaml_text)
    except (YAMLError, ValueError, TypeError, RecursionError) as exc:
        # ValueError and TypeError: an explicit standard tag on a value it cannot hold (!!int x).
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise SpecError("template-frontmatter-invalid", f"frontmatter is not valid YAML: {problem}") from exc
    return Frontmatter(parsed if isinstance(parsed, dict) else {}, body, True)


def first_line_description(body: str) -> str:
    """The fallback description: the first line of ``body`` that is not blank, as written (not
    trimmed), cut to :data:`DESCRIPTION_LIMIT` characters with ``...`` appended when it was
    longer; empty when every line is blank.

    Characters are Unicode code points (PI-TPL-DESCRIPTION-CHARS). Implements
    PI-TPL-DESCRIPTION-FALLBACK.
    """
    for line in body.split("\n"):
        if js_trim(line):
            if len(line) > DESCRIPTION_LIMIT:
                return line[:DESCRIPTION_LIMIT] + "..."
            return line
    return ""


def frontmatter_string(fields: dict[str, Any], key: str) -> str | None:
    """``fields[key]`` when it is a non-empty string, else ``None``: a number, a list, ``null``
    or an empty string counts as absent. Implements PI-TPL-DESCRIPTION and PI-TPL-ARGUMENT-HINT."""
    value = fields.get(key)
    return value if isinstance(value, str) and value else None


@dataclass
class Template:
    """One prompt template.

    Attributes:
        name: the command name (the file name without ``.md``).
        description: shown in command completion.
        argumentHint: the frontmatter's ``argument-hint``, or ``None``.
        content: the body that arguments are substituted into.
        path: where it was loaded from (filled in by the loader).
        scope: ``"user"``, ``"project"`` or ``"temporary"`` (an explicit path; filled in by the
            loader).
    """

    name: str
    description: str
    argumentHint: str | None
    content: str
    path: str = ""
    scope: str = ""


def command_name(file_name: str) -> str:
    """The command name of a template file: its name without the final ``.md``.
    Implements PI-TPL-NAME."""
    return file_name[: -len(".md")] if file_name.endswith(".md") else file_name


def template_from_text(file_name: str, raw: str) -> Template:
    """Build a template from its file name and text.

    Raises:
        SpecError: ``template-frontmatter-invalid`` (the loader reports it and skips the file).
    """
    parts = split_frontmatter(raw)
    description = frontmatter_string(parts.fields, "description") or first_line_description(parts.body)
    return Template(
        name=command_name(file_name),
        description=description,
        argumentHint=frontmatter_string(parts.fields, "argument-hint"),
        content=parts.body,
    )


# ---------------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------------


def parse_command_args(text: str) -> list[str]:
    """Split a command's argument text into arguments, with Pi's quoting rules (PI-TPL-ARGS-QUOTE;
    PI-160-TPL-ARGS-QUOTING in the pi-1.6.0 edition).

    - Whitespace separates arguments (PI-TPL-ARGS-SPLIT).
    - A ``"`` or ``'`` opens a quote only at the start of an argument; inside a word it is an
      ordinary character (``it's`` stays one word). The quote closes at the next same
      character; text right after the closing quote continues the same argument
      (PI-TPL-ARGS-QUOTE).
    - Inside a quote, a backslash directly before the opening quote's character gives that
      character; every other backslash is kept (PI-TPL-ARGS-ESCAPE).
    - An empty quoted argument (``""``) is kept as an empty string (PI-TPL-ARGS-EMPTY).
    - A quote still open at the end is taken back: its quote character becomes literal text of
      the argument and the text after it is read again from outside any quote, by these same
      rules (PI-TPL-ARGS-UNTERMINATED).
    """
    args: list[str] = []
    current: list[str] = []
    started = False
    quote: str | None = None
    quote_at = 0
    last = len(text) - 1
    i = 0
    while i <= last:
        ch = text[i]
        if quote is not None:
            if ch == "\\" and i < last and text[i + 1] == quote:
                current.append(quote)
                i += 1
            elif ch == quote:
                quote = None
            else:
                current.append(ch)
        elif ch in "\"'" and not started:
            quote, quote_at, started = ch, i, True
        elif ch in JS_WHITESPACE:
            if started:
                args.append("".join(current))
                current, started = [], False
        else:
            current.append(ch)
            started = True
        if quote is not None and i == last:
            # Take the open quote back: re-read everything after it as unquoted text.
            current, quote, i = [text[quote_at]], None, quote_at
        i += 1
    if started:
        args.append("".join(current))
    return args


_PLACEHOLDER = re.compile(
    r"\$\{([0-9]+|ARGUMENTS|@):-([^}]*)\}"  # ${N:-default}, ${@:-default}, ${ARGUMENTS:-default}
    r"|\$\{@:([0-9]+)(?::([0-9]+))?\}"  # ${@:N}, ${@:N:L}
    r"|\$(ARGUMENTS|@|[0-9]+)"  # $N, $@, $ARGUMENTS
)


def _positional(args: list[str], number: str) -> str | None:
    """Argument ``number`` (1-based); ``None`` for ``0`` or past the end."""
    index = int(number) - 1
    return args[index] if 0 <= index < len(args) else None


def substitute_args(content: str, args: list[str]) -> str:
    """Replace the placeholders of ``content`` with ``args``, in one left-to-right pass.

    - ``$1``, ``$2``, ... one argument; ``$0`` and numbers past the end give ``""``; the whole
      run of ASCII digits is the number (``$10`` is the tenth argument) (PI-TPL-SUB-POSITIONAL).
    - ``$@`` and ``$ARGUMENTS``: every argument joined by one space (PI-TPL-SUB-ALL).
    - ``${N:-default}``: argument ``N``, or ``default`` when it is missing or empty
      (PI-TPL-SUB-DEFAULT).
    - ``${@:-default}`` and ``${ARGUMENTS:-default}``: all arguments joined, or ``default`` when
      that text is empty (PI-TPL-SUB-ALL-DEFAULT).
    - A default is the text up to the first ``}``; it may contain ``$`` and is used verbatim
      (PI-TPL-SUB-DEFAULT-TEXT).
    - ``${@:N}`` the arguments from position ``N`` on, ``${@:N:L}`` at most ``L`` of them,
      joined by one space; ``N = 0`` counts as 1; a range past the end gives ``""``
      (PI-TPL-SUB-SLICE).
    - Arguments and defaults are inserted as they are, never substituted again, and ``$&`` or
      ``$1`` inside them stays literal (PI-TPL-SUB-ONE-PASS).
    """
    joined = " ".join(args)

    def replace(match: re.Match[str]) -> str:
        target, default, start, length, simple = match.groups()
        if target is not None:
            value = joined if target in ("@", "ARGUMENTS") else _positional(args, target)
            return value if value else default
        if start is not None:
            begin = max(int(start) - 1, 0)
            chosen = args[begin:] if length is None else args[begin : begin + int(length)]
            return " ".join(chosen)
        if simple in ("@", "ARGUMENTS"):
            return joined
        return _positional(args, simple) or ""

    return _PLACEHOLDER.sub(replace, content)


# ---------------------------------------------------------------------------------------------
# Expansion of "/name args" input
# ---------------------------------------------------------------------------------------------


@dataclass
class Expansion:
    """What Pi does with one line of input.

    Attributes:
        kind: ``"extension-command"`` (an extension command handles it and no prompt is sent),
            ``"template"`` (the expanded template is sent) or ``"text"`` (sent unchanged).
        text: the text sent to the agent (the input itself for an extension command).
        name: the command or template name (``None`` for ``"text"``).
        args: the raw argument text for an extension command, the parsed arguments for a
            template, ``None`` for ``"text"``.
    """

    kind: Literal["extension-command", "template", "text"]
    text: str
    name: str | None = None
    args: str | list[str] | None = None


_COMMAND = re.compile("/(" + _NON_WS + "+)(?:" + _WS + "+(.*))?", re.DOTALL)


def match_extension_command(text: str, commands: set[str] | frozenset[str]) -> Expansion | None:
    """An extension command takes ``/name args`` input before any template.

    The name runs from after the ``/`` to the first space character (U+0020) or the end; the
    argument text is everything after that space, unchanged (PI-TPL-EXPAND-EXTENSION-NAME).
    Implements PI-TPL-EXPAND-EXTENSION.
    """
    if not text.startswith("/"):
        return None
    space = text.find(" ")
    name = text[1:] if space == -1 else text[1:space]
    if name not in commands:
        return None
    return Expansion("extension-command", text, name, "" if space == -1 else text[space + 1 :])


def expand_input(text: str, templates: list[Template], extension_commands: set[str] | frozenset[str] = frozenset()) -> Expansion:
    """Expand one line of input as Pi does before it enters the agent.

    The input must start with ``/`` (leading whitespace means it is not a command); the name is
    the run of non-whitespace after it, the arguments the text after the whitespace that follows.
    The first template of that name is expanded with :func:`parse_command_args` and
    :func:`substitute_args` (a template without placeholders so drops the arguments,
    PI-TPL-EXPAND-NO-PLACEHOLDERS); an unknown name leaves the input unchanged.
    Implements PI-TPL-EXPAND-MATCH.
    """
    handled = match_extension_command(text, extension_commands)
    if handled is not None:
        return handled
    match = _COMMAND.fullmatch(text)
    if match is None:
        return Expansion("text", text)
    name, arg_text = match.group(1), match.group(2) or ""
    for template in templates:
        if template.name == name:
            args = parse_command_args(arg_text)
            return Expansion("template", substitute_args(template.content, args), name, args)
    return Expansion("text", text)


@dataclass
class TemplateDiagnostic:
    """A problem met while loading templates; loading goes on.

    Attributes:
        code: ``template-frontmatter-invalid`` (the file is skipped), ``template-unreadable``
            (the file is skipped) or ``template-name-collision`` (a later template has the name
            of an earlier one and is left out).
        path: the file concerned.
        message: human-readable detail (not compared by cases).
        name: the colliding command name (collisions only).
        winnerPath: the file that keeps the name (collisions only).
    """

    code: str
    path: str
    message: str
    name: str | None = None
    winnerPath: str | None = None


@dataclass
class LoadedTemplates:
    """Templates in load order, and diagnostics in the order they were met."""

    templates: list[Template] = field(default_factory=list)
    diagnostics: list[TemplateDiagnostic] = field(default_factory=list)


def add_template(result: LoadedTemplates, template: Template) -> None:
    """Add a template unless its name is taken: the first template of a name wins and each
    later one is left out with a ``template-name-collision`` diagnostic.
    Implements PI-TPL-DUPLICATE."""
    for kept in result.templates:
        if kept.name == template.name:
            result.diagnostics.append(
                TemplateDiagnostic(
                    "template-name-collision",
                    template.path,
                    f'name "/{template.name}" collision',
                    name=template.name,
                    winnerPath=kept.path,
                )
            )
            return
    result.templates.append(template)


def collect_templates(read: list[Template], problems: list[TemplateDiagnostic]) -> LoadedTemplates:
    """The templates that load, from those read (in load order), and the diagnostics so far.

    Args:
        read: every template read without a problem, in load order, ``path`` and ``scope`` set.
        problems: the ``template-frontmatter-invalid`` and ``template-unreadable`` diagnostics of
            the files that could not be read, in load order.

    Returns:
        :class:`LoadedTemplates`: the first template of each name (:func:`add_template`); the
        diagnostics are the read problems first, then the name collisions, each in load order.
        Implements PI-TPL-DIAGNOSTIC-ORDER (a missing explicit path is added after both by the
        loader, PI-TPL-EXPLICIT-MISSING).
    """
    result = LoadedTemplates()
    for template in read:
        add_template(result, template)
    result.diagnostics[:0] = problems
    return result

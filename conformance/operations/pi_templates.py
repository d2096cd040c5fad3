"""Operations over Pi's prompt templates (Pi's docs "Prompt Templates", PI-DECISION-TEMPLATES).

- ``pi.load-templates`` (file tree): the templates of the conventional directories.
- ``pi.parse-args``: split an argument string with Pi's quoting rules.
- ``pi.substitute-args``: substitute arguments into a template's content.
- ``pi.expand-input``: what Pi does with one line of ``/name args`` input.
"""

from __future__ import annotations

from typing import Literal

from conformance.operations.base import OpModel, operation

# --------------------------------------------------------------------------------------------
# pi.load-templates
# --------------------------------------------------------------------------------------------


class LoadTemplatesInput(OpModel):
    """Where Pi looks for templates, as paths relative to the case's tree.

    Attributes:
        agentDir: Pi's agent directory; personal templates are its ``prompts/`` children.
        cwd: the project directory; project templates are its ``.pi/prompts/`` children.
        projectTrusted: whether the project is trusted (default ``false``); an untrusted
            project's templates are not read.
        paths: template paths given on the command line (``--prompt-template PATH``), resolved
            from ``cwd`` and inside the tree: a file ending in ``.md``, or a folder whose direct
            ``.md`` children load; their templates have scope ``temporary`` (default: none).
        defaultFolders: ``false`` switches the conventional folders and the settings lists off
            (``--no-prompt-templates``); explicit ``paths`` still load (default ``true``).
        personalPrompts, projectPrompts: the ``prompts`` lists of the personal and project
            settings files (revision 3): paths from the settings file's directory (folders
            searched for nested ``.md`` files) and ``!``/``+``/``-``/glob filters, which also
            switch files of that settings file's conventional folder off (default: none).
    """

    agentDir: str
    cwd: str
    projectTrusted: bool = False
    paths: list[str] = []
    defaultFolders: bool = True
    personalPrompts: list[str] | None = None
    projectPrompts: list[str] | None = None


class LoadedTemplate(OpModel):
    """One loaded template.

    Attributes:
        name: the command name (file name without ``.md``).
        description: frontmatter ``description``, else the first non-empty body line (cut).
        argumentHint: frontmatter ``argument-hint``, or ``null``.
        content: the body that arguments are substituted into.
        path: the file, relative to the tree's root, with ``/`` separators.
        scope: ``user`` or ``project`` (a conventional folder or a settings list),
            ``temporary`` (an explicit path).
    """

    name: str
    description: str
    argumentHint: str | None
    content: str
    path: str
    scope: Literal["user", "project", "temporary"]


class TemplateDiagnosticOut(OpModel):
    """A loading problem.

    Attributes:
        code: ``template-frontmatter-invalid`` or ``template-unreadable`` (the file is
            skipped), ``template-name-collision`` (the file is left out: its name is taken),
            ``template-path-missing`` (an explicit path that does not exist; reported last).
        path: the file concerned, relative to the tree's root.
        name: the command name, for a collision (else ``null``).
        winnerPath: the file that keeps the name, for a collision (else ``null``).
    """

    code: str
    path: str
    name: str | None = None
    winnerPath: str | None = None


class LoadTemplatesOutput(OpModel):
    """Templates in load order (project settings list, project folder, personal settings list,
    personal folder -- by file name within a folder -- then explicit paths in the order given)
    and diagnostics in the order they were met."""

    templates: list[LoadedTemplate]
    diagnostics: list[TemplateDiagnosticOut]


LOAD_TEMPLATES = operation(
    "pi.load-templates",
    input=LoadTemplatesInput,
    output=LoadTemplatesOutput,
    summary="Load prompt templates from the conventional directories of a file tree (PI-DECISION-TEMPLATES).",
    uses_tree=True,
)

# --------------------------------------------------------------------------------------------
# pi.parse-args
# --------------------------------------------------------------------------------------------


class ParseArgsInput(OpModel):
    """The argument text after a command name."""

    text: str


class ParseArgsOutput(OpModel):
    """The arguments, in order (what Pi's ``parseCommandArgs`` returns)."""

    args: list[str]


PARSE_ARGS = operation(
    "pi.parse-args",
    input=ParseArgsInput,
    output=ParseArgsOutput,
    summary="Split template arguments with Pi's quoting rules (PI-DECISION-TEMPLATES).",
)

# --------------------------------------------------------------------------------------------
# pi.substitute-args
# --------------------------------------------------------------------------------------------


class SubstituteArgsInput(OpModel):
    """A template's content and its arguments."""

    content: str
    args: list[str]


class SubstituteArgsOutput(OpModel):
    """The content with every placeholder replaced (what Pi's ``substituteArgs`` returns)."""

    text: str


SUBSTITUTE_ARGS = operation(
    "pi.substitute-args",
    input=SubstituteArgsInput,
    output=SubstituteArgsOutput,
    summary="Substitute $1, $@, $ARGUMENTS, ${N:-default}, ${@:N:L} in one pass (PI-DECISION-TEMPLATES).",
)

# --------------------------------------------------------------------------------------------
# pi.expand-input
# --------------------------------------------------------------------------------------------


class TemplateRef(OpModel):
    """A loaded template as expansion sees it: its name and content."""

    name: str
    content: str


class ExpandInputInput(OpModel):
    """One line of input and what is registered.

    Attributes:
        text: the input as typed.
        templates: the loaded templates, in load order (the first of a name is used).
        extensionCommands: names of the commands extensions registered.
    """

    text: str
    templates: list[TemplateRef] = []
    extensionCommands: list[str] = []


class ExpandInputOutput(OpModel):
    """What happens to the input.

    Attributes:
        kind: ``extension-command`` (an extension command handles it; nothing is sent),
            ``template`` (the expanded template is sent) or ``text`` (sent unchanged).
        text: the text sent to the agent; for ``extension-command`` the input itself.
        name: the command or template name (``null`` for ``text``).
        args: the parsed arguments of a template (``null`` otherwise).
        argText: the raw argument text given to an extension command (``null`` otherwise).
    """

    kind: Literal["extension-command", "template", "text"]
    text: str
    name: str | None = None
    args: list[str] | None = None
    argText: str | None = None


EXPAND_INPUT = operation(
    "pi.expand-input",
    input=ExpandInputInput,
    output=ExpandInputOutput,
    summary="Expand '/name args' input: extension command first, then template, else unchanged (PI-DECISION-TEMPLATES).",
)

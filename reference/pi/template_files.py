"""Loading prompt templates from disk (seed 003 "Prompt Templates", note N21): the thin I/O edge.

The two conventional directories are ``AGENT_DIR/prompts`` (personal, scope ``user``) and
``CWD/.pi/prompts`` (project, scope ``project``). Every rule about a file's *content* is in
:mod:`reference.pi.templates`; this module only decides which files are read and in what order.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from reference.errors import SpecError
from reference.pi.templates import Template, template_from_text

#: The project's configuration directory, relative to the working directory.
PROJECT_CONFIG_DIR = ".pi"


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


def template_files(directory: Path) -> list[Path]:
    """The template files of one conventional directory, sorted by file name (code point order).

    Only direct children count: a name ending in ``.md`` (case-sensitive) that is a regular
    file or a symbolic link to one. Subdirectories are not searched, broken links and names
    starting with ``.`` are skipped, and a missing directory has no files.
    Implements PI-TPL-DIRS, PI-TPL-DOTFILES and PI-TPL-ORDER.
    """
    if not directory.is_dir():
        return []
    found = []
    for entry in os.scandir(directory):
        if entry.name.startswith(".") or not entry.name.endswith(".md"):
            continue
        if entry.is_file(follow_symlinks=True):
            found.append(Path(entry.path))
    return sorted(found, key=lambda p: p.name)


def read_template(path: Path) -> Template:
    """Read one template file (UTF-8; undecodable bytes become U+FFFD).

    Raises:
        SpecError: ``template-unreadable`` or ``template-frontmatter-invalid``.
    """
    try:
        raw = path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise SpecError("template-unreadable", f"{path}: {exc.strerror}") from exc
    return template_from_text(path.name, raw)


def conventional_directories(agent_dir: Path, cwd: Path, *, project_trusted: bool) -> list[tuple[str, Path]]:
    """The directories read, in order, with their scope: the project's ``.pi/prompts`` first,
    and only when the project is trusted, then the personal ``prompts``.

    Implements PI-TPL-TRUST and the order of PI-TPL-PRECEDENCE.
    """
    dirs = []
    if project_trusted:
        dirs.append(("project", cwd / PROJECT_CONFIG_DIR / "prompts"))
    dirs.append(("user", agent_dir / "prompts"))
    return dirs


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


def load_prompt_templates(agent_dir: Path, cwd: Path, *, project_trusted: bool) -> LoadedTemplates:
    """Load the templates of the conventional directories.

    Args:
        agent_dir: Pi's agent directory (``~/.pi/agent``).
        cwd: the project's working directory.
        project_trusted: whether the project is trusted; an untrusted project's templates are
            not read at all.

    Returns:
        :class:`LoadedTemplates`. A file whose frontmatter is not valid YAML, or that cannot be
        read, is skipped with a diagnostic (PI-TPL-YAML-ERROR); loading never raises for a file.
    """
    result = LoadedTemplates()
    for scope, directory in conventional_directories(agent_dir, cwd, project_trusted=project_trusted):
        for path in template_files(directory):
            try:
                template = read_template(path)
            except SpecError as exc:
                result.diagnostics.append(TemplateDiagnostic(exc.code, str(path), exc.message))
                continue
            template.path = str(path)
            template.scope = scope
            add_template(result, template)
    return result

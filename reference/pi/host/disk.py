"""The disk: the one file-system edge of the pi area (Pi's docs "Pi Packages" and "Prompt Templates";
PI-DECISION-TEMPLATES, PI-DECISION-PACKAGES): package trees read through :class:`DiskFileSystem`,
and which template files are read, in what order. Every rule about a file's content is in
:mod:`reference.pi.core.templates`."""

from __future__ import annotations

import os
from pathlib import Path

from reference.errors import SpecError
from reference.pi.core.filters import apply_filter
from reference.pi.core.scope import PROJECT_CONFIG_DIR, settings_resources
from reference.pi.core.templates import LoadedTemplates, Template, TemplateDiagnostic, collect_templates, template_from_text
from reference.text import js_trim


class DiskFileSystem:
    """:class:`~reference.pi.core.manifest.FileSystem` over the real disk (absolute POSIX paths;
    symbolic links followed)."""

    def is_file(self, path: str) -> bool:
        return os.path.isfile(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def list_dir(self, path: str) -> list[str]:
        try:
            return sorted(os.listdir(path))
        except OSError:
            return []

    def is_symlink(self, path: str) -> bool:
        return os.path.islink(path)

    def real_path(self, path: str) -> str:
        return os.path.realpath(path)

    def read_text(self, path: str) -> str | None:
        try:
            with open(path, encoding="utf-8") as fh:
                return fh.read()
        except (OSError, UnicodeDecodeError):
            return None


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
    """Read one template file (UTF-8; undecodable bytes become U+FFFD, PI-TPL-FILE-BYTES).

    Raises:
        SpecError: ``template-unreadable`` or ``template-frontmatter-invalid``.
    """
    try:
        raw = path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise SpecError("template-unreadable", f"{path}: {exc.strerror}") from exc
    return template_from_text(path.name, raw)


def conventional_directories(agent_dir: Path, cwd: Path, *, project_trusted: bool) -> list[tuple[str, Path]]:
    """The directories read, in order, with their scope: the project's ``CWD/.pi/prompts`` (scope
    ``project``) first, and only when the project is trusted, then the personal
    ``AGENT_DIR/prompts`` (scope ``user``).

    Implements PI-TPL-TRUST and the order of PI-TPL-PRECEDENCE.
    """
    dirs = []
    if project_trusted:
        dirs.append(("project", cwd / PROJECT_CONFIG_DIR / "prompts"))
    dirs.append(("user", agent_dir / "prompts"))
    return dirs


def explicit_template_files(cwd: Path, paths: list[str]) -> tuple[list[Path], list[Path]]:
    """The template files that paths given on the command line name, in the order given, and the
    paths that do not exist.

    Implements PI-TPL-EXPLICIT-PATHS: each path is resolved from ``cwd``; a directory gives its
    direct ``.md`` children as a conventional directory does (:func:`template_files`), a file is
    read when its name ends in ``.md``. Implements PI-TPL-EXPLICIT-MISSING: a path that does not
    exist is returned for a ``template-path-missing`` diagnostic, and loading goes on.
    Implements PI-TPL-EXPLICIT-MISSING-ONCE: a missing path named twice is returned once, at its
    first place.
    """
    files: list[Path] = []
    missing: list[Path] = []
    for raw in paths:
        path = Path(os.path.normpath(cwd / js_trim(raw)))
        if path.is_dir():
            files.extend(template_files(path))
        elif path.is_file():
            if path.name.endswith(".md"):
                files.append(path)
        elif path not in missing:
            missing.append(path)
    return files, missing


def _override_enabled(path: Path, entries: list[str] | None, settings_dir: Path) -> bool:
    """Whether a conventional folder's file stays enabled under its settings file's ``!``, ``+``
    and ``-`` entries (PI-TPL-SETTINGS-PROMPTS)."""
    overrides = [e for e in entries or [] if e[:1] in ("!", "+", "-")]
    return not overrides or bool(apply_filter([str(path)], overrides, str(settings_dir)))


def settings_and_conventional_files(
    agent_dir: Path, cwd: Path, *, project_trusted: bool, personal: list[str] | None, project: list[str] | None
) -> list[tuple[str, Path, bool]]:
    """``(scope, file, enabled)`` for every template file the settings ``prompts`` lists and the
    conventional folders declare, in load order: the project list, the project folder, the
    personal list, the personal folder (the project's only when trusted).

    Implements PI-TPL-SETTINGS-PROMPTS: a settings ``prompts`` list reads as a settings-level
    resource list (:func:`reference.pi.core.scope.settings_resources`: paths from the settings
    file's directory, folders searched for nested ``.md`` files, PI-DECISION-PACKAGES filters), and its ``!``,
    ``+`` and ``-`` entries also switch the files of its own conventional folder on and off.
    """
    fs = DiskFileSystem()
    out: list[tuple[str, Path, bool]] = []
    for scope, directory in conventional_directories(agent_dir, cwd, project_trusted=project_trusted):
        base, entries = (cwd / PROJECT_CONFIG_DIR, project) if scope == "project" else (agent_dir, personal)
        if entries:
            declared, enabled = settings_resources(fs, entries, "prompts", str(base))
            out.extend((scope, Path(p), p in enabled) for p in declared)
        out.extend((scope, path, _override_enabled(path, entries, base)) for path in template_files(directory))
    return out


def load_prompt_templates(
    agent_dir: Path,
    cwd: Path,
    *,
    project_trusted: bool,
    paths: list[str] | tuple[str, ...] = (),
    default_folders: bool = True,
    personal_prompts: list[str] | None = None,
    project_prompts: list[str] | None = None,
) -> LoadedTemplates:
    """Load the templates of the settings ``prompts`` lists, the conventional directories and
    explicit paths.

    Args:
        agent_dir: Pi's agent directory (``~/.pi/agent``).
        cwd: the project's working directory.
        project_trusted: whether the project is trusted; an untrusted project's templates are
            not read at all.
        paths: paths given on the command line (``--prompt-template``), resolved from ``cwd``;
            their templates have scope ``temporary`` (see :func:`explicit_template_files`).
        default_folders: ``False`` (``--no-prompt-templates``) reads no conventional directory
            and no settings list; explicit paths still load (PI-TPL-DEFAULTS-OFF).
        personal_prompts, project_prompts: the ``prompts`` lists of the personal and project
            settings files, or ``None`` (see :func:`settings_and_conventional_files`).

    Returns:
        :class:`LoadedTemplates`: settings and conventional templates first, then explicit ones in
        the order given (PI-TPL-EXPLICIT-ORDER); a file named twice loads once, at its first place,
        and one the first place switched off stays off. A file
        whose frontmatter is not valid YAML, or that cannot be read, is skipped with a diagnostic
        (PI-TPL-YAML-ERROR); loading never raises for a file. Diagnostics come in the order of
        PI-TPL-DIAGNOSTIC-ORDER (:func:`collect_templates`); paths that do not exist are reported
        last.
    """
    found: list[tuple[str, Path, bool]] = []
    if default_folders:
        found = settings_and_conventional_files(
            agent_dir, cwd, project_trusted=project_trusted, personal=personal_prompts, project=project_prompts
        )
    explicit, missing = explicit_template_files(cwd, list(paths))
    found.extend(("temporary", path, True) for path in explicit)
    seen: set[Path] = set()
    read: list[Template] = []
    problems: list[TemplateDiagnostic] = []
    for scope, path, enabled in found:
        if path in seen:
            continue
        seen.add(path)
        if not enabled or not path.name.endswith(".md"):
            continue
        try:
            template = read_template(path)
        except SpecError as exc:
            problems.append(TemplateDiagnostic(exc.code, str(path), exc.message))
            continue
        template.path = str(path)
        template.scope = scope
        read.append(template)
    result = collect_templates(read, problems)
    for path in missing:
        result.diagnostics.append(TemplateDiagnostic("template-path-missing", str(path), f"{path}: no such file or directory"))
    return result

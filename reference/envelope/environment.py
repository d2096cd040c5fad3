"""The environment developer message (ENV-DECISION-ENVIRONMENT, ENV-DECISION-FISH).

Every input is explicit (:class:`HostFacts` plus the cwd and the active tools): nothing here reads
the clock, the machine's environment variables or its current directory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date as _date
from typing import Iterable

from reference.envelope.contributions import ENVIRONMENT_ID, DeveloperMessage
from reference.errors import SpecError

WINDOWS_PLATFORM = "win32"
"""Node's ``process.platform`` value for Windows; every other value is treated as non-Windows."""

FISH_FALLBACK_ORDER = ("zsh", "bash", "sh")
"""Shells tried, in order, in place of ``fish`` when ``exec_command`` is active (ENV-DECISION-FISH)."""

EXEC_COMMAND_TOOL = "exec_command"


@dataclass(frozen=True)
class HostFacts:
    """What the host tells the environment message, all explicit.

    Attributes:
        platform: Node's ``process.platform`` (``"linux"``, ``"darwin"``, ``"win32"``, ...).
        shell: the value of ``$SHELL``, or ``None`` when unset.
        comSpec: the value of ``%ComSpec%``, or ``None`` when unset.
        shells: which of ``zsh``, ``bash``, ``sh`` exist on the system.
        date: the local date, ``YYYY-MM-DD``.
        timezone: the IANA time zone name, or ``None`` when none is known.
    """

    platform: str
    shell: str | None = None
    comSpec: str | None = None
    shells: frozenset[str] = frozenset()
    date: str = "1970-01-01"
    timezone: str | None = None


def slash_path(path: str) -> str:
    """``path`` with every ``\\`` replaced by ``/``, nothing else changed.

    Clauses:
        ENV-CWD-SLASHES: the cwd shown in the environment message and in the context-files header
            has every backslash replaced by a forward slash; it is not otherwise normalised.
    """
    return path.replace("\\", "/")


def shell_basename(path: str) -> str:
    """The last component of ``path``.

    Clauses:
        ENV-ENV-BASENAME: both ``/`` and ``\\`` separate components, whatever the platform (so a
            ``%ComSpec%`` of ``C:\\Windows\\System32\\cmd.exe`` gives ``cmd.exe``); trailing
            separators are ignored; the extension is kept.
    """
    parts = [p for p in re.split(r"[\\/]", path) if p]
    return parts[-1] if parts else ""


def login_shell(shell: str | None, com_spec: str | None) -> str:
    """The login shell's name before the fish rule.

    Clauses:
        ENV-ENV-SHELL: the basename of ``$SHELL``, else of ``%ComSpec%``, else ``unknown``.
        ENV-ENV-EMPTY-VAR: a variable that is set but empty (or whose basename is empty) counts as
            unset, as it would for a shell.
    """
    for candidate in (shell, com_spec):
        if candidate:
            name = shell_basename(candidate)
            if name:
                return name
    return "unknown"


def reported_shell(name: str, platform: str, shells: Iterable[str], active_tools: Iterable[str]) -> str:
    """The shell the environment message reports.

    Clauses:
        ENV-ENV-FISH: only when ``exec_command`` is active and ``name`` is ``fish``
            (case-insensitive, no extension): on Windows the shell is ``bash.exe``; elsewhere the
            first of ``zsh``, ``bash``, ``sh`` that exists, and ``sh`` when none does. Otherwise
            ``name`` is reported as is.
        ENV-ENV-PLATFORM: the platform is Node's ``process.platform``; ``win32`` is Windows and
            every other value is not.
    """
    if name.lower() != "fish" or EXEC_COMMAND_TOOL not in set(active_tools):
        return name
    if platform == WINDOWS_PLATFORM:
        return "bash.exe"
    available = set(shells)
    for candidate in FISH_FALLBACK_ORDER:
        if candidate in available:
            return candidate
    return "sh"


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")


def check_date(value: str, *, path: str = "date") -> str:
    """``value`` when it is a real calendar date written ``YYYY-MM-DD``.

    Raises:
        SpecError: ``environment-date-invalid`` naming ``path``.
    """
    if not isinstance(value, str) or not _DATE.match(value):
        raise SpecError("environment-date-invalid", f"{path} must be YYYY-MM-DD, got {value!r}", path=path)
    try:
        _date.fromisoformat(value)
    except ValueError:
        raise SpecError("environment-date-invalid", f"{path} is not a calendar date: {value!r}", path=path)
    return value


def render_environment(cwd: str, shell: str, date: str, timezone: str | None) -> str:
    """The environment message's text.

    Clauses:
        ENV-ENV-FORMAT: exactly six lines joined by ``\\n``, no trailing newline, children indented
            by two spaces: ``<environment_context>``, ``  <cwd>CWD</cwd>``, ``  <shell>SHELL</shell>``,
            ``  <current_date>DATE</current_date>``, ``  <timezone>TZ</timezone>``,
            ``</environment_context>``.
        ENV-ENV-NOESCAPE: values are inserted as they are, never XML-escaped.
        ENV-ENV-TIMEZONE: ``TZ`` is the IANA name, or ``unknown`` when none is known (``None`` or
            empty).

    Args:
        cwd: the working directory (backslashes are made slashes, see :func:`slash_path`).
        shell: the shell name from :func:`reported_shell`.
        date: the local date, ``YYYY-MM-DD``.
        timezone: IANA name or ``None``.
    """
    return "\n".join(
        [
            "<environment_context>",
            f"  <cwd>{slash_path(cwd)}</cwd>",
            f"  <shell>{shell}</shell>",
            f"  <current_date>{date}</current_date>",
            f"  <timezone>{timezone or 'unknown'}</timezone>",
            "</environment_context>",
        ]
    )


def environment_message(cwd: str, host: HostFacts, active_tools: Iterable[str]) -> DeveloperMessage:
    """The ``environment`` developer message for one turn.

    Its id is ``environment``; :func:`reference.envelope.build.developer_messages` always adds it,
    last.

    Raises:
        SpecError: ``environment-date-invalid`` when ``host.date`` is not ``YYYY-MM-DD``.
    """
    tools = list(active_tools)
    name = login_shell(host.shell, host.comSpec)
    shell = reported_shell(name, host.platform, host.shells, tools)
    return DeveloperMessage(
        ENVIRONMENT_ID, render_environment(cwd, shell, check_date(host.date, path="host.date"), host.timezone)
    )

"""Configuration values of ``models.json`` (PI-DECISION-MODELS): literals, environment interpolation
and commands. The environment is always an explicit mapping, and commands run through a
:data:`CommandRunner` the caller passes in, so this module does no I/O itself."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping

from reference.errors import SpecError
from reference.text import js_trim

#: Time limit for one ``!command``, in seconds (PI-MODELS-VALUE-COMMAND).
COMMAND_TIME_LIMIT_S = 10.0

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class CommandResult:
    """What running one command gave.

    Attributes:
        exit_code: the process's exit status, or ``None`` when it did not finish in time.
        stdout: everything it wrote to standard output, decoded as UTF-8.
    """

    exit_code: int | None
    stdout: str


#: ``runner(command, env, time_limit_s) -> CommandResult``: runs ``command`` through the shell with
#: exactly the environment ``env``.
CommandRunner = Callable[[str, Mapping[str, str], float], CommandResult]


@dataclass(frozen=True)
class Part:
    """One piece of a template: ``kind`` is ``"literal"`` (``text`` is the text) or ``"env"``
    (``text`` is the variable name)."""

    kind: str
    text: str


@dataclass(frozen=True)
class ConfigValue:
    """A parsed configuration value.

    Attributes:
        raw: the value as written.
        kind: ``"command"`` or ``"template"``; a template without variables is a literal.
        parts: the template's parts (empty for a command).
        command: the command text without its leading ``!`` (``None`` for a template).
    """

    raw: str
    kind: str
    parts: tuple[Part, ...] = ()
    command: str | None = None

    @property
    def env_names(self) -> list[str]:
        """Names of the variables the value reads, first occurrence order, without repeats."""
        names: list[str] = []
        for part in self.parts:
            if part.kind == "env" and part.text not in names:
                names.append(part.text)
        return names

    @property
    def form(self) -> str:
        """``"command"``, ``"env"`` (reads at least one variable) or ``"literal"``."""
        if self.kind == "command":
            return "command"
        return "env" if self.env_names else "literal"


def parse_config_value(value: str) -> ConfigValue:
    """Parse a ``models.json`` value into a command or a template: ``!command`` (the whole value
    after the leading ``!`` is a shell command; its standard output, trimmed, is the value), else a
    template, in which ``$NAME`` and ``${NAME}`` read the environment variable ``NAME`` and
    everything else is literal, so a bare ``MY_API_KEY`` is the literal key ``MY_API_KEY``.

    Implements PI-MODELS-VALUE-FORMS (``!command``, ``$NAME``, ``${NAME}``, literal) and
    PI-MODELS-VALUE-ESCAPES (``$$`` is ``$``, ``$!`` is ``!``; a ``$`` not followed by a name, or a
    ``${...}`` whose content is not a variable name, or an unclosed ``${``, stays literal), which
    edition pi-1.6.0's page states itself (PI-160-MODELS-VALUE-ESCAPES).

    Args:
        value: the string as written in ``models.json``.
    Returns:
        the parsed :class:`ConfigValue`.
    Raises:
        SpecError ``config-value-not-string`` when ``value`` is not a string.
    """
    if not isinstance(value, str):
        raise SpecError("config-value-not-string", f"a configuration value must be a string, got {type(value).__name__}")
    if value.startswith("!"):
        return ConfigValue(raw=value, kind="command", command=value[1:])
    parts: list[Part] = []

    def literal(text: str) -> None:
        if not text:
            return
        if parts and parts[-1].kind == "literal":
            parts[-1] = Part("literal", parts[-1].text + text)
        else:
            parts.append(Part("literal", text))

    i = 0
    n = len(value)
    while i < n:
        dollar = value.find("$", i)
        if dollar < 0:
            literal(value[i:])
            break
        literal(value[i:dollar])
        nxt = value[dollar + 1] if dollar + 1 < n else ""
        if nxt in ("$", "!"):
            literal(nxt)
            i = dollar + 2
            continue
        if nxt == "{":
            end = value.find("}", dollar + 2)
            if end < 0:
                literal("$")
                i = dollar + 1
                continue
            name = value[dollar + 2 : end]
            if _NAME.fullmatch(name):
                parts.append(Part("env", name))
            else:
                literal(value[dollar : end + 1])
            i = end + 1
            continue
        match = _NAME.match(value, dollar + 1)
        if match:
            parts.append(Part("env", match.group(0)))
            i = match.end()
            continue
        literal("$")
        i = dollar + 1
    return ConfigValue(raw=value, kind="template", parts=tuple(parts))


def env_value(name: str, env: Mapping[str, str]) -> str | None:
    """The value of variable ``name`` in ``env``, or ``None`` when it is unset or empty.

    Implements PI-MODELS-VALUE-UNSET: an empty variable counts as unset.
    """
    value = env.get(name)
    return value if value else None


def missing_env_names(value: ConfigValue, env: Mapping[str, str]) -> list[str]:
    """The variables ``value`` reads that are unset or empty in ``env`` (first occurrence order)."""
    return [name for name in value.env_names if env_value(name, env) is None]


def run_config_command(
    command: str, env: Mapping[str, str], runner: CommandRunner, time_limit_s: float = COMMAND_TIME_LIMIT_S
) -> str | None:
    """Run a ``!command`` value and give its trimmed output, or ``None``.

    Implements PI-MODELS-VALUE-COMMAND: the command runs with a time limit; a non-zero exit, a
    time-out or empty output (nothing but JavaScript's white space, :func:`reference.text.js_trim`)
    leaves the value unresolved. Commands are run anew on
    every resolution (no cache).
    """
    result = runner(command, env, time_limit_s)
    if result.exit_code is None or result.exit_code != 0:
        return None
    out = js_trim(result.stdout)
    return out or None


def resolve_config_value(
    value: str | ConfigValue,
    env: Mapping[str, str],
    runner: CommandRunner | None = None,
    time_limit_s: float = COMMAND_TIME_LIMIT_S,
) -> str | None:
    """Resolve a configuration value to its text, or ``None`` when it is unresolved.

    A template resolves only when every variable it names is set and non-empty (:func:`env_value`);
    a command runs through ``runner`` (:func:`run_config_command`, the caller's, so that this
    module does no I/O) and is unresolved when it fails, times out or prints nothing.

    Raises:
        SpecError ``config-command-not-allowed`` when the value is a command and no runner is given.
    """
    parsed = value if isinstance(value, ConfigValue) else parse_config_value(value)
    if parsed.kind == "command":
        if runner is None:
            raise SpecError("config-command-not-allowed", f"command values cannot run here: {parsed.raw!r}")
        return run_config_command(parsed.command or "", env, runner, time_limit_s)
    out: list[str] = []
    for part in parsed.parts:
        if part.kind == "literal":
            out.append(part.text)
            continue
        got = env_value(part.text, env)
        if got is None:
            return None
        out.append(got)
    return "".join(out)


def describe_unresolved(value: ConfigValue, env: Mapping[str, str], what: str) -> str:
    """A message saying why ``value`` (described as ``what``) did not resolve, naming the command or
    the missing variables."""
    if value.kind == "command":
        return f"could not resolve {what}: command failed or printed nothing: {value.command}"
    missing = missing_env_names(value, env)
    if len(missing) == 1:
        return f"could not resolve {what}: environment variable {missing[0]} is unset or empty"
    if missing:
        return f"could not resolve {what}: environment variables {', '.join(missing)} are unset or empty"
    return f"could not resolve {what}"

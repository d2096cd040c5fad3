"""The ``!command`` values of cases (``models.json`` API keys and headers, PI-MODELS-VALUE-COMMAND):
which cases run one, whether a suite may run them (a scenario folder is code: only the kit's own,
unless ``--allow-commands``), and how the kit's reference runs one contained."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

from reference.pi.core.values import CommandResult

__all__ = ["COMMAND_OPS", "commands_allowed", "isolation", "isolation_note", "run_contained", "runs_command"]

COMMAND_OPS = frozenset(("pi.models-value", "pi.models-auth", "pi.models-available", "pi.models-load",
                         "pi.models-sampling"))
"""The operations whose input can hold a value Pi runs as a command (``models.json`` values and
``auth.json`` keys; a model's load or sampling may resolve a header)."""

SCRATCH_PREFIX = "pi-conformance-command-"
"""How a command's scratch folder is named: the prefix, the kit's process id, ``-``, a random part."""

_UNSHARE_FLAGS = (["--user", "--map-current-user"], ["--user", "--map-root-user"])
_NAMESPACES = ["--net", "--pid", "--fork", "--kill-child"]


def _strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def runs_command(op: str, input: Any) -> bool:
    """Whether a case of ``op`` with ``input`` may make its implementation run a command: an
    operation of :data:`COMMAND_OPS` with a string value starting with ``!``, or a raw text field
    (``modelsJsonText``) holding a JSON string that does. Errs on the side of yes."""
    if op not in COMMAND_OPS:
        return False
    return any(text.startswith("!") or '"!' in text for text in _strings(input))


def commands_allowed(scenarios_dir: Path | None, allow: bool) -> bool:
    """Whether the cases of ``scenarios_dir`` may run commands: the kit's own scenarios (``None``:
    those), or any folder when the user passed ``--allow-commands``."""
    if allow or scenarios_dir is None:
        return True
    from conformance.corpus.cases import SCENARIOS_DIR

    try:
        return Path(scenarios_dir).resolve() == SCENARIOS_DIR.resolve()
    except (OSError, RuntimeError):
        return False


@lru_cache(maxsize=1)
def isolation() -> tuple[list[str], str | None]:
    """The argument list that runs a command in new user, network and process namespaces here
    (``unshare ... --``), and ``None``; or ``[]`` and what is not available. Tried once per
    process."""
    if os.name != "posix":
        return [], "this system has no user or network namespaces"
    import shutil

    unshare = shutil.which("unshare")
    if unshare is None:
        return [], "unshare is not installed"
    said = ""
    for user in _UNSHARE_FLAGS:
        prefix = [unshare, *user, *_NAMESPACES, "--"]
        try:
            done = subprocess.run([*prefix, "/bin/sh", "-c", "exit 0"], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=10)
        except (OSError, subprocess.SubprocessError) as exc:
            said = str(exc)
            continue
        if done.returncode == 0:
            return prefix, None
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        said = said[0]
    return [], f"unshare cannot make user and network namespaces ({said})"


_noted = False


def isolation_note() -> None:
    """Say on standard error, once per process, that commands run with the network and without a
    namespace of their own when :func:`isolation` found none."""
    global _noted
    problem = isolation()[1]
    if problem is None or _noted:
        return
    _noted = True
    try:
        sys.stderr.write(f"pi-conformance: !command values run without network isolation: {problem}; "
                         "each still runs in its own scratch folder and process group\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError, UnicodeError):
        pass


def run_contained(command: str, env: Mapping[str, str], time_limit_s: float) -> CommandResult:
    """Run ``command`` as the reference does (:func:`reference.pi.host.commands.run_shell_command`),
    contained: a :data:`~reference.pi.core.values.CommandRunner`. Returns its result (exit code
    ``None`` when the time limit ended it).

    The command gets the environment the kit gives an adapter
    (:class:`~conformance.adapters.environment.AdapterEnvironment`, ``HOME`` and ``TMPDIR`` in its
    own scratch folder) with the variables ``env`` over it; that scratch folder as its working
    folder, removed afterwards with whatever it wrote; no standard input, and a process group
    killed when it ends or its time limit does, so that nothing it started outlives it; and, where
    the system allows it, new user, network and process namespaces (``unshare``): no network but
    loopback, and every process it started ends with it. Where they are not available that is said
    once per run (:func:`isolation_note`). The pi-node adapter runs Pi's own commands the same way."""
    import tempfile

    from conformance.adapters.environment import AdapterEnvironment
    from conformance.output.removal import remove_tree
    from reference.pi.host.commands import run_shell_command

    isolation_note()
    scratch = tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")
    try:
        os.mkdir(os.path.join(scratch, "home"))
        os.mkdir(os.path.join(scratch, "tmp"))
        variables = {**AdapterEnvironment().variables(Path(scratch)), **env}
        return run_shell_command(command, variables, time_limit_s, cwd=scratch, wrapper=isolation()[0])
    finally:
        remove_tree(scratch)

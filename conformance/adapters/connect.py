"""An adapter from its name, as ``--adapter`` gives it (docs/adapters.md, "Adapter names";
:func:`make_adapter`)."""

from __future__ import annotations

import os
import shlex
from dataclasses import replace
import sys
from pathlib import Path

from conformance.adapters.base import Adapter, AdapterNameError, AdapterStartError
from conformance.adapters.environment import AdapterEnvironment

__all__ = ["AdapterNameError", "ADAPTER_NAMES", "kit_module_command", "make_adapter", "out_of_process",
           "parse_command", "pi_node_command", "python_process_command", "serve_reference_command"]

ADAPTERS_DIR = Path(__file__).resolve().parent
ADAPTER_NAMES = ("reference (default), serve-reference, pi-node, pi-node@VERSION, pi-node-mz@VERSION, "
                 "envelope-ts:PATH, profiles-ts:PATH, python:MODULE:CLASS, python-process:MODULE:CLASS, or a command")
"""What ``--adapter`` accepts, as the command-line help says it."""


def parse_command(command: str) -> list[str]:
    """The argument list of an ``--adapter CMD`` string (shell-like quoting, no shell run).

    ``'node adapter.mjs --flag "a b"'`` gives ``["node", "adapter.mjs", "--flag", "a b"]``.
    Raises ``ValueError`` for an empty command or unbalanced quotes.
    """
    argv = shlex.split(command, posix=os.name != "nt")
    if not argv:
        raise ValueError("the adapter command is empty")
    return argv


def pi_node_command() -> list[str]:
    """The command line of the bundled Node adapter over the published Pi (see ADAPTERS.md).

    Raises :class:`AdapterStartError` when the adapter's folder is missing.
    """
    folder = ADAPTERS_DIR / "pi-node"
    launcher = folder / "run.sh"
    if not launcher.exists():
        raise AdapterStartError(f"the pi-node adapter is not present at {folder}")
    return ["bash", str(launcher)]


EXTENSION_AREAS = {"envelope-ts": ("envelope", "the pi-developer-messages package folder"),
                   "profiles-ts": ("profiles", "pi-prompt-profiles")}
"""The ``NAME:PATH`` adapters over an extension's checkout: the area each serves, and what PATH holds."""


def extension_command(spec: str) -> list[str] | None:
    """The command line of the ext-ts adapter for ``envelope-ts:PATH`` or ``profiles-ts:PATH``
    (None for any other name): ``bash ext-ts/run.sh AREA ABSOLUTE-PATH``.

    Raises :class:`AdapterStartError` (exit 3) when PATH is empty or is not a folder.
    """
    name, sep, path = spec.partition(":")
    if not sep or name not in EXTENSION_AREAS:
        return None
    area, holds = EXTENSION_AREAS[name]
    if not path:
        raise AdapterStartError(f"--adapter {name}:PATH needs the path of a checkout of {holds}")
    folder = Path(path).expanduser().resolve()
    if not folder.is_dir():
        raise AdapterStartError(f"--adapter {spec}: no checkout of {holds} at {folder} (not a folder)")
    return ["bash", str(ADAPTERS_DIR / "ext-ts" / "run.sh"), area, str(folder)]


KIT_ROOT = ADAPTERS_DIR.parent.parent
"""The folder that holds the kit's own packages, ``conformance`` and ``reference``."""


def kit_module_command(module: str, *args: str) -> list[str]:
    """The command line that runs the kit's own ``module`` (``python -m MODULE ARGS``) in a
    child Python, importing the kit's packages whatever the current folder holds.

    ``python -m`` puts the current folder first on the module path, so a folder holding a module
    or package named ``reference`` or ``conformance`` (a user's own) would be imported instead of
    the kit's; ``-P`` (Python 3.11) leaves the current folder out. Only when the current folder is
    the one holding the kit's packages (a source checkout run without installing) is it kept, as
    it is then the only place the child finds them.
    """
    try:
        here = Path.cwd().resolve()
    except OSError:  # the current folder was removed
        here = None
    safe = [] if here == KIT_ROOT.resolve() else ["-P"]
    return [sys.executable, *safe, "-m", module, *args]


def serve_reference_command() -> list[str]:
    """The command line that serves the bundled reference over the JSON-lines protocol
    (:func:`kit_module_command`)."""
    return kit_module_command("conformance.adapters.server")


def python_process_command(spec: str) -> tuple[list[str], dict[str, str]]:
    """The command line that serves the ``Implementation`` ``spec`` (``MODULE:CLASS``) in a child
    Python (``python -m conformance.adapters.server MODULE:CLASS``), and the variable that lets it
    import ``MODULE`` from where ``python:`` would: ``PYTHONPATH`` with the current folder first.

    Raises :class:`AdapterNameError` when ``spec`` is not of the form ``MODULE:CLASS``."""
    module_name, _, class_name = spec.partition(":")
    if not class_name.isidentifier() or not all(part.isidentifier() for part in module_name.split(".")):
        raise AdapterNameError(f"--adapter python-process:{spec}: give python-process:MODULE:CLASS, a module's "
                               "dotted name and the name of its Implementation class")
    try:
        here = [os.getcwd()]
    except OSError:  # the current folder was removed
        here = []
    path = os.pathsep.join(here + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    return kit_module_command("conformance.adapters.server", spec), {"PYTHONPATH": path}


def runs_in_process(spec: str | None) -> bool:
    """Whether the adapter named by ``spec`` runs inside the kit (the bundled reference, a
    ``python:`` implementation) rather than as a process the kit starts."""
    return spec in (None, "reference") or spec.startswith("python:")


def make_adapter(spec: str | None, environment: AdapterEnvironment | None = None) -> Adapter:
    """The adapter named by ``spec``; not started yet.

    Names: ``reference`` (or ``None``): the bundled reference, in process; ``python:MODULE:CLASS``:
    a Python :class:`~conformance.adapters.base.Implementation`, in process;
    ``python-process:MODULE:CLASS``: the same implementation served over the JSON-lines protocol
    by a child Python of its own (:func:`python_process_command`), so that nothing it does to its
    process (``os._exit``, a thread left running, a swallowed signal, a hang) reaches the kit;
    ``serve-reference``: the reference served by a child process; ``pi-node``: the bundled Node
    adapter over the published Pi it pins (1.6.0); ``pi-node@VERSION``, ``pi-node-mz@VERSION``:
    the same adapter over another published release, installed into the kit's cache on first
    use (:mod:`conformance.adapters.releases`); ``envelope-ts:PATH``, ``profiles-ts:PATH``: the
    bundled ext-ts adapter over the TypeScript sources of an extension's checkout at PATH
    (:func:`extension_command`); anything else: a command line (split like a POSIX shell) that
    speaks the JSON-lines protocol.

    ``environment``: how an out-of-process adapter's environment is built (default: the kit's
    documented one, nothing added); an in-process adapter shares the kit's, so variables added to
    it (``--adapter-env``) would be lost on one.

    Raises :class:`AdapterNameError` for an empty name, a command with unbalanced quotes, or added
    variables with an in-process adapter, and :class:`AdapterStartError` when a ``python:``
    implementation cannot be loaded, the pi-node adapter is missing, a release named
    (``pi-node@VERSION``) cannot be installed, or an extension's checkout (``envelope-ts:PATH``)
    is not a folder.
    """
    from conformance.adapters.inprocess import InProcessAdapter, load_implementation
    from conformance.adapters.reference import ReferenceImplementation

    if spec is not None and not spec.strip():
        raise AdapterNameError("--adapter is empty: name an adapter (`reference` for the bundled one)")
    if environment is not None and environment.extra and runs_in_process(spec):
        raise AdapterNameError(f"--adapter-env is for an adapter the kit starts as a process; {spec or 'reference'} "
                               "runs inside the kit and shares its environment: set the variables there instead")
    if spec in (None, "reference"):
        return InProcessAdapter(ReferenceImplementation())
    if spec.startswith("python:"):
        return InProcessAdapter(load_implementation(spec[len("python:"):]))
    from conformance.adapters.client import JsonLinesAdapter

    if spec.startswith("python-process:"):
        command, variables = python_process_command(spec[len("python-process:"):])
        environment = environment or AdapterEnvironment()
        environment = replace(environment, extra={**variables, **environment.extra})
        return JsonLinesAdapter(command, name=spec, environment=environment)
    if spec == "serve-reference":
        return JsonLinesAdapter(serve_reference_command(), name="serve-reference", environment=environment)
    if spec == "pi-node":
        return JsonLinesAdapter(pi_node_command(), name="pi-node", environment=environment)
    extension = extension_command(spec)
    if extension is not None:
        return JsonLinesAdapter(extension, name=spec, environment=environment)
    from conformance.adapters.releases import parse_release, release_command

    release = parse_release(spec)
    if release is not None:
        return JsonLinesAdapter(release_command(release), name=release.name, environment=environment)
    try:
        command = parse_command(spec)
    except ValueError as exc:
        raise AdapterNameError(f"--adapter {spec!r}: {exc}") from None
    meant = meant_names(spec, command)
    if meant:
        raise AdapterNameError(f"--adapter {spec!r}: no adapter has that name, and no command {command[0]!r} is "
                               f"found; did you mean {' or '.join(meant)}?")
    return JsonLinesAdapter(command, name=spec, environment=environment)


NAME_HEADS = ("reference", "serve-reference", "pi-node", "pi-node@", "pi-node-mz@", "envelope-ts:",
              "profiles-ts:", "python:", "python-process:")
"""How each adapter name of :data:`ADAPTER_NAMES` begins: the whole name, or the part up to its
``@`` or ``:``."""


def meant_names(spec: str, command: list[str]) -> list[str]:
    """The adapter names ``spec`` is probably a misspelling of (``reference`` for ``refrence``,
    ``python:m:C`` for ``pyhton:m:C``): none unless ``spec`` is one word (``command``, its split)
    that names no program found on ``PATH`` or as a file, and the part that names the adapter
    (up to an ``@`` or ``:``) is close to one of :data:`NAME_HEADS`
    (:func:`conformance.operations.close_names`)."""
    import shutil

    from conformance.operations import close_names

    if len(command) != 1 or shutil.which(command[0]) or os.path.exists(command[0]):
        return []
    cut = min((i + 1 for i in (spec.find("@"), spec.find(":")) if i >= 0), default=len(spec))
    head, rest = spec[:cut], spec[cut:]
    return [near + rest for near in close_names(head, NAME_HEADS)]


def out_of_process(adapter: Adapter) -> bool:
    """Whether the kit starts ``adapter`` as a process of its own (so it controls its environment)."""
    from conformance.adapters.client import JsonLinesAdapter

    return isinstance(adapter, JsonLinesAdapter)

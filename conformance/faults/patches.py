"""Patches of the reference: how a seeded fault (:class:`conformance.faults.runner.Fault`) is applied
while a request runs and undone after, and why a fault that cannot be applied is reported as broken
rather than run."""

from __future__ import annotations

import __future__
import importlib
import inspect
import sys
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Collection, Iterator, Sequence

PATCHED_PACKAGES = ("reference", "conformance.adapters.reference")
"""Modules whose bindings a patch rewrites (the reference and its operation handlers)."""


class FaultError(Exception):
    """A fault that cannot be applied (its target does not exist) or a faults module that cannot
    be loaded."""


@dataclass(frozen=True)
class Patch:
    """Replace ``target`` (``"package.module:attribute"``) while a fault is applied.

    ``make(original)`` returns the replacement; it gets the original object so a replacement can
    wrap it.
    """

    target: str
    make: Callable[[Any], Any]


def replace(target: str, value: Any) -> Patch:
    """A patch that sets ``target`` to ``value`` (a constant or a function)."""
    return Patch(target, lambda _original: value)


def wrap(target: str, make: Callable[[Any], Any]) -> Patch:
    """A patch that sets ``target`` to ``make(original)``."""
    return Patch(target, make)


def mutate(target: str, old: str, new: str) -> Patch:
    """A patch that rewrites the source of the function ``target``: the text ``old``, which must
    occur exactly once in it, becomes ``new``; the function is compiled again in its own module.

    The fault reads as the mistake itself (``"< limit"`` written ``"<= limit"``). Raises
    :class:`FaultError` when ``old`` does not occur exactly once or the result does not compile.
    """
    return Patch(target, lambda original: _mutated(target, original, old, new))


_MUTANTS: dict[tuple[str, str, str, int], Any] = {}


def _mutated(target: str, original: Any, old: str, new: str) -> Any:
    key = (target, old, new, id(original))
    if key in _MUTANTS:
        return _MUTANTS[key]
    try:
        source = textwrap.dedent(inspect.getsource(original))
    except (OSError, TypeError) as exc:
        raise FaultError(f"patch target {target}: no source to rewrite ({exc})") from exc
    count = source.count(old)
    if count != 1:
        raise FaultError(f"patch target {target}: {old!r} occurs {count} times in its source, not once")
    namespace: dict[str, Any] = {}
    try:
        code = compile(source.replace(old, new), f"<fault {target}>", "exec",
                       flags=__future__.annotations.compiler_flag, dont_inherit=True)
        exec(code, original.__globals__, namespace)  # noqa: S102 - the reference's own source, rewritten
    except SyntaxError as exc:
        raise FaultError(f"patch target {target}: the rewritten source does not compile: {exc}") from exc
    _MUTANTS[key] = namespace[original.__name__]
    return _MUTANTS[key]


_PREFIXES = tuple(f"{p}." for p in PATCHED_PACKAGES)


def _modules() -> list[Any]:
    return [m for name, m in list(sys.modules.items()) if m is not None and f"{name}.".startswith(_PREFIXES)]


def _resolve(target: str) -> tuple[Any, str, Any]:
    """``(owner, attribute, value)`` of ``"module:attribute"`` or ``"module:Class.method"``."""
    module_name, _, path = target.partition(":")
    if not module_name or not path:
        raise FaultError(f"patch target must be 'module:attribute', got {target!r}")
    try:
        owner: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise FaultError(f"patch target {target}: {exc}") from exc
    *outer, attr = path.split(".")
    for name in outer + [attr]:
        if not hasattr(owner, name):
            raise FaultError(f"patch target {target}: {getattr(owner, '__name__', owner)} has no attribute {name!r}")
        if name in outer:
            owner = getattr(owner, name)
    return owner, attr, getattr(owner, attr)


Binding = tuple[Any, Any, bool]
"""Where a patched object is bound: ``(module, name, False)`` or ``(dict, key, True)``."""

_BINDINGS: dict[str, tuple[Any, Any, list[Binding]]] = {}
"""Per patch target, the last scan of :func:`_bindings`: ``(modules stamp, object, bindings)``."""


def _modules_stamp() -> tuple[int, Any, int]:
    """What changes when a module is imported or removed: how many there are, and the last one."""
    last = next(reversed(sys.modules), None)
    return len(sys.modules), last, id(sys.modules.get(last))


def _bindings(target: str, attr: str, original: Any) -> list[Binding]:
    """Every module-level binding of ``original`` in the modules of :data:`PATCHED_PACKAGES`: for a
    function, under any name and as a value of a module-level ``dict``; for any other value, only
    under the name ``attr``.

    Scanning every module's namespace is most of the cost of a fault's request, and a fault is
    applied once per request: the scan is kept per target and made again only when a module has
    been imported or removed since, or a binding it found no longer holds ``original``. (The
    reference binds its functions when its modules are imported.)"""
    stamp = _modules_stamp()
    kept = _BINDINGS.get(target)
    if kept is not None and kept[0] == stamp and kept[1] is original and all(
            (owner.get(key) if is_dict else vars(owner).get(key)) is original for owner, key, is_dict in kept[2]):
        return kept[2]
    is_function = callable(original) and not isinstance(original, type)
    found: list[Binding] = []
    for mod in _modules():
        for name, value in list(vars(mod).items()):
            if value is original and (name == attr or is_function):
                found.append((mod, name, False))
            elif is_function and isinstance(value, dict) and not name.startswith("__"):
                found += [(value, key, True) for key, item in list(value.items()) if item is original]
    _BINDINGS[target] = (stamp, original, found)
    return found


def applied(fault: Any) -> Any:
    """A context manager applying ``fault``'s patches (a :class:`~conformance.faults.runner.Fault`'s), undoing them on exit.

    A target is ``"module:attribute"`` or ``"module:Class.method"``. A patch rebinds the attribute
    in its own module (or class) and wherever the reference (or its handlers)
    imported the same object: for a function, under any name and as a value of a module-level
    ``dict`` (dispatch tables); for any other value, only under the same name. Raises
    :class:`FaultError` when a target does not exist.
    """
    return _applied(fault.patches)


@contextmanager
def _applied(patches: Sequence[Patch]) -> Iterator[None]:
    """Apply ``patches`` (see :func:`applied`), undo them on exit."""
    from conformance.adapters.reference import handlers

    handlers()  # import every handler module, so their bindings are patched too
    undo: list[Callable[[], None]] = []
    try:
        for patch in patches:
            module, attr, original = _resolve(patch.target)
            new = patch.make(original)
            for owner, key, is_dict in _bindings(patch.target, attr, original):
                if is_dict:
                    owner[key] = new
                    undo.append(lambda d=owner, k=key, v=original: d.__setitem__(k, v))
                else:
                    setattr(owner, key, new)
                    undo.append(lambda m=owner, n=key, v=original: setattr(m, n, v))
            if getattr(module, attr) is not new:  # a target bound under another name only
                setattr(module, attr, new)
                undo.append(lambda m=module, n=attr, v=original: setattr(m, n, v))
        yield
    finally:
        for fn in reversed(undo):
            fn()


def cannot_apply(patches: Sequence[Patch]) -> str | None:
    """Why ``patches`` cannot be applied (the :class:`FaultError` message: a target that does not
    exist, a rewrite whose text does not occur exactly once in its function or does not compile),
    or ``None`` when they can. Applies them once and undoes them."""
    try:
        with _applied(patches):
            pass
    except FaultError as exc:
        return str(exc)
    return None


def unknown_clause(module: str, fault: Any, known: Collection[str]) -> None:
    """Refuse a ``fault`` of the faults module ``module`` that names a clause not in ``known`` (the
    catalogue's ids): a misspelt id would make the fault prove nothing. Raises :class:`FaultError`
    naming the module, the fault, the clause and the closest known ids."""
    import difflib

    for clause in fault.clauses:
        if clause not in known:
            near = difflib.get_close_matches(clause, sorted(known), n=2)
            raise FaultError(f"{module}: fault {fault.id} names the unknown clause {clause}"
                             + (f"; did you mean {' or '.join(near)}?" if near else " (see the catalogue, conformance/spec/)"))

"""The locale check (ENV-DECISION-CONTRIBUTIONS: "the order never depends on the machine's locale"):
the cases of the collation clauses, run again with the adapter started under other locales, must
give the same answers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from conformance.judge import golden
from conformance.adapters.base import Adapter, Answer
from conformance.adapters.environment import LOCALE, AdapterEnvironment
from conformance.judge.normalise import replace_root

__all__ = ["DEFAULT_LOCALES", "LocaleChange", "LocaleCheck", "collation_cases", "first_difference", "known_locale",
           "not_installed", "parse_locales"]

DEFAULT_LOCALES = ("da_DK.UTF-8", "tr_TR.UTF-8", "POSIX")
"""The locales the check uses unless told otherwise: Danish (``aa`` after ``z``, ``A`` before
``a``), Turkish (dotted and dotless i) and the plain POSIX locale."""


@dataclass(frozen=True)
class LocaleChange:
    """A case whose answer under ``locale`` differs from its answer under the kit's own locale.

    ``base`` and ``changed`` are the two answers in short form: ``("result", output)`` (output
    normalised as the case says), ``("error", code)`` or ``(kind, None)``."""

    case_id: str
    locale: str
    base: tuple
    changed: tuple

    @property
    def message(self) -> str:
        """One line naming the locale and the first place where the answers differ."""
        where, was, now = first_difference(self.base, self.changed)
        return (f"the answer changes with the machine's locale (ENV-DECISION-CONTRIBUTIONS): under {self.locale}, {where or 'the answer'} "
                f"is {_clip(now)} where under {LOCALE} it is {_clip(was)}")


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any]:
    """``(path, value in a, value in b)`` at the first place two JSON-like values differ, the path
    written like ``output.messages[0].id`` (``("", a, b)`` when they differ at the top)."""
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) == 2 and a[0] == b[0]:
        return first_difference(a[1], b[1], "output" if a[0] == "result" else a[0])
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key, _MISSING) != b.get(key, _MISSING):
                return first_difference(a.get(key, _MISSING), b.get(key, _MISSING), f"{path}.{key}" if path else key)
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
    return path, a, b


_MISSING = "(absent)"


def _clip(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, tuple) else " ".join(
        json.dumps(v, ensure_ascii=False, default=str) for v in value if v is not None)
    return text if len(text) <= limit else text[:limit] + "..."


def known_locale(name: str) -> bool:
    """Whether ``name`` (``language[_TERRITORY][.codeset][@modifier]``, or ``C``/``POSIX``) names a
    locale Python's table of locale names knows (``locale.locale_alias``), with a codeset Python
    has a codec for (``UTF-8``, ``ISO-8859-1``, ...) and a modifier that table uses (``@euro``,
    ``@latin``, ...), when given. ``xx_YY``, ``de_DE.FOO`` and ``de_DE@bogus`` are unknown."""
    import codecs
    import locale as _locale

    rest, at, modifier = name.partition("@")
    base, dot, codeset = rest.partition(".")
    if not base or base.lower() not in _locale.locale_alias:
        return False
    if dot:
        try:
            codecs.lookup(codeset)
        except LookupError:
            return False
    return not at or modifier.lower() in _modifiers()


def _modifiers() -> set[str]:
    """The ``@modifier`` parts of the locale names Python's table knows (``euro``, ``latin``, ...)."""
    import locale as _locale

    return {part.split("@", 1)[1].split(".", 1)[0].lower() for entry in _locale.locale_alias.items()
            for part in entry if "@" in part}


def not_installed(names: Sequence[str]) -> list[str]:
    """The locales of ``names`` this machine's C library cannot switch to (tried with
    ``locale.setlocale`` for ``LC_COLLATE`` and put back). An adapter that orders text through the
    C library runs under such a locale as under ``C``, so the check cannot show its dependence
    there; ICU-based runtimes (Node) need no installed locale."""
    import locale as _locale

    saved = _locale.setlocale(_locale.LC_COLLATE)
    missing = []
    try:
        for name in names:
            try:
                _locale.setlocale(_locale.LC_COLLATE, name)
            except _locale.Error:
                missing.append(name)
    finally:
        _locale.setlocale(_locale.LC_COLLATE, saved)
    return missing


def parse_locales(text: str) -> tuple[str, ...]:
    """``"da_DK.UTF-8,tr_TR.UTF-8,POSIX"`` as a tuple; raises ``ValueError`` when none is named,
    one is blank or holds white space, or one is not a locale name (see :func:`known_locale`)."""
    names = tuple(part.strip() for part in text.split(","))
    if not names or any(not n or any(c.isspace() for c in n) for n in names):
        raise ValueError(f"--locales {text!r}: expected locale names separated by commas, "
                         f"for example {','.join(DEFAULT_LOCALES)}")
    unknown = [n for n in names if not known_locale(n)]
    if unknown:
        raise ValueError(f"--locales {text!r}: {', '.join(unknown)} is not a locale name "
                         f"(language_TERRITORY[.codeset][@modifier] with a known codeset and modifier, C or POSIX; "
                         f"for example {','.join(DEFAULT_LOCALES)})")
    return names


def collation_cases(cases: Sequence, catalogue=None) -> list:
    """The cases that cite a clause naming a ``collation`` (in the order given)."""
    from conformance.corpus.cases import citations
    from conformance.corpus.catalogue import collation_clauses, load_catalogue

    clauses = collation_clauses(catalogue if catalogue is not None else load_catalogue())
    return [case for case in cases if clauses.intersection(citations(case, every=True))]


def _short(answer: Answer, case, roots: list[str]) -> tuple:
    if answer.kind == "result":
        try:
            return "result", golden.comparable(replace_root(answer.output, roots), case.normalise)
        except ValueError:
            return "result", answer.output
    if answer.kind == "error":
        return "error", answer.code
    return answer.kind, None


def _answers(adapter: Adapter, cases: Sequence, timeout: float) -> dict[str, tuple]:
    from conformance.judge.runner import Runner

    runner = Runner(adapter, timeout=timeout)
    runner.start()
    try:
        out = {}
        for case in cases:
            answer, roots, _ = runner.execute(case)
            out[case.id] = _short(answer, case, roots)
        return out
    finally:
        runner.stop()


@dataclass
class LocaleCheck:
    """A locale check ready to run: ``connect`` makes a new, unstarted adapter for an environment;
    ``cases`` (:func:`collation_cases`) are run under ``environment`` (the kit's own locale,
    ``C.UTF-8``) and then under each of ``locales``. A case whose answer changes is a failure of
    the implementation, reported with the locale that changed it. Only adapters the kit starts as
    a process can be checked: an in-process implementation shares the kit's locale."""

    connect: Callable[[AdapterEnvironment], Adapter]
    environment: AdapterEnvironment
    cases: Sequence
    locales: Sequence[str] = DEFAULT_LOCALES
    timeout: float = 10.0
    compared: int = 0
    """After :meth:`run`: how many cases the adapter answered (not ``unsupported``) in the kit's
    locale, so that a check over cases the adapter declines does not read as a pass."""

    def run(self) -> list[LocaleChange]:
        """Every answer that differs from the kit's locale's, by locale then case.

        Raises :class:`~conformance.adapters.base.AdapterStartError` when an adapter cannot start.
        """
        if not self.cases:
            return []
        base = _answers(self.connect(self.environment.with_locale(self.environment.locale)), self.cases,
                        self.timeout)
        self.compared = sum(answer[0] != "unsupported" for answer in base.values())
        changes = []
        for locale in self.locales:
            answers = _answers(self.connect(self.environment.with_locale(locale)), self.cases, self.timeout)
            changes += [LocaleChange(case.id, locale, base[case.id], answers[case.id])
                        for case in self.cases if answers[case.id] != base[case.id]]
        return changes

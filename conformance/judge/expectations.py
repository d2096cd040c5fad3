"""Per-implementation expectations files: the cases an implementation is known to fail, skip or not
support, and why. Strict by design: an entry that matches no case is an error, and an expected
failure that passes (an *unexpected pass*) fails the run."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from conformance.corpus.editions import names as edition_names
from conformance.corpus.public import private_reference
from conformance.corpus.yamlio import FileError, SuiteFileError, load_with_positions, validation_errors


class StaleExpectations(SuiteFileError):
    """An expectations file that loads but has entries that never apply to a case of the suite
    (:meth:`Expectations.stale_in`), one :class:`FileError` each."""


class Expectation(BaseModel):
    """One entry of an expectations file."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    status: Literal["fail", "skip", "unsupported"]
    reason: str = Field(min_length=1)
    link: str | None = None
    editions: list[str] | None = Field(default=None, min_length=1)
    _line: int = PrivateAttr(default=0)
    _column: int = PrivateAttr(default=0)

    @property
    def line(self) -> int:
        """The 1-based line of the entry's ``id`` in its file (0: unknown)."""
        return self._line

    @property
    def column(self) -> int:
        """The 1-based column of the entry's ``id`` in its file (0: unknown)."""
        return self._column


class ExpectationsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    implementation: str | None = None
    expectations: list[Expectation] = []


@dataclass
class Expectations:
    """Loaded expectations with the file they came from."""

    entries: list[Expectation]
    file: str = ""
    implementation: str | None = None
    """The file's ``implementation:`` ("NAME VERSION"), which the run compares with the adapter's."""

    def match(self, case_id: str, edition: str | None = None) -> Expectation | None:
        """The first entry matching ``case_id`` judged by ``edition`` (an entry with
        ``editions`` applies only to a case judged by one of them; ``edition`` ``None``: any)."""
        for entry in self.entries:
            if fnmatch.fnmatchcase(case_id, entry.id) and (
                    edition is None or entry.editions is None or edition in entry.editions):
                return entry
        return None

    def stale_in(self, suite: Any) -> list[FileError]:
        """:meth:`stale` against a loaded :class:`~conformance.corpus.cases.Suite` (every file's case ids,
        and the cases read); nothing when some file's ids are not known, as then no entry can be
        judged stale."""
        return [] if suite.unknown else self.stale(suite.ids, suite.by_id())

    def stale(self, all_ids: set[str], cases: dict | None = None) -> list[FileError]:
        """Entries that never apply to a case of the whole suite: those that match no case, those
        whose ``editions`` judge none of the cases they match, and those hidden because every
        case they match is matched by an earlier entry (the first matching entry applies).

        ``cases``: the loaded cases by id (objects with ``area`` and ``editions``), for the
        editions check; an entry matching a case not among them (its file not read) is not
        judged by editions."""
        from conformance.corpus.editions import of_area

        out = []
        for i, entry in enumerate(self.entries):
            matched = [cid for cid in sorted(all_ids) if fnmatch.fnmatchcase(cid, entry.id)]
            if not matched:
                out.append(FileError(self.file, entry.line, entry.column, f"expectations[{i}].id",
                                     f"{entry.id!r} matches no case"))
                continue
            if entry.editions is not None and cases is not None and all(cid in cases for cid in matched):
                held = {e for cid in matched for e in (cases[cid].editions or of_area(cases[cid].area))}
                if not held & set(entry.editions):
                    out.append(FileError(self.file, entry.line, entry.column, f"expectations[{i}].editions",
                                         f"{entry.id!r} never applies: the cases it matches are judged in "
                                         f"{', '.join(sorted(held)) or 'no edition'}, not in "
                                         f"{', '.join(entry.editions)}"))
                    continue
            earlier = [e for e in self.entries[:i] if e.editions is None
                       or (entry.editions is not None and set(entry.editions) <= set(e.editions))]
            if all(any(fnmatch.fnmatchcase(cid, e.id) for e in earlier) for cid in matched):
                first = self.match(matched[0])
                out.append(FileError(self.file, entry.line, entry.column, f"expectations[{i}].id",
                                     f"{entry.id!r} never applies: every case it matches is matched by an "
                                     f"earlier entry (first: {first.id!r}, line {first.line}); the first "
                                     "matching entry applies, so move it above or remove it"))
        return out


def _check_reason(entry: Expectation, i: int, shown: str, positions: dict) -> None:
    """Refuse a ``reason`` that cites a private working file or note instead of clause ids and
    public documents (:func:`conformance.corpus.public.private_reference`), with :class:`SuiteFileError`
    at that entry's ``reason``: a reader of the expectations file could not follow it."""
    found = private_reference(entry.reason)
    if found is not None:
        line, column = positions.get(("expectations", i, "reason"), (entry.line, entry.column))
        raise SuiteFileError(FileError(shown, line, column, f"expectations[{i}].reason",
                                       f"the reason cites {found!r}, which is not in the repository; cite "
                                       "clause ids and public documents by name"))


def load_expectations(path: Path) -> Expectations:
    """Read an expectations file (format in ``docs/expectations.md``: ``implementation:``, and
    ``expectations:``, entries of ``id`` (a case id or glob), ``status``, ``reason``, ``link`` and
    ``editions``; ``expectations: []`` expects every case to pass, while an empty file is an
    error). Raises :class:`SuiteFileError` naming file, line and field."""
    shown = str(path)
    data, positions = load_with_positions(path, shown, streams=True)
    if data is None:
        raise SuiteFileError(FileError(shown, 1, 1, "", "the file is empty; an expectations file lists its "
                                       "entries under `expectations:` (`expectations: []` when every case is "
                                       "expected to pass)"))
    if not isinstance(data, dict):
        found = "a list" if isinstance(data, list) else "not a mapping"
        raise SuiteFileError(FileError(shown, 1, 1, "", f"the top level is {found}; an expectations file is a "
                                       "mapping with `expectations:` (the list of entries, each with `id`, "
                                       "`status` and `reason`) and optionally `implementation:`"))
    try:
        parsed = ExpectationsFile.model_validate(data)
    except ValidationError as exc:
        raise SuiteFileError(*validation_errors(exc, shown, positions)) from None
    seen: dict[tuple, int] = {}
    for i, entry in enumerate(parsed.expectations):
        entry._line, entry._column = positions.get(("expectations", i, "id"), positions.get(("expectations", i), (0, 0)))
        _check_editions(entry, i, shown, positions)
        _check_reason(entry, i, shown, positions)
        key = (entry.id, tuple(sorted(entry.editions or ())))
        if key in seen:
            raise SuiteFileError(FileError(shown, entry.line, entry.column, f"expectations[{i}].id",
                                           f"{entry.id!r} is already listed at line {seen[key]}"))
        seen[key] = entry.line
    return Expectations(parsed.expectations, shown, parsed.implementation)


def _check_editions(entry: Expectation, i: int, shown: str, positions: Any) -> None:
    """Refuse an edition of ``entry`` (the ``i``-th of file ``shown``) that is not known or is
    listed twice, with :class:`SuiteFileError` at that item of ``editions``."""
    for k, name in enumerate(entry.editions or []):
        if name not in edition_names():
            problem = f"unknown edition {name!r}; the editions are {', '.join(edition_names())}"
        elif name in entry.editions[:k]:
            problem = f"{name!r} is listed twice (first at editions[{entry.editions.index(name)}])"
        else:
            continue
        line, column = positions.get(("expectations", i, "editions", k), (entry.line, entry.column))
        raise SuiteFileError(FileError(shown, line, column, f"expectations[{i}].editions[{k}]", problem))

"""Where a command may write its reports, pages and goldens, checked before it does any work: never
over what the command reads (its expectations, the suite's scenarios, goldens and catalogue) nor
among the files of the kit's or the reference's packages; goldens never among scenario files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from conformance.corpus.places import kit_folders  # noqa: F401 (the commands import it from here)
from conformance.corpus.places import resolved as _resolved
from conformance.output.files import kit_temporary, written_in_place
from conformance.output.ownership import check_replaceable


def kit_goldens_of_other_scenarios(golden_dir: Path, scenarios_dir: Path | None) -> bool:
    """Whether ``golden_dir`` is the kit's own golden folder while ``scenarios_dir`` (``None``: the
    kit's own scenarios) is another scenario folder, links resolved: the goldens there belong to
    the kit's cases, not to that folder's."""
    from conformance.corpus.cases import SCENARIOS_DIR
    from conformance.corpus.places import GOLDEN_DIR

    return (_resolved(Path(golden_dir)) == _resolved(GOLDEN_DIR)
            and _resolved(Path(scenarios_dir or SCENARIOS_DIR)) != _resolved(SCENARIOS_DIR))


def check_update_folders(golden_dir: Path, scenarios_dir: Path | None) -> None:
    """Refuse to write goldens into ``golden_dir`` when it is ``scenarios_dir`` (``None``: the
    kit's own scenarios), lies inside it or holds it, links resolved: goldens written there would
    be read as scenario files, or scenario files taken for goldens, by the next run; and into the
    kit's own golden folder for another scenario folder than the kit's (its goldens would lie
    among the kit's). Raises ``ValueError`` naming both folders; writes nothing."""
    from conformance.corpus.cases import SCENARIOS_DIR

    gold, scenarios = _resolved(Path(golden_dir)), _resolved(Path(scenarios_dir or SCENARIOS_DIR))
    if kit_goldens_of_other_scenarios(golden_dir, scenarios_dir):
        raise ValueError(f"the golden folder {gold} holds the kit's own goldens, which belong to the kit's own "
                         f"scenarios, not to those of {scenarios}: give --golden-dir a folder of their own")
    relation = ("is" if gold == scenarios else "lies inside" if gold.is_relative_to(scenarios)
                else "holds" if scenarios.is_relative_to(gold) else None)
    if relation is not None:
        raise ValueError(f"the golden folder {gold} {relation} the scenario folder {scenarios}: "
                         "goldens and scenario files must be kept apart to write goldens; "
                         "give --golden-dir a folder of its own")


KIT_FILES = "which holds the kit's own files (its scenarios, goldens, catalogue or code)"


def check_out_folder(flag: str, value: str, folders: Iterable[Path], *, allowed: Path | None = None) -> Path:
    """The folder ``value`` of option ``flag`` (``--out``) a command writes its files into, as a
    ``Path``, when it is neither one of ``folders`` (:func:`kit_folders`) nor inside one; the
    folder ``allowed`` itself is accepted all the same (``schema --out conformance/schema``
    regenerates the kit's own schemas); ``docs`` and ``schema`` so check theirs. Raises ``ValueError`` naming the option, the folder and
    the kit folder it lies in."""
    path = Path(value)
    try:
        resolved = path.resolve()
    except RuntimeError:  # pathlib's "Symlink loop"
        raise ValueError(f"{flag} {value}: a loop of symbolic links") from None
    if allowed is not None and resolved == allowed.resolve():
        return path
    inside = next((folder for folder in map(_resolved, folders) if resolved.is_relative_to(folder)), None)
    if inside is not None:
        place = f"is {inside}," if resolved == inside else f"is inside {inside},"
        raise ValueError(f"{flag} {value}: {place} {KIT_FILES}; give a folder of your own")
    return path


def check_report_paths(given: Sequence[tuple[str, str | None]], *, inputs: Mapping[str, str | None] | None = None,
                       folders: Iterable[Path] = ()) -> dict[str, Path]:
    """The report paths of ``given`` (``(option, value)`` pairs; ``None``: not asked for), as
    ``{option: path}``, each made absolute (so that it names the same file whatever folder the
    command is in when it writes); no folder is made (the writers make a report's missing
    folders when they write it, so that a command refused after this check leaves none). A path that
    exists and is not a regular file (a device, a FIFO, ``/dev/stdout``; see
    :func:`conformance.output.files.write_text`) is accepted when it can be opened for writing; a
    symbolic link is judged by the file it leads to. ``run``, ``faults`` and ``invariants`` call it
    before they start, so that a path that cannot be written costs nothing.

    Refused, with ``ValueError`` naming the option and the path: an empty value, a value ending
    in a slash (``Path`` would drop it and write a file where a folder was meant), ``-``
    (standard output is the console's), two options naming one file, a report naming one of
    ``inputs`` (``{option: path}`` of files the command reads) or lying in one of ``folders``
    (:func:`kit_folders`), a folder, an existing file the kit did not write
    (:func:`conformance.output.ownership.check_replaceable`), and a place no file can be written (checked by writing a
    temporary file there).
    """
    for flag, value in given:
        if value is None:
            continue
        if not value.strip():
            raise ValueError(f"{flag}: give a file name (an empty one writes nothing)")
        if value.endswith(("/", os.sep)):
            raise ValueError(f"{flag} {value}: ends in a slash, which names a folder; give a file name")
        if value == "-":
            raise ValueError(f"{flag} -: reports are written to files, the console takes standard output; "
                             "give a file name (./- if you mean a file called '-'), or /dev/stdout for the "
                             "report after the console's text")
    paths = {flag: Path(value) for flag, value in given if value}
    checked: dict[str, Path] = {}
    seen = {_resolved(Path(path)): flag for flag, path in (inputs or {}).items() if path}
    kept = [_resolved(folder) for folder in folders]
    for flag, path in paths.items():
        try:
            checked[flag] = _checked(flag, path, seen, kept)
        except RuntimeError:  # pathlib's "Symlink loop"
            raise ValueError(f"{flag} {path}: cannot write there: a loop of symbolic links") from None
        except OSError as exc:  # a name too long for the file system, say
            raise ValueError(f"{flag} {path}: cannot write there: {exc.strerror or exc}") from None
    return checked


def _checked(flag: str, path: Path, seen: dict[Path, str], kept: list[Path]) -> Path:
    """One report path of :func:`check_report_paths`, absolute, no folder made; ``seen``
    (resolved path: option) gains it. Raises ``ValueError`` for a refusal the caller's docstring
    lists, ``OSError`` or ``RuntimeError`` (a loop of links) for a path the system cannot take."""
    resolved = path.resolve()
    if resolved in seen:
        raise ValueError(f"{flag} and {seen[resolved]} name the same file {path}")
    seen[resolved] = flag
    inside = next((folder for folder in kept if resolved.is_relative_to(folder)), None)
    if inside is not None:
        raise ValueError(f"{flag} {path}: is inside {inside}, {KIT_FILES}; write reports elsewhere")
    if path.is_dir():
        raise ValueError(f"{flag} {path}: is a directory")
    check_replaceable(flag, path)
    # Resolved once, now: the file a relative path names must not change with the working
    # folder of an implementation run in process (an os.chdir of its own).
    absolute = Path(os.path.abspath(path))
    if written_in_place(path):  # a device, a FIFO, /dev/stdout: written where it is
        if not os.access(path, os.W_OK):
            raise ValueError(f"{flag} {path}: cannot write there: no permission to write to it")
        return absolute
    # through a link, the file it leads to is replaced
    check_folder_writable(f"{flag} {path}", Path(os.path.realpath(path)).parent)
    return absolute


def check_folder_writable(named: str, folder: Path) -> None:
    """Refuse, before any work, a folder no file can be written into, without making it or any
    folder above it (the writers make the missing ones when they write, so that a command refused
    later leaves none behind): a real file is made and removed in the deepest of ``folder`` and
    the folders above it that exists, so that a place no other check can judge (``/proc``, a
    read-only mount) is refused too; that also sweeps the folder's stale temporaries (a killed
    run's). Raises ``ValueError`` starting with ``named`` (the option and its value)."""
    parent = folder
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{named}: cannot write in {parent}")
    try:
        fd, probe = kit_temporary(parent, "probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ValueError(f"{named}: {_refusal(parent, exc)}") from None


def _refusal(folder: Path, exc: OSError) -> str:
    """Why no report can be written into ``folder`` (which exists, or was just made), from the
    error ``exc`` of creating a file there: said in the reader's terms, not as the system's
    bare "No such file or directory" (which ``/proc`` answers for a folder that plainly exists)."""
    import errno

    if exc.errno == errno.EROFS:
        return f"cannot write there: {folder} is on a read-only file system"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"cannot write there: no permission to create files in {folder}"
    if exc.errno == errno.ENOENT and folder.is_dir():
        return (f"cannot write there: {folder} takes no new files (the system provides the files of such a "
                "folder, as of /proc); give a path on an ordinary file system")
    return f"cannot write there: {exc.strerror or exc}"

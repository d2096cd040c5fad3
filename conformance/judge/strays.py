"""The files under a golden folder that belong to no case: misnamed, foreign, misplaced and
orphaned goldens, each a suite error whatever the selection (:mod:`conformance.judge.golden`
says where a golden belongs)."""

from __future__ import annotations

import os
from pathlib import Path

from conformance.corpus import yamlio
from conformance.judge import golden
from conformance.judge.golden import golden_folders, golden_names
from conformance.output.files import sweep_temporaries, temporary_owner

FOREIGN_HINT = ("not a golden: goldens are files <area>/<case-id>.yaml or <area>@<edition>/<case-id>.yaml "
                "directly under the golden folder, so this one is never read; move it there or delete it")
"""The message of a file under the golden folder that is in no golden's place."""


def foreign(golden_dir: Path) -> list[Path]:
    """Every entry under ``golden_dir`` that is in no golden's place, sorted: a file at the top,
    a folder that is not an area's or an edition's (and so all it holds), a folder or a link not named as a golden
    inside a golden folder, an entry there whose name ends neither in ``.yaml`` nor in
    :data:`conformance.judge.golden.MISNAMED` (reported by :func:`misnamed`). Links are never
    followed; one in a golden's place is left to the reader of its golden, which refuses it.
    A kit temporary (an interrupted ``--update-goldens``'s) is not: the stale ones are removed
    (:func:`conformance.output.files.sweep_temporaries`), the others belong to a writer still running."""
    found: list[Path] = []
    allowed = golden_folders()
    try:
        top = list(os.scandir(golden_dir))
    except OSError:
        return []
    for entry in top:
        if not entry.is_dir(follow_symlinks=False) or entry.name not in allowed:
            found.append(Path(entry.path))
            continue
        sweep_temporaries(entry.path)
        try:
            inside = list(os.scandir(entry.path))
        except OSError:
            continue
        found += [Path(e.path) for e in inside if temporary_owner(e.name) is None and not _in_a_goldens_place(e)]
    return sorted(found)


def _in_a_goldens_place(entry: os.DirEntry) -> bool:
    """Whether an entry of a golden folder stands where a golden does: a file named ``*.yaml`` (or
    :data:`conformance.judge.golden.MISNAMED`), or anything else so named that is not a folder (a
    link, a FIFO, a device, a socket), which the reader of its case's golden refuses (a link is
    not followed, the others are not regular files), so that it is reported once, and truly."""
    if not entry.name.endswith((".yaml", golden.MISNAMED)):
        return False
    try:
        return entry.is_symlink() or not entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def misplaced(golden_dir: Path, areas: dict[str, str]) -> list[Path]:
    """Goldens ``<folder>/<case-id>.yaml`` whose case (``areas``: the id of each case expecting a
    golden, to its area) is of another area than the folder's: never read, since a case's golden
    is in its own area's folder."""
    return sorted(golden_dir / folder / name for folder, name in golden_names(golden_dir)
                  if name[:-len(".yaml")] in areas and areas[name[:-len(".yaml")]] != folder.split("@")[0])


def stray_errors(golden_dir: Path, golden_ids: set[str] | None, areas: dict[str, str] | None) -> list[yamlio.FileError]:
    """A suite error for every file under ``golden_dir`` that belongs to no case: misnamed
    (:func:`conformance.judge.golden.misnamed`), foreign (:func:`foreign`), misplaced and orphaned (judged only when
    ``golden_ids`` and ``areas`` are known, that is when every scenario file was read)."""
    errors = golden.misnamed(golden_dir) + [yamlio.FileError(str(p), 0, 0, "", FOREIGN_HINT) for p in foreign(golden_dir)]
    if areas is not None:
        errors += [yamlio.FileError(str(p), 0, 0, "", f"golden of a case of area {areas[p.stem]!r} in the "
                                    f"{p.parent.name} folder, so it is never read: move it to "
                                    f"{areas[p.stem]}/{p.name} (or its edition's folder)")
                   for p in misplaced(golden_dir, areas)]
    if golden_ids is not None:
        errors += [yamlio.FileError(str(p), 0, 0, "", golden.ORPHAN_HINT) for p in golden.orphans(golden_dir, golden_ids)]
    return errors

"""Where the kit's own files are: its golden folder, and the folders no report, page or cache may
be written into. Imports nothing of the kit, so that the parse cache can ask it too."""

from __future__ import annotations

import os
from pathlib import Path


def default_golden_dir() -> Path:
    """Where the goldens are: the copy an installed wheel carries (``conformance/_golden``, made by
    ``setup.py`` at build time), else ``golden/`` at the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "_golden"
    return packaged if packaged.is_dir() else package.parent / "golden"


GOLDEN_DIR = default_golden_dir()


def kit_folders(*given: str | Path | None) -> list[Path]:
    """The folders no report or cache may be written into: the ``conformance`` and ``reference``
    packages (the bundled scenarios, catalogue and schemas among them), the default golden folder,
    and ``given`` (a suite's own scenario, golden or catalogue folder; ``None`` left out)."""
    import conformance
    import reference

    found = [Path(conformance.__file__).parent, Path(reference.__file__).parent, GOLDEN_DIR]
    return found + [Path(folder) for folder in given if folder]


def resolved(folder: str | Path) -> Path:
    """``folder`` with its links resolved, or as an absolute path when it cannot be (a loop of
    symbolic links, a name too long): such a folder holds no file anything could replace, and
    the command says what is wrong with it where it reads it."""
    try:
        return Path(folder).resolve()
    except (RuntimeError, OSError):
        return Path(os.path.abspath(folder))

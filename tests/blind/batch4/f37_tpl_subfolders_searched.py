"""pi.load-templates -- PI-TPL-DIRS.
Bug: a conventional prompts folder is searched with a recursive glob ("**/*.md"), so templates in its subfolders load too, though only its direct children are templates."""

from pathlib import Path

from reference.pi.host import disk
from tests.blind.common import everywhere, swapped


def _files(directory):
    if not directory.is_dir():
        return []
    found = [p for p in Path(directory).rglob("*.md")
             if not any(part.startswith(".") for part in p.relative_to(directory).parts) and p.is_file()]
    return sorted(found, key=lambda p: p.relative_to(directory).as_posix())


def handle(msg, call):
    with swapped(everywhere(disk.template_files, _files)):
        return call()

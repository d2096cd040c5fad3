"""pi.load-templates -- PI-TPL-EXPLICIT-ORDER, PI-TPL-EXPLICIT-MISSING-ONCE.
Bug: an explicit path is joined to the working directory without folding "..", so "b/x/../one.md" and "b/one.md" are two files (the second reported as a name collision) and "extra" and "x/../extra" two missing paths."""

import os
from pathlib import Path

from reference.pi.host import disk
from reference.text import js_trim
from tests.blind.common import everywhere, swapped


def _explicit(cwd, paths):
    files, missing = [], []
    for raw in paths:
        path = Path(cwd, js_trim(raw))
        if path.is_dir():
            files.extend(disk.template_files(path))
        elif path.is_file():
            if path.name.endswith(".md"):
                files.append(path)
        elif path not in missing:
            missing.append(path)
    return files, missing


def handle(msg, call):
    with swapped(everywhere(disk.explicit_template_files, _explicit)):
        return call()

"""envelope.environment -- ENV-CWD-SLASHES.
Bug: each run of backslashes is made one slash (replace(/\\+/g, "/")), so a UNC cwd "\\\\server\\share" is shown as "/server/share" instead of "//server/share"."""

import re

from reference.envelope import environment
from tests.blind.common import everywhere, swapped


def _slashes(path):
    return re.sub(r"\\+", "/", path)


def handle(msg, call):
    with swapped(everywhere(environment.slash_path, _slashes)):
        return call()

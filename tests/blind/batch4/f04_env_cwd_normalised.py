"""envelope.environment -- ENV-CWD-SLASHES.
Bug: after making backslashes slashes the cwd is also normalised as a POSIX path (posixpath.normpath), so "..", "." and doubled or trailing slashes are folded away."""

import posixpath

from reference.envelope import environment
from tests.blind.common import everywhere, swapped


def _slashed(path):
    text = path.replace("\\", "/")
    return posixpath.normpath(text) if text else text


def handle(msg, call):
    with swapped(everywhere(environment.slash_path, _slashed)):
        return call()

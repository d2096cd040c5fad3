"""profiles.load -- PROF-LOAD-BOM, PROF-LOAD-VERBATIM.
Bug: byte-order marks are removed with a loop (while text starts with U+FEFF), so a second leading BOM is removed too."""

from reference.profiles.core import profiles
from tests.blind.common import everywhere, swapped


def _strip(data):
    while data.startswith(profiles.BOM):
        data = data[len(profiles.BOM):]
    return data


def handle(msg, call):
    with swapped(everywhere(profiles.strip_bom, _strip)):
        return call()

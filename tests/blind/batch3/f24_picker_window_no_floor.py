"""profiles.picker -- PROF-PICKER-WINDOW.
Bug: the list height is min(10, rows - 4) without the floor of one row, so a terminal of four rows or fewer shows no row."""

from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped


def handle(msg, call):
    with swapped(everywhere(picker.visible_rows, lambda rows: max(0, min(10, rows - 4)))):
        return call()

"""profiles.picker -- PROF-PICKER-WINDOW.
Bug: the window starts half its rows rounded up (Math.ceil) before the selected item, so with an odd number of rows the selection sits one row below the middle."""

from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped


def _window(total, selected, rows):
    if total <= rows:
        return 0, total
    sel = min(max(selected, 0), total - 1)
    start = min(max(sel - (rows + 1) // 2, 0), total - rows)
    return start, start + rows


def handle(msg, call):
    with swapped(everywhere(picker.visible_window, _window)):
        return call()

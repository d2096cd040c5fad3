"""profiles.picker -- PROF-PICKER-WINDOW-CLAMP.
Bug: the window start is only kept from going below zero, never above total - rows, so near the end of the list the window runs past the last item and shows fewer rows."""

from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped


def _window(total, selected, rows):
    if total <= rows:
        return 0, total
    sel = min(max(selected, 0), total - 1)
    start = max(sel - rows // 2, 0)
    return start, min(start + rows, total)


def handle(msg, call):
    with swapped(everywhere(picker.visible_window, _window)):
        return call()

"""profiles.picker -- PROF-PICKER-FILTER.
Bug: the filter ignores case with Python's str.casefold(), so "ss" finds "ß", "fi" finds "ﬁ" and a final "ς" finds "σ"."""

from reference.profiles.core import picker
from reference.text import js_trim
from tests.blind.common import everywhere, swapped


def _filter(items, query):
    q = js_trim(query).casefold()
    return list(items) if not q else [i for i in items if q in i.casefold()]


def handle(msg, call):
    with swapped(everywhere(picker.filter_items, _filter)):
        return call()

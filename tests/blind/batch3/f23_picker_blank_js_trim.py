"""profiles.picker -- PROF-PICKER-FILTER.
Bug: the query is trimmed with Python's str.strip(), which also removes U+0085 and U+001C..U+001F, so a query of those characters counts as blank and keeps every item. (Written blind as the mirror bug, JavaScript's trim, when the clause's blank set was Python's; PROF-PICKER-FILTER has since been decided for JavaScript's trim, so the fault now models the set the clause excludes.)"""

from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped


def _filter(items, query):
    q = query.strip().lower()
    return list(items) if not q else [i for i in items if q in i.lower()]


def handle(msg, call):
    with swapped(everywhere(picker.filter_items, _filter)):
        return call()

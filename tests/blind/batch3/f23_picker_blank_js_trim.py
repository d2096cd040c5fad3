"""profiles.picker -- PROF-PICKER-FILTER.
Bug: a blank query is recognised with JavaScript's trim(), which keeps U+0085 and U+001C..U+001F, so such a query filters every item out instead of keeping all."""

from reference.envelope.contributions import js_trim
from reference.profiles.core import picker
from tests.blind.common import everywhere, swapped


def _filter(items, query):
    q = js_trim(query).casefold()
    return list(items) if not q else [i for i in items if q in i.casefold()]


def handle(msg, call):
    with swapped(everywhere(picker.filter_items, _filter)):
        return call()

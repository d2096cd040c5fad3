"""envelope.developer-messages -- ENV-ORDER-TIEBREAK, ENV-ORDER-CODEPOINT.
Bug: equal priorities are ordered by id.toLowerCase() compared by code unit (a plain < after lowercasing): punctuation and digits follow code points ("a-b" before "a.b" before "a_b"), and "a"/"A" keep registration order, not the root collation."""

from reference.envelope import contributions
from tests.blind.common import everywhere, swapped


def _key(contribution_id):
    return (tuple(ord(c) for c in contribution_id.lower()),)


def handle(msg, call):
    with swapped(everywhere(contributions.id_sort_key, _key)):
        return call()

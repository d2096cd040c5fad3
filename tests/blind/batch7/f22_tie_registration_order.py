"""envelope.developer-messages -- ENV-ORDER-CODEPOINT, ENV-ORDER-TIEBREAK.
Bug: ids are ordered by the root collation alone with a stable sort, so two distinct ids the
collation ranks equal (differing by an ignorable character such as a soft hyphen) stay in
registration order instead of code point order.
"""

from __future__ import annotations

from reference.envelope import collation

from tests.blind.common import everywhere, swapped


def _id_sort_key(contribution_id):
    return tuple(collation._collator().sort_key(contribution_id))


def handle(msg, call):
    with swapped(everywhere(collation.id_sort_key, _id_sort_key)):
        return call()


# shown on: {"op": "envelope.developer-messages", "input": {"host": {"platform": "linux", "date": "2026-12-04", "shell": "/bin/bash", "timezone": "Europe/Paris"}, "contributions": [{"id": "a­b", "content": "soft"}, {"id": "ab", "content": "plain"}]}}

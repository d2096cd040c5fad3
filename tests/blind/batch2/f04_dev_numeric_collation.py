"""envelope.developer-messages -- ENV-ORDER-TIEBREAK.
Bug: ids of equal priority are compared with Intl.Collator("en", {numeric: true}), so runs of digits compare as numbers and a2 sorts before a10."""

import re

from reference.envelope import collation, contributions
from tests.blind.common import swapped

ORIGINAL = collation.id_sort_key


def numeric_key(cid):
    padded = re.sub(r"\d+", lambda m: m.group(0).rjust(24, "0"), cid)
    return (ORIGINAL(padded)[0], tuple(ord(c) for c in cid))


def handle(msg, call):
    with swapped([(contributions, "id_sort_key", numeric_key)]):
        return call()

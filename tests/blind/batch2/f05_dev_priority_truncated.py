"""envelope.developer-messages -- ENV-ORDER-PRIORITY.
Bug: the priority is coerced to an integer (priority | 0) before sorting, so fractional priorities tie with the integer toward zero (0.5 with 0, -0.5 with 0) and fall to the id order."""

import math

from reference.envelope import contributions
from tests.blind.common import swapped


def order_key(contribution):
    return (float(math.trunc(contribution.priority)), contributions.id_sort_key(contribution.id))


def handle(msg, call):
    with swapped([(contributions, "order_key", order_key)]):
        return call()

"""envelope.session -- ENV-AUDIT-CHANGED.
Bug: an item is compared with the first audit on the branch that records its role and id, not the latest, so content changed back to an earlier value is not written again (and unchanged content after a change is)."""

from reference.envelope import audit
from tests.blind.common import everywhere, swapped


def _first(branch):
    first = {}
    for entry in branch:
        for item in audit.recorded_items(entry):
            first.setdefault((item["role"], item["id"]), item["content"])
    return first


def handle(msg, call):
    with swapped(everywhere(audit.latest_audits, _first)):
        return call()

"""profiles.session -- PROF-SESSION-RESTORE.
Bug: on resume and tree navigation the selection is restored from the most recently written selection entry of the session, whichever branch it is on."""

from reference.profiles.host import session
from tests.blind.common import swapped

ORIGINAL = session.selection_from_branch


def selection_from_branch(entries, leaf):
    newest = [e for e in entries.values() if e.type == "custom" and e.customType == session.SELECTION_ENTRY_TYPE]
    if not newest:
        return ORIGINAL(entries, leaf)
    last = newest[-1]
    return ORIGINAL({last.id: type(last)(last.id, None, last.type, last.customType, last.data)}, last.id)


def handle(msg, call):
    with swapped([(session, "selection_from_branch", selection_from_branch)]):
        return call()

"""profiles.load -- PROF-LOAD-CASE.
Bug: of profile files whose ids are equal ignoring case, the first by name loads and only the later ones are skipped, reported with the profile-case warning."""

from reference.profiles.core import ids, profiles
from tests.blind.common import everywhere, swapped

_original = profiles.build_catalogue


def _catalogue(entries, scope):
    groups = {}
    for entry in sorted(entries, key=lambda e: e.name):
        stem = ids.profile_file_stem(entry.name)
        if stem is not None and ids.is_valid_id(stem):
            groups.setdefault(stem.lower(), []).append((stem, entry))
    later = {id(e) for group in groups.values() for _, e in group[1:]}
    found, diags = _original([e for e in entries if id(e) not in later], scope)
    diags += [profiles.case_collision(group, scope) for group in groups.values() if len(group) > 1]
    return found, diags


def handle(msg, call):
    with swapped(everywhere(_original, _catalogue)):
        return call()

"""profiles.load -- PROF-LOAD-CASE.
Bug: of profile files whose ids are equal ignoring case, the first by name (Review.md before
review.md) still loads; only the later ones are skipped, under the one profile-case warning.
"""

from __future__ import annotations

from reference.profiles.core import profiles
from reference.profiles.core.ids import is_valid_id, profile_file_stem
from reference.profiles.core.types import Diagnostic, LoadedProfile, ProfileRef

from tests.blind.common import everywhere, swapped


def _build_catalogue(entries, scope):
    diags = []
    candidates = []
    for entry in sorted(entries, key=lambda e: e.name):
        stem = profile_file_stem(entry.name)
        if stem is None:
            continue
        if not is_valid_id(stem):
            diags.append(Diagnostic("warn", "profile-id", scope, entry.name,
                                    f"{entry.name}: {stem!r} is not a valid profile id; skipped"))
            continue
        candidates.append((stem, entry))
    groups: dict = {}
    for stem, entry in candidates:
        groups.setdefault(stem.lower(), []).append((stem, entry))
    loaded = {}
    for key in sorted(groups):
        group = groups[key]
        if len(group) > 1:
            diags.append(profiles.case_collision(group, scope))
        stem, entry = group[0]
        refusal = profiles._refusal(entry, scope)
        if refusal is not None:
            diags.append(refusal)
            continue
        body, problem = profiles.read_body(entry, scope)
        if problem is not None:
            diags.append(problem)
            continue
        loaded[stem] = LoadedProfile(ProfileRef(scope, stem), body, len(body.encode("utf-8")), entry.name)
    return loaded, diags


def handle(msg, call):
    with swapped(everywhere(profiles.build_catalogue, _build_catalogue)):
        return call()

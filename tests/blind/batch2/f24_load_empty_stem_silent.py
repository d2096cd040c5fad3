"""profiles.load -- PROF-FILE-EMPTY-STEM, PROF-ID.
Bug: a file named ".md" is passed over as a hidden file, without the profile-id warning."""

from reference.profiles.core import ids
from tests.blind.common import everywhere, swapped

ORIGINAL = ids.profile_file_stem


def profile_file_stem(name):
    stem = ORIGINAL(name)
    return None if stem == "" else stem


def handle(msg, call):
    with swapped(everywhere(ORIGINAL, profile_file_stem)):
        return call()

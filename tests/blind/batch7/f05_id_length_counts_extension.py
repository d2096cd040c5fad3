"""profiles.load -- PROF-ID, PROF-DECISION-LOADING.
Bug: discovery checks the 64-character limit on the file name, ".md" included, so a profile
whose id has 62 to 64 characters is skipped with profile-id.
"""

from __future__ import annotations

from reference.profiles.core import ids, profiles

from tests.blind.common import swapped


def _is_valid_file_id(stem):
    return ids.is_valid_id(stem) and len(stem + ".md") <= ids.ID_MAX_LENGTH


def handle(msg, call):
    with swapped([(profiles, "is_valid_id", _is_valid_file_id)]):
        return call()


# shown on: {"op": "profiles.load", "input": {"agentDir": "agent", "cwd": "proj", "trusted": true}, "tree": {"agent/system-prompts/profiles/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.md": "L"}}

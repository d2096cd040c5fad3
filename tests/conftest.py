"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core machine must not turn slowness into a
failure; speed belongs in benchmarks), and under CI (``CI`` set) a derandomised, fixed-seed run so
a red build can be reproduced. ``HYPOTHESIS_PROFILE=thorough`` gives a larger budget on demand.
"""

import os
import sys

from hypothesis import settings

settings.register_profile("kit", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "kit"))


def pytest_sessionstart(session):
    """Start every test session with the reference's memoised results forgotten.

    ``reference/`` memoises a few pure functions with :func:`functools.lru_cache` (the collation
    table, parsed profile references). A process that runs the tests after another pytest session
    in the same interpreter -- mutmut's fork server collects the tests once and forks a child per
    mutant -- would otherwise answer from what the unmutated code computed, and a mutant of the
    memoised code could never fail. In an ordinary run nothing is imported yet, so this does
    nothing.
    """
    for name, module in list(sys.modules.items()):
        if module is not None and (name == "reference" or name.startswith("reference.")):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                    value.cache_clear()

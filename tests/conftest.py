"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core machine must not turn slowness into a
failure; speed belongs in benchmarks), and under CI (``CI`` set) a derandomised, fixed-seed run so
a red build can be reproduced. ``HYPOTHESIS_PROFILE=thorough`` gives a larger budget on demand.
"""

import os

from hypothesis import settings

settings.register_profile("kit", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "kit"))

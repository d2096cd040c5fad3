"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core machine must not turn slowness into a
failure; speed belongs in benchmarks), and under CI (``CI`` set) a derandomised, fixed-seed run so
a red build can be reproduced. ``HYPOTHESIS_PROFILE=thorough`` gives a larger budget on demand.
"""

import os
import sys

import pytest
from hypothesis import settings

settings.register_profile("kit", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "kit"))



def pytest_configure(config):
    """Name the ``xdist_group`` marker, which the modules sharing an expensive module fixture set
    (a run without pytest-xdist then does not warn about an unknown marker)."""
    config.addinivalue_line("markers", "xdist_group(name): run these tests on one xdist worker (--dist loadgroup)")


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """With ``-n`` and no ``--dist`` given, distribute by ``loadgroup`` rather than xdist's
    ``load``.

    ``load`` hands out runs of consecutive tests, shorter and shorter towards the end of the
    session (down to two tests), so a module can be split between the workers, and then each
    worker builds the module's fixtures: the seeded faults' catch matrix, Pi's whole run, the
    site. The modules that share such a fixture set
    ``pytestmark = pytest.mark.xdist_group(...)``; ``loadgroup`` runs each group on one worker,
    the largest groups first, and every other test alone wherever a worker is free. Not in the
    ``addopts`` of pyproject.toml, so that pytest still runs where pytest-xdist is not installed.
    Runs before xdist's own ``tryfirst`` hook (a conftest registers after it), which would
    otherwise have chosen ``load`` already.
    """
    if getattr(config.option, "numprocesses", None) and getattr(config.option, "dist", None) == "no":
        config.option.dist = "loadgroup"


def _forget_memoised() -> None:
    """Clear every :func:`functools.lru_cache` defined in a ``reference`` module imported so far."""
    for name, module in list(sys.modules.items()):
        if module is not None and (name == "reference" or name.startswith("reference.")):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                    value.cache_clear()


def pytest_sessionstart(session):
    """Start every test session with the reference's memoised results forgotten.

    ``reference/`` memoises a few pure functions with :func:`functools.lru_cache` (the collation
    table, parsed profile references). A process that runs the tests after another pytest session
    in the same interpreter -- mutmut's fork server collects the tests once and forks a child per
    mutant -- would otherwise answer from what the unmutated code computed, and a mutant of the
    memoised code could never fail. In an ordinary run nothing is imported yet, so this does
    nothing.
    """
    _forget_memoised()



def pytest_runtest_setup(item):
    """While mutmut records which tests run which function (``MUTANT_UNDER_TEST=stats``), forget
    them before every test.

    mutmut judges a mutant only by the tests it saw running the mutant's function; with the memo
    kept between tests, only the first test that sorted an id loaded the collation table, so a
    mutant of the loading was judged by that one test. A mutant's own run keeps the memo between
    tests, as any process running the mutated reference would.
    """
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        _forget_memoised()

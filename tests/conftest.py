"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core machine must not turn slowness into a
failure; speed belongs in benchmarks), and under CI (``CI`` set) a derandomised, fixed-seed run so
a red build can be reproduced. ``HYPOTHESIS_PROFILE=thorough`` gives a larger budget on demand.
"""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from conformance.corpus import yamlcache

settings.register_profile("kit", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "kit"))



SHARED_FIXTURE_MODULES = frozenset({
    "tests/test_faults.py",            # the strength fixture: every seeded fault's catch matrix
    "tests/test_site_browser.py",      # the site fixture: a run, the docs and two report pages
    "tests/test_site.py",              # the sample site and the failing report
    "tests/test_pi_node.py",           # one session of Pi's adapter
    "tests/test_pi_node_suite.py",     # the report fixture: the whole suite through Pi
    "tests/test_diff_pi_node.py",      # diff against Pi, with and without expectations
    "tests/test_invariants.py",        # one serve-reference process
    "tests/test_adapter_environment.py",  # smoke of serve-reference under every default locale
    "tests/test_pi_whole_numbers.py",  # every pi case's answer and golden, read once
})
"""Test modules whose tests share an expensive module fixture: under ``-n``, each runs on one worker."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under ``-n`` with xdist's default distribution (``load``), keep the tests of each module of
    :data:`SHARED_FIXTURE_MODULES` on one worker and hand out every other test alone.

    ``load`` hands out runs of consecutive tests, shorter and shorter towards the end of the
    session (down to two tests), so such a module could be split between the workers and each
    worker built its fixture (the site and Pi's whole run were seen built twice). xdist's
    ``loadgroup`` would do this from ``xdist_group`` marks, but with pytest 9 its marks no longer
    reach the test ids it groups by. Here the scopes of ``loadscope`` are these modules, and each
    other test is a scope of its own; the modules, having the most tests, are handed out first.
    A ``--dist`` other than ``load`` given on the command line is left alone.
    """
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtureModules(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in SHARED_FIXTURE_MODULES else nodeid

    return SharedFixtureModules(config, log)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "untraced: run without code coverage's tracer, and its child processes unmeasured "
        "(see pytest_runtest_protocol in tests/conftest.py)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Run a test marked ``untraced`` (its setup, call and teardown) under
    :func:`tests.kit_fixtures.untraced`: under ``coverage run``, with the tracer paused and its
    child processes unmeasured.

    Such a test runs again code the other tests measure -- the whole suite served, every file
    checked again, the site in a browser, Pi's adapter -- and the tracer made it two to three
    times slower. The marks take nothing from the figures: the lines and branches measured with
    and without them are the same (``benchmarks/coverage_figures.py --compare`` lists any
    difference). A test that reaches code no other test does must not carry the mark.
    """
    if item.get_closest_marker("untraced") is None:
        yield
        return
    from tests.kit_fixtures import untraced

    with untraced():
        yield


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


@pytest.fixture(scope="session")
def kit_imported() -> None:
    """Every module of the kit and the reference imported before ``pytester`` takes its snapshot
    of ``sys.modules``: ``pytester`` removes at the end of each test what was imported during it,
    and a module of the kit or the reference imported by a pytest run in this process, removed,
    then imported again by a later test, came back as a second copy beside the objects still
    holding the first (the in-process reference then answered ``pi.load-templates`` unlike the
    served one)."""
    from tests.kit_fixtures import import_every_module

    import_every_module()


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    """A fresh, empty parse cache (``$PI_CONFORMANCE_CACHE``) for this test; the folder of its entries."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(yamlcache.ENV, str(folder))
    return folder / "yaml"


@pytest.fixture()
def deep_tmp():
    """A temporary folder outside pytest's own (whose clean-up recurses, and would stop every later
    session on a deep chain left by a failing test), removed at the end by the system's ``rm``."""
    import subprocess
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="pi-conformance-test-deep-"))
    try:
        yield folder
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(folder)], stderr=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", str(folder)])

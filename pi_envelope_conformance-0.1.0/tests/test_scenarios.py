"""Every scenario of the suite against the implementation chosen with ``--adapter`` (default: the
bundled reference), one test per case."""

from conformance.suite import test_case  # noqa: F401  (collected by pytest)

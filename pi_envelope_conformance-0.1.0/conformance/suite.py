"""The parametrised conformance test. Run it with ``pytest --pyargs conformance.suite`` (or import
:func:`test_case` into a test module); the plugin in :mod:`conformance.plugin` supplies the cases."""

from conformance.plugin import check_case


def test_case(conformance_case, conformance_runner, snapshot) -> None:
    """One conformance case against the implementation under test."""
    check_case(conformance_case, conformance_runner, snapshot)

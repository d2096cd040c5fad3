"""The reference implementation of the Pi envelope specification, one subpackage per area
(``envelope``, ``profiles``, ``pi``). It knows nothing of scenarios, goldens or adapters; rule
violations are raised as :class:`reference.errors.SpecError` with a stable ``code``."""

__version__ = "0.1.0"

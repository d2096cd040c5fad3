"""Seeded faults: deliberately broken variants of the reference, one module per part.

Each module exposes ``FAULTS``, a list of :class:`conformance.faults.runner.Fault`. Every fault must be
caught by at least one case of the suite (the kit's tests/test_faults.py); ``pi-conformance faults``
prints which cases catch which fault.
"""

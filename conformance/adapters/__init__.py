"""Adapters: how the kit reaches an implementation.

- :mod:`conformance.adapters.base` -- the protocol every adapter follows and the answer records;
- :mod:`conformance.adapters.inprocess` -- wraps a Python :class:`~conformance.adapters.base.Implementation`;
- :mod:`conformance.adapters.jsonlines` -- the out-of-process JSON-lines client and server;
- :mod:`conformance.adapters.reference` -- the bundled reference, operation by operation.
"""

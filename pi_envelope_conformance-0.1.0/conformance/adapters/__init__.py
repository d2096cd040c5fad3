"""Adapters: how the kit reaches an implementation.

- :mod:`conformance.adapters.base` -- the protocol every adapter follows and the answer records;
- :mod:`conformance.adapters.inprocess` -- wraps a Python :class:`~conformance.adapters.base.Implementation`;
- :mod:`conformance.adapters.protocol` -- the JSON-lines protocol's messages (pure);
- :mod:`conformance.adapters.process` -- supervising an adapter's child process;
- :mod:`conformance.adapters.client` -- the JSON-lines adapter: the protocol over a child process;
- :mod:`conformance.adapters.server` -- serving an implementation over the protocol (``serve-reference``);
- :mod:`conformance.adapters.connect` -- an adapter from its ``--adapter`` name;
- :mod:`conformance.adapters.reference` -- the bundled reference, operation by operation.
"""

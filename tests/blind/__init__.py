"""Blind faults: plausible implementation bugs written from the clause catalogue and the adapter
protocol alone, by someone who had not seen the scenarios, the goldens or the seeded faults.

Each batch is a folder (``batch1/``) of fault modules ``fNN_<slug>.py``. A fault module's docstring
names, on its first line, the operation it breaks and the clause ids (``pi.parse-args --
PI-TPL-ARGS-QUOTE, ...``), and on the next the bug in one sentence; the module defines
``handle(msg, call)``, which gets the protocol's ``run`` request for that operation and ``call``,
which forwards a request (changed or not) to the reference and returns its protocol answer.
:mod:`tests.blind.proxy` turns a fault module into an implementation of the whole catalogue that
is wrong only where that bug shows. The faults are measured, never trusted: the kit refuses to write
goldens from anything but the bundled reference (``tests/test_blind_faults.py`` checks it).
``benchmarks/blind.py`` measures a batch; ``catches.yaml`` beside each batch lists, per fault, the
cases that catch it.
"""

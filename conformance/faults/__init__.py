"""Seeded faults: deliberate mistakes patched into the reference to show that the suite catches them.

:mod:`.runner` loads a faults package, runs the suite against the reference with each fault applied
and prints the catch matrix (``pi-conformance faults``); :mod:`.patches` applies a fault's patches
to the reference and undoes them.
"""

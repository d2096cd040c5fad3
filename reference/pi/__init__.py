"""Pi's own shared formats (Pi's docs, PI-DECISION-*), split like :mod:`reference.profiles`.

- :mod:`reference.pi.core` -- the pure rules: no file system, no clock, no process environment;
- :mod:`reference.pi.host` -- the thin edges: the disk (package trees, template folders) and
  commands (the one shell edge).
"""

"""Pi's own shared formats (seed 003, notes N19-N23), split like :mod:`reference.profiles`.

- :mod:`reference.pi.core` -- the pure rules: no file system, no clock, no process environment;
- :mod:`reference.pi.host` -- the thin edges: the disk (package trees, template folders) and
  commands (the one shell edge).
"""

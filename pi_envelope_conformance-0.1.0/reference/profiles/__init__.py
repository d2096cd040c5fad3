"""Prompt profiles (seed 001, notes N10-N18).

Two layers, as in the seed:

- :mod:`reference.profiles.core` -- pure logic: ids, references, config, the profile catalogue,
  inheritance, matching, resolution, markers, composition of the managed block, observation,
  the settings registry and picker lists. No file system, no clock, no environment.
- :mod:`reference.profiles.host` -- the thin edge: loading a tree from disk, atomic writes, config
  edits, the session's selection entry and the per-cwd cache.
"""

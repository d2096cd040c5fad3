"""Prompt profiles (pi-prompt-profiles' architecture, PROF-DECISION-*).

Two layers, as in pi-prompt-profiles' architecture:

- :mod:`reference.profiles.core` -- pure logic: ids, references, config, the profile catalogue,
  inheritance, matching, resolution, markers, composition of the managed block, observation,
  the settings registry and picker lists. No file system, no clock, no environment.
- :mod:`reference.profiles.host` -- the thin edge: loading a tree from disk, atomic writes, config
  edits, the session's selection entry and the per-cwd cache.
"""

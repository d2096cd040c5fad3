"""Prompt profiles (pi-prompt-profiles' architecture, PROF-DECISION-*), in its two layers: ``core``,
pure logic with no file system, clock or environment, and ``host``, the thin edge for the disk and
the session."""

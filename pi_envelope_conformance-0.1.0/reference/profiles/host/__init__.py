"""The host edge of prompt profiles: the disk (loading, atomic writes, config edits) and the
session (selection entry restored from the active branch, per-cwd cache, observation records)."""

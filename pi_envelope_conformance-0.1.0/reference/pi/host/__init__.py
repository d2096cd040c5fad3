"""The I/O edges of Pi's shared formats: disk (package trees, template folders) and commands
(running a ``!command`` through the shell)."""

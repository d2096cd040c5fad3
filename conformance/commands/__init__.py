"""The command line: ``pi-conformance`` and its subcommands.

:mod:`.parser` builds the argument parser, :mod:`.options` holds the option values the commands and
the pytest plugin share (timeouts, required operations, paths, folders, the edition), and
:mod:`.history` is the ``history`` command (and ``compare --cases``).
"""

"""The command line: ``pi-conformance`` and its subcommands, one module each.

Each subcommand's module (``run``, ``list``, ``show``, ``coverage``, ``smoke``, ``editions``,
``serve_reference``, ``compare``, ``docs``, ``faults``, ``diff``, ``history``, ``invariants``,
``skeleton``, ``schema``) has ``add_arguments(parser)`` and ``run(args)``, which returns an
:class:`~conformance.errors.ExitCode`. :mod:`.parser` lists them and fills each in when chosen,
:mod:`.common` holds the arguments and messages several share, and :mod:`.options` the option
values the commands and the pytest plugin share (timeouts, required operations, paths, folders,
the edition).
"""

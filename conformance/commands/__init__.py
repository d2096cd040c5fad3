"""The command line: ``pi-conformance`` and its subcommands, one module each with
``add_arguments(parser)`` and ``run(args)`` returning an :class:`~conformance.errors.ExitCode`."""

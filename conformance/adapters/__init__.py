"""Adapters: how the kit reaches an implementation, in process or over the JSON-lines protocol, and
how it names, starts, supervises and smoke-checks one."""

"""Input partitions (category-partition): per operation, the input dimensions its clauses turn on
and the classes of each, with a predicate that says whether an input hits a class. Declared from
the clause statements of the spec catalogue, never from the cases; one module per area."""

from __future__ import annotations

from conformance.strategies.partitions import (envelope_context, envelope_session, messages, models, models_sampling, packages, profiles,
                                                  profiles_block, profiles_commands, profiles_resolve, templates)
from conformance.strategies.partitions.cells import Cell, Hit  # noqa: F401  (public names)

PARTITIONS: dict[str, list[Cell]] = {
    **envelope_context.PARTITIONS,
    **envelope_session.PARTITIONS,
    **templates.PARTITIONS,
    **messages.PARTITIONS,
    **packages.PARTITIONS,
    **models.PARTITIONS,
    **models_sampling.PARTITIONS,
    **profiles.PARTITIONS,
    **profiles_resolve.PARTITIONS,
    **profiles_block.PARTITIONS,
    **profiles_commands.PARTITIONS,
}
"""Every operation's declared classes, by operation name."""

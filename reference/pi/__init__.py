"""Pi's own shared formats (seed 003, notes N19-N23).

- :mod:`reference.pi.messages` -- message and content-block models, validation (N19);
- :mod:`reference.pi.replay` -- system-message replay and the rendered prompt (N19);
- :mod:`reference.pi.convert` -- conversion of agent messages to model messages (N20);
- :mod:`reference.pi.templates` -- prompt templates: loading, arguments, substitution (N21);
- :mod:`reference.pi.packages` -- package sources and resource filters (N22);
- :mod:`reference.pi.models` -- ``models.json`` and credential resolution (N23);
- :mod:`reference.pi.classifiers` -- model classifiers.
"""

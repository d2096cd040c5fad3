"""The reference implementation of the Pi envelope specification.

One subpackage per area of the specification:

- :mod:`reference.envelope` -- developer messages, provider instructions, context files,
  payload adapters, the envelope service and audit entries (the pi-developer-messages README, ENV-DECISION-*);
- :mod:`reference.profiles` -- prompt profiles (pi-prompt-profiles' architecture, PROF-DECISION-*), split into a pure
  ``core`` and a thin ``host`` edge for the disk and the session;
- :mod:`reference.pi` -- Pi's shared message types, templates, packages and ``models.json``
  (Pi's docs, PI-DECISION-*).

The reference knows nothing of scenarios, goldens or adapters. Rule violations are raised as
:class:`reference.errors.SpecError` with a stable ``code``.
"""

__version__ = "0.1.0"

"""The envelope area of the reference: what a model receives for one turn (the pi-developer-messages README, ENV-DECISION-*).

An *envelope* has three parts, each built by one module:

- :mod:`~reference.envelope.instructions` -- the provider (system) instructions (ENV-DECISION-INSTRUCTIONS);
- :mod:`~reference.envelope.contributions` and :mod:`~reference.envelope.environment` -- the
  developer messages: registered contributions, filtered, ordered and rendered, then the
  ``environment`` message last (ENV-DECISION-ENVIRONMENT, ENV-DECISION-FISH, ENV-DECISION-CONTRIBUTIONS, ENV-DECISION-REGISTRIES);
- :mod:`~reference.envelope.context_files` -- the hidden context-files message and its injection
  before the conversation history (ENV-DECISION-CONTEXT-FILES).

Around the envelope: :mod:`~reference.envelope.build` composes the three parts from one request,
:mod:`~reference.envelope.payload` applies an envelope to a provider payload through registered
adapters (ENV-DECISION-ADAPTERS), :mod:`~reference.envelope.service` is the per-session envelope service (ENV-DECISION-SERVICE),
:mod:`~reference.envelope.audit` and :mod:`~reference.envelope.session` persist audit entries on a
session's branch (ENV-DECISION-AUDIT), and :mod:`~reference.envelope.globals` holds the process-global registries
(ENV-DECISION-REGISTRIES).

Every input is explicit: no module here reads the clock, an environment variable or the current
directory. Refusals are :class:`reference.errors.SpecError` with a stable ``code``.
"""

"""The envelope area of the reference: what a model receives for one turn (seed 000, notes N1-N9).

An *envelope* has three parts, each built by one module:

- :mod:`~reference.envelope.instructions` -- the provider (system) instructions (N4);
- :mod:`~reference.envelope.contributions` and :mod:`~reference.envelope.environment` -- the
  developer messages: registered contributions, filtered, ordered and rendered, then the
  ``environment`` message last (N1, N2, N3, N9);
- :mod:`~reference.envelope.context_files` -- the hidden context-files message and its injection
  before the conversation history (N5).

Around the envelope: :mod:`~reference.envelope.build` composes the three parts from one request,
:mod:`~reference.envelope.payload` applies an envelope to a provider payload through registered
adapters (N6), :mod:`~reference.envelope.service` is the per-session envelope service (N7),
:mod:`~reference.envelope.audit` and :mod:`~reference.envelope.session` persist audit entries on a
session's branch (N8), and :mod:`~reference.envelope.globals` holds the process-global registries
(N9).

Every input is explicit: no module here reads the clock, an environment variable or the current
directory. Refusals are :class:`reference.errors.SpecError` with a stable ``code``.
"""

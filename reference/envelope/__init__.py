"""The envelope area of the reference (the pi-developer-messages README, ENV-DECISION-*): what a model
receives for one turn. Every input is explicit: no module here reads the clock, an environment
variable or the current directory. Refusals are :class:`reference.errors.SpecError`."""

"""The pure rules of Pi's shared formats: nothing here reads a file, a clock or the environment.

- messages (models, validation, PI-DECISION-MESSAGES), message_editions (each edition's message models), replay
  (system-message replay, PI-DECISION-MESSAGES), convert (agent messages to model messages, PI-DECISION-CONVERSION), templates
  (loading rules, arguments, substitution, PI-DECISION-TEMPLATES); editions names the editions of the pages;
- packages (PI-DECISION-PACKAGES): sources, identity, manifest (declarations and discovery over a caller's
  file system), filters, scope (trust, project over personal, the whole resolution), changelog
  (edition pi-1.6.0: a package's changelog after an update);
- ``models.json`` (PI-DECISION-MODELS): models_file (parsing, the schema check), models_schema (its models),
  merge (composition with the built-ins), values (value forms), credentials, availability,
  classifiers; edition pi-1.6.0 adds sampling
  (parameters by thinking level), classifier_images (images passed to classifiers) and
  image_models (OpenRouter's image models).
"""

"""The pure rules of Pi's shared formats (messages, templates, packages, ``models.json``), per
edition of Pi's pages: nothing here reads a file, a clock or the environment."""

"""The suite and its files: what the kit reads before it runs anything.

The scenario files (:mod:`.cases`: loader, selection, file trees via :mod:`.trees`; :mod:`.idscan`
for a selection's ids; :mod:`.scenario_checks`, the scenario models), the clause catalogue
(:mod:`.catalogue`, :mod:`.catalogue_models`), the areas (:mod:`.areas`) and their editions
(:mod:`.editions`), and the YAML reading they share (:mod:`.yamlio`, file:line:col errors) with its
parse cache (:mod:`.yamlcache`); :mod:`.public` (what counts as a pointer outside the repository)
and :mod:`.shell` (which cases run a ``!command`` and how). Nothing here runs an adapter or writes
a report.
"""

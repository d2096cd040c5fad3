"""Running and judging: a case's answer against its golden.

:mod:`.runner` runs the cases through an adapter and gives each a verdict; :mod:`.golden` reads and
writes the canonical goldens, :mod:`.normalise` applies the declared normalisers, :mod:`.optional`
the rule for optional properties and :mod:`.facets` the fields compared only when given, :mod:`.diffs` shows a difference, :mod:`.expectations` reads an
implementation's expectations file, :mod:`.locales` repeats the collation cases under other
locales, :mod:`.coverage` counts which clauses the cases (and the seeded faults) cover and
:mod:`.cells` which declared input classes they hit.
"""

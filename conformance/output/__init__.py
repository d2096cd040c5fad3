"""Reports and pages: everything the kit writes or prints.

:mod:`.reports` (JSON, JUnit, Markdown reports and ``compare``), :mod:`.report_paths` (where a report
may be written, checked before any work), :mod:`.history` (verdicts across runs), :mod:`.docs` (the
specification by example), :mod:`.schema` (the contract's JSON Schemas), :mod:`.site` (the HTML
pages), and the file-system edge they share: :mod:`.files` (atomic writes), :mod:`.removal`
(removing the kit's folders) and :mod:`.console` (standard output that survives a closed pipe).
"""

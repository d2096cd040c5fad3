"""Running and judging: a case's answer against its golden, and what the verdicts add up to
(expectations, locale checks, clause coverage)."""

"""One invocation of the kit: the suite's folders, the edition judged and the selection, built once by
each front end and handed to everything below, which then takes no folder or edition of its own.
The one place adapters and runners are made."""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from conformance.errors import UsageError
from conformance.judge import golden


@dataclass
class Session:
    """What one invocation judges and where it reads it. It loads the suite and the catalogue (once
    each), checks that the edition fits the selection (PI-DECISION-EDITIONS), finds goldens, reads
    expectations, and makes the adapters and runners.

    scenarios_dir: the scenario folder (``None``: the kit's own, ``conformance/scenarios``).
    golden_dir: the goldens' folder (default: the kit's own).
    spec_dir: the catalogue's folder (``None``: the kit's own).
    edition: the edition judged (``None``: each area's default; PI-DECISION-EDITIONS).
    edition_given: whether the user named ``edition`` (only a named one is refused when it
        fits no selected case or area).
    areas, patterns, ops: the selection, as ``--area``, ``--case`` (globs on case ids) and
        ``--op`` (globs on operation names) give it; ``None``: every area, case, operation.
    adapter_env: the ``KEY=VALUE`` assignments of ``--adapter-env`` for the adapters the kit
        starts as a process.
    """

    scenarios_dir: Path | None = None
    golden_dir: Path = golden.GOLDEN_DIR
    spec_dir: Path | None = None
    edition: str | None = None
    edition_given: bool = False
    areas: list[str] | None = None
    patterns: list[str] | None = None
    ops: list[str] | None = None
    adapter_env: list[str] | None = None
    _loaded: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_args(cls, args: argparse.Namespace, *, select: bool = True) -> "Session":
        """The session of a parsed command line: its ``--scenarios-dir``, ``--golden-dir``,
        ``--spec-dir``, ``--edition``, ``--adapter-env`` and, with ``select``, ``--area``,
        ``--case`` and ``--op`` (absent options count as not given)."""
        def folder(name: str) -> Path | None:
            value = getattr(args, name, None)
            return Path(value) if value else None

        return cls(scenarios_dir=folder("scenarios_dir"), golden_dir=folder("golden_dir") or golden.GOLDEN_DIR,
                   spec_dir=folder("spec_dir"), edition=getattr(args, "edition", None),
                   edition_given=getattr(args, "edition_given", False),
                   areas=getattr(args, "area", None) if select else None,
                   patterns=getattr(args, "case", None) if select else None,
                   ops=getattr(args, "op", None) if select else None,
                   adapter_env=getattr(args, "adapter_env", None))

    def judging(self, edition: str | None) -> "Session":
        """This session with ``edition`` judged instead (a report's own edition, say)."""
        return dataclasses.replace(self, edition=edition, _loaded={})

    # -- the suite -------------------------------------------------------------------------

    @property
    def scenarios(self) -> Path:
        """The scenario folder read."""
        from conformance.corpus.cases import SCENARIOS_DIR

        return self.scenarios_dir or SCENARIOS_DIR

    def suite(self):
        """The loaded :class:`~conformance.corpus.cases.Suite` (read once): only the files of the
        selection are parsed (:func:`conformance.corpus.cases.load_suite`)."""
        if "suite" not in self._loaded:
            from conformance.corpus.cases import load_suite

            self._loaded["suite"] = load_suite(self.scenarios, spec_dir=self.spec_dir, areas=self.areas,
                                               patterns=self.patterns)
        return self._loaded["suite"]

    def cases(self) -> list:
        """The suite's cases the selection and the edition pick, in their order."""
        from fnmatch import fnmatchcase

        from conformance.corpus.cases import select

        return [c for c in select(self.suite().cases, areas=self.areas, patterns=self.patterns, edition=self.edition)
                if not self.ops or any(fnmatchcase(c.op, p) for p in self.ops)]

    def catalogue(self):
        """The clause catalogue (read once; the kit's own, or the one under ``spec_dir``)."""
        if "catalogue" not in self._loaded:
            from conformance.corpus.catalogue import SPEC_DIR, load_catalogue

            self._loaded["catalogue"] = load_catalogue(self.spec_dir or SPEC_DIR)
        return self._loaded["catalogue"]

    # -- the edition -----------------------------------------------------------------------

    def check_edition_areas(self) -> None:
        """Refuse a named edition of an area the selection's areas leave out
        (:func:`conformance.corpus.editions.check_areas`). Raises :class:`UsageError`."""
        if self.edition_given and self.edition:
            from conformance.corpus.editions import check_areas

            try:
                check_areas(self.edition, self.areas)
            except ValueError as exc:
                raise UsageError(str(exc)) from None

    def check_edition_fits(self, cases: Sequence[Any]) -> None:
        """Refuse a named edition of an area none of the selected ``cases`` is of, when they were
        selected by case (``--case``, a case id, pytest's ``-k``): the run would judge none of them
        by it yet carry its name (PI-DECISION-EDITIONS). With areas selected, those decided
        (:meth:`check_edition_areas`). Raises :class:`UsageError`."""
        if not (self.edition_given and self.edition and cases) or self.areas:
            return
        from conformance.corpus.editions import check_cases

        try:
            check_cases(self.edition, cases)
        except ValueError as exc:
            raise UsageError(str(exc)) from None

    # -- goldens and expectations ----------------------------------------------------------

    def golden_path(self, area: str, case_id: str) -> Path:
        """Where the golden of ``case_id`` lies as this session's edition judges it
        (:func:`conformance.judge.golden.golden_path`)."""
        from conformance.corpus.editions import judged

        return golden.golden_path(self.golden_dir, area, case_id, judged(self.edition, area))

    def shown_edition(self, case: Any) -> str | None:
        """The edition whose golden a page shows for ``case``: the one this session's edition
        judges its area by where the case holds in it, else the first edition the case holds for
        (a pi-1.6.0 case on a page of the default edition), so that every case is shown with a
        golden it is judged by (PI-DECISION-EDITIONS); ``None`` for an area without editions."""
        from conformance.corpus.editions import judged

        edition = judged(self.edition, case.area)
        editions = getattr(case, "editions", None)
        return editions[0] if editions and edition not in editions else edition

    def shown_golden_path(self, case: Any) -> Path:
        """Where the golden of :meth:`shown_edition` of ``case`` lies."""
        return golden.golden_path(self.golden_dir, case.area, case.id, self.shown_edition(case))

    def stray_goldens(self) -> list:
        """A suite error for each file under the golden folder that belongs to no case
        (:func:`conformance.judge.strays.stray_errors`): misnamed and foreign files always;
        misplaced and orphaned goldens only when the suite loaded and every file's case ids are
        known, and not in the kit's own goldens under another scenario folder (a subset of the kit's
        scenarios, say): those goldens belong to the kit's cases."""
        suite = self.suite()
        from conformance.output.report_paths import kit_goldens_of_other_scenarios

        ids = None if suite.errors or kit_goldens_of_other_scenarios(self.golden_dir, self.scenarios_dir) \
            else suite.golden_ids()
        areas = ({c.id: c.area for c in suite.cases if c.error_code is None}
                 if ids is not None and suite.complete else None)
        from conformance.judge.strays import stray_errors

        return stray_errors(self.golden_dir, ids, areas)

    def expectations(self, path: str | Path | None):
        """The expectations file at ``path`` (``None``: none), checked against the suite, for every
        front end (``run``, ``diff``, the pytest plugin); raises ``SuiteFileError`` when it is bad,
        its subclass ``StaleExpectations`` when it names cases the suite does not have (stale)."""
        if not path:
            return None
        from conformance.judge.expectations import StaleExpectations, load_expectations

        expectations = load_expectations(Path(path))
        stale = expectations.stale_in(self.suite())
        if stale:
            raise StaleExpectations(*stale)
        return expectations

    # -- adapters and runners --------------------------------------------------------------

    def environment(self):
        """The environment out-of-process adapters start in, with ``adapter_env`` added. Raises
        :class:`UsageError` for an assignment that is not ``KEY=VALUE``."""
        from conformance.adapters.environment import AdapterEnvironment, parse_assignments

        try:
            return AdapterEnvironment(parse_assignments(self.adapter_env))
        except ValueError as exc:
            raise UsageError(str(exc)) from None

    def adapter(self, name: str | None, environment: Any = "session"):
        """The adapter ``name`` names (``None``: the bundled reference; the names of
        :data:`conformance.adapters.connect.ADAPTER_NAMES`), started later by its runner, in
        ``environment`` (default: :meth:`environment`; ``None``: the kit's own). Raises
        ``AdapterNameError`` (a usage error) for a name that names none."""
        from conformance.adapters.connect import make_adapter

        return make_adapter(name, self.environment() if environment == "session" else environment)

    def adapter_factory(self, name: str | None) -> Callable[[Any], Any]:
        """What makes the adapter ``name`` in a given environment (the locale check's)."""
        return lambda environment: self.adapter(name, environment)

    def runner(self, adapter, **options):
        """A :class:`~conformance.judge.runner.Runner` over ``adapter`` judging by this session's
        goldens and edition, its cases' ``!command`` values allowed as for its scenario folder;
        ``options``: the runner's others (``timeout``, ``expectations``, ``required``, ...).
        Raises ``ValueError`` for a bad option."""
        from conformance.judge.runner import Runner

        options.setdefault("edition", self.edition)
        return Runner(adapter, golden_dir=self.golden_dir, scenarios_dir=self.scenarios_dir, **options)

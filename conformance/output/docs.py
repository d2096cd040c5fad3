"""``pi-conformance docs``: the spec catalogue with its cases, the specification by example.

:func:`write` chooses the form: a static HTML site (:mod:`conformance.output.site.pages`, the default) or
Markdown. In Markdown: one page per area (``<area>.md``) plus ``index.md``. Each clause is followed by the cases that
cover it: their inputs (and trees) and their goldens or expected errors.
"""

from __future__ import annotations

from pathlib import Path

from conformance.judge import golden
from conformance.corpus.cases import Case
from conformance.corpus.catalogue import AREAS
from conformance.corpus.editions import judged
from conformance.judge.coverage import covering_cases
from conformance.session import Session
from conformance.output.files import write_text
from conformance.corpus.trees import tree_data


def _block(text: str) -> list[str]:
    return ["```yaml", text.rstrip("\n"), "```"]


def render_area(area: str, cases: list[Case], session: Session) -> str:
    """The Markdown page of ``area``: each clause and the cases covering it, each case with the
    golden the session's edition (``None``: the default) judges it by (PI-DECISION-EDITIONS)."""
    cat = session.catalogue()
    lines = [f"# {area}: clauses and their cases", ""]
    for cid, clause in cat.clauses.items():
        if clause.area != area:
            continue
        flags = [clause.level] + (["refusal"] if clause.refusal else []) + (["project decision"] if clause.decision else []) \
            + ([f"collation {clause.collation}"] if clause.collation else [])
        lines += [f"## {cid}", "", f"**{' · '.join(flags)}** -- {clause.statement}", "", f"Source: {clause.source}", ""]
        if clause.note:
            lines += [clause.note, ""]
        covering = [c for c in cases if cid in c.every_citation()]
        citing = cat.cited_by(cid)
        through = len(covering_cases(cat, cid, cases))
        if clause.check == "manual":
            lines += ["_Checked by a reader: no case can check this clause._", ""]
        if citing:
            lines += ["Relied on by: " + ", ".join(f"[{c}](#{c.lower()})" for c in citing)
                      + (f"; their cases cover it ({through} in all)." if through else "."), ""]
        if not through and clause.check != "manual":
            lines += ["_No case covers this clause yet._", ""]
        for case in covering:
            shown = session.shown_edition(case)
            judged_by = f" Judged by edition `{shown}`." if shown != judged(session.edition, case.area) else ""
            lines += [f"### `{case.id}`: {case.title}", "", f"Operation `{case.op}`.{judged_by}", ""]
            if case.tree is not None:
                lines += ["Files:", ""] + _block(golden.dump(tree_data(case.tree))) + [""]
            lines += ["Input:", ""] + _block(golden.dump(case.input)) + [""]
            if case.error_code:
                lines += [f"Expected: the error `{case.error_code}`.", ""]
                continue
            try:
                path = session.shown_golden_path(case)
                stored = golden.read_case(path, case.id, case.op)
            except ValueError as exc:
                lines += [f"_Golden unreadable:_ `{golden.located(path, exc)}`", ""]
                continue
            if stored is None:
                lines += ["_Golden missing._", ""]
            else:
                lines += ["Expected output:", ""] + _block(golden.dump(stored["output"])) + [""]
    return "\n".join(lines)


def write_docs(out: Path, cases: list[Case], session: Session | None = None) -> list[Path]:
    """Write ``index.md`` and one page per area under ``out`` (goldens of ``session``, default the
    kit's own, as its edition judges them); returns the paths written."""
    session = session or Session()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    cat = session.catalogue()
    index = ["# The specification by example", "", "| area | clauses | cases |", "| --- | ---: | ---: |"]
    for area in AREAS:
        page = out / f"{area}.md"
        write_text(page, render_area(area, cases, session))
        written.append(page)
        n_clauses = sum(1 for c in cat.clauses.values() if c.area == area)
        index.append(f"| [{area}]({area}.md) | {n_clauses} | {sum(1 for c in cases if c.area == area)} |")
    write_text(out / "index.md", "\n".join(index) + "\n")
    written.append(out / "index.md")
    return written


def write(out: Path, cases: list[Case], session: Session | None = None, *, fmt: str = "html",
          results: list[str] | None = None, warnings: list[str] | None = None) -> list[Path]:
    """Write the specification by example under ``out`` as ``fmt`` (``"html"`` or ``"md"``); with
    ``results`` (paths of JSON reports; HTML only), each case shows every implementation's
    result. Each case shows the golden a run of the edition of ``session`` (default: the kit's own
    goldens; edition ``None``: the default) judges it by:
    that edition's own golden where the case has one. Returns the paths written. Raises ``ValueError`` naming a report that cannot be read
    or ``results`` given for Markdown, ``OSError`` when ``out`` cannot be written; nothing is
    written when a report is bad. A report of another edition than the session's is shown all the
    same, with a warning added to ``warnings`` (:func:`edition_warning`)."""
    from conformance.output.reports import load_report

    session = session or Session()
    check_out(out, fmt)
    if fmt == "md":
        if results:
            raise ValueError("--results needs the HTML form (leave out --format md)")
        return write_docs(out, cases, session)
    from conformance.output.site.pages import write_site

    reports = [load_report(Path(p)) for p in results or []]
    if warnings is not None:
        warnings += [w for p, r in zip(results or [], reports) if (w := edition_warning(p, r, session.edition))]
    return write_site(out, cases, session, reports=reports)


def check_out(out: Path, fmt: str) -> None:
    """Refuse (``ValueError``) an ``--out`` folder whose files the pages would replace without the
    kit having written them: a file system's root, or a folder holding a page the pages would
    replace (``index.html`` and ``<area>.html``, or their ``.md``) that is not the kit's
    (:func:`conformance.output.ownership.kit_wrote`: how the kit's pages begin). A new or empty
    folder, or the output of an earlier ``docs``, is accepted."""
    resolved = out.resolve()
    if resolved.parent == resolved:
        raise ValueError(f"--out {out}: is the root of the file system; give a folder of the pages' own")
    from conformance.output.ownership import kit_wrote

    for name in ("index", *AREAS):
        page = out / f"{name}.{fmt}"
        if page.exists() and not page.is_file():  # a link is judged by the file it leads to
            raise ValueError(f"--out {out}: {page.name} there is not a regular file; give a folder of the pages' own")
        if page.exists() and not kit_wrote(page):
            raise ValueError(f"--out {out}: {page} is not a page the kit wrote, and would be replaced; "
                             "give a folder of the pages' own (a new or empty one)")


def edition_warning(path: str, report: dict, edition: str | None) -> str | None:
    """Why the results of ``report`` (read from ``path``) do not belong beside the goldens of
    ``edition`` (``None``: the default): an area it ran was judged by another edition than
    ``edition`` judges it by (PI-DECISION-EDITIONS); or ``None`` when each was judged alike (a
    report of the envelope area alone suits the goldens of either Pi edition)."""
    from conformance.corpus.editions import DEFAULT, judged, label
    from conformance.output.reports import report_editions

    shown = edition or DEFAULT
    other = {area: name for area, name in report_editions(report.get("header", {})).items()
             if name != judged(shown, area)}
    if not other:
        return None
    ours = ", ".join(judged(shown, area) for area in other)
    return (f"{path} judged {label(other)}, not {ours}: its results are shown beside the goldens of {ours} "
            f"(give --edition {next(iter(other.values()))}, or a report of a run with --edition {shown})")

"""Invariants of the envelope area (ENV-DECISION-ENVIRONMENT, ENV-DECISION-CONTRIBUTIONS, ENV-DECISION-CONTEXT-FILES)."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.invariants.core import Client, Counterexample, invariant
from conformance.strategies import frames_for
from conformance.operations.envelope import ENVIRONMENT_ID, PROJECT_DOC_DIVIDER
from conformance.strategies.envelope import (AGENT_DIR, CWD, FINITE_PRIORITIES, TOOLS, blank, context_files,
                                             context_paths, contributions)

HOST = {"platform": "linux", "shell": "/bin/bash", "shells": ["bash", "sh"], "date": "2025-01-31",
        "timezone": "Europe/Lisbon"}


@st.composite
def permuted_contributions(draw) -> tuple[list[dict], list[dict]]:
    items = draw(contributions(min_size=2))
    return items, draw(st.permutations(items))


def _messages(client: Client, contribs: list[dict], **extra) -> list[dict]:
    out = client.call("envelope.developer-messages", {"contributions": contribs, "host": HOST, **extra})
    return out["messages"]


@invariant("inv-env-order-registration", area="envelope",
           title="The order of developer messages does not depend on registration order",
           clauses=["ENV-ORDER-PRIORITY", "ENV-ORDER-TIEBREAK", "ENV-ORDER-CODEPOINT"],
           ops=["envelope.developer-messages"], strategy=permuted_contributions)
def order_independent(client: Client, example) -> None:
    first, second = example
    a, b = _messages(client, first), _messages(client, second)
    if a != b:
        raise Counterexample(f"registration order {[c['id'] for c in first]} gives {[m['id'] for m in a]}, "
                             f"order {[c['id'] for c in second]} gives {[m['id'] for m in b]}")


_big = st.sampled_from(FINITE_PRIORITIES)


@st.composite
def contributions_any_priority(draw) -> tuple[list[dict], list[str]]:
    items = draw(contributions())
    for c in items:
        if draw(st.booleans()):
            c["priority"] = draw(_big)
    tools = draw(st.lists(st.sampled_from(TOOLS), unique=True))
    return items, tools


@invariant("inv-env-environment-last", area="envelope",
           title="The environment message is always present, once, and last",
           clauses=["ENV-ENV-LAST"], ops=["envelope.developer-messages"], strategy=contributions_any_priority,
           frames=lambda: [(data["contributions"], data.get("activeTools") or [])
                           for data, tree in frames_for("envelope.developer-messages")
                           if not any(isinstance(c.get("content"), dict) and "raises" in c["content"] for c in data["contributions"])])
def environment_last(client: Client, example) -> None:
    contribs, tools = example
    ids = [m["id"] for m in _messages(client, contribs, activeTools=tools)]
    if not ids or ids[-1] != ENVIRONMENT_ID or ids.count(ENVIRONMENT_ID) != 1:
        raise Counterexample(f"developer message ids {ids}: {ENVIRONMENT_ID!r} must be last and only once")


# --- context files ------------------------------------------------------------------------------

@st.composite
def files_and_blank(draw) -> tuple[list[dict], int, dict]:
    files = draw(context_files())
    at = draw(st.integers(min_value=0, max_value=len(files)))
    return files, at, {"path": draw(context_paths), "content": draw(blank)}


def _context(client: Client, files: list[dict]) -> dict | None:
    return client.call("envelope.context-message",
                       {"cwd": CWD, "agentDir": AGENT_DIR, "contextFiles": files})["message"]


def _is_blank(text: str) -> bool:
    return text.strip(" \t\n\r") == ""


@invariant("inv-env-context-blank-file", area="envelope",
           title="Adding a blank context file changes nothing",
           clauses=["ENV-CTX-BLANK", "ENV-CTX-DIVIDER"], ops=["envelope.context-message"], strategy=files_and_blank)
def blank_file_changes_nothing(client: Client, example) -> None:
    files, at, blank = example
    before = _context(client, files)
    after = _context(client, files[:at] + [blank] + files[at:])
    if before != after:
        raise Counterexample(f"inserting the blank file {blank!r} at {at} changed the context message")


@invariant("inv-env-context-divider", area="envelope",
           title="The project-doc divider appears at most once, and exactly when the first kept file is "
                 "global and more than one file is kept",
           clauses=["ENV-CTX-DIVIDER", "ENV-CTX-JOIN", "ENV-CTX-AGENTDIR"], ops=["envelope.context-message"],
           strategy=context_files)
def divider_at_most_once(client: Client, files) -> None:
    message = _context(client, files)
    kept = [f for f in files if not _is_blank(f["content"])]
    if message is None:
        if kept:
            raise Counterexample(f"{len(kept)} non-blank file(s) but no context message")
        return
    count = message["content"].count(PROJECT_DOC_DIVIDER)
    if count > 1:
        raise Counterexample(f"the divider appears {count} times")
    expected = int(len(kept) > 1 and kept[0]["path"] == f"{AGENT_DIR}/AGENTS.md")
    if count != expected:
        raise Counterexample(f"the divider appears {count} time(s), expected {expected} "
                             f"(first kept file {kept[0]['path'] if kept else None}, {len(kept)} kept)")


@invariant("inv-env-context-verbatim", area="envelope",
           title="Every non-blank context file's content appears verbatim, in order; blank files yield no message",
           clauses=["ENV-CTX-BLANK", "ENV-CTX-NONE", "ENV-CTX-FORMAT"], ops=["envelope.context-message"],
           strategy=context_files)
def contents_verbatim(client: Client, files) -> None:
    message = _context(client, files)
    kept = [f["content"] for f in files if not _is_blank(f["content"])]
    if not kept:
        if message is not None:
            raise Counterexample("only blank files, yet a context message was produced")
        return
    if message is None:
        raise Counterexample("non-blank files, yet no context message")
    text, pos = message["content"], 0
    for content in kept:
        found = text.find(content, pos)
        if found < 0:
            raise Counterexample(f"the content {content!r} does not appear verbatim (in order) in the message")
        pos = found + len(content)

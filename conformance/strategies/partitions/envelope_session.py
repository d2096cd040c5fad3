"""The input classes of ``envelope.session`` (ENV-DECISION-ADAPTERS, -SERVICE, -AUDIT,
-REGISTRIES): the registries at load, adapters and provider requests, the envelope service's
capture, current and clear, audits over branches and resumes, session entries of every kind."""

from __future__ import annotations

import math
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, character_cells
from conformance.strategies.partitions.envelope import blank_id, date_cells, js_blank

KINDS = ("globalRegistry", "globalSet", "load", "register", "unregister", "registerAdapter", "capture", "current",
         "clear", "providerRequest", "append", "entry", "context", "compact", "navigate", "entries", "setting", "resume")
GROUP = "@luan.sh/pi-developer-messages/group"
EARLIER = ("@luan.sh/pi-developer-messages/developer", "@luan.sh/pi-developer-messages/context-user")
PROTOCOLS = {"contributions": "pi-developer-messages/developer-messages/v1",
             "adapters": "pi-developer-messages/provider-payload-adapters/v1"}

Step = tuple[str, Any]


def steps(input: dict) -> list[Step]:
    """The script's steps as ``(kind, body)``; a step that is not a one-key object is ``("", step)``."""
    out = []
    for s in input.get("steps") or []:
        out.append(next(iter(s.items())) if isinstance(s, dict) and len(s) == 1 else ("", s))
    return out


def _body(body: Any) -> dict:
    return body if isinstance(body, dict) else {}


def _has(kind: str, test: Callable[[dict], bool] = lambda b: True) -> Hit:
    return lambda i, t: any(k == kind and test(_body(b)) for k, b in steps(i))


def _seq(*tests: Callable[[str, dict], bool]) -> Hit:
    """Steps passing each of ``tests`` in order (others may come between)."""
    def hit(i: dict, t: "dict | None") -> bool:
        n = 0
        for k, b in steps(i):
            if n < len(tests) and tests[n](k, _body(b)):
                n += 1
        return n == len(tests)

    return hit


def _is(kind: str, test: Callable[[dict], bool] = lambda b: True) -> Callable[[str, dict], bool]:
    return lambda k, b: k == kind and test(b)


def _captured_then(test: Callable[[dict, dict], bool]) -> Hit:
    """A capture followed by a provider request; ``test(capture, request)``."""
    def hit(i: dict, t: "dict | None") -> bool:
        seen = []
        for k, b in steps(i):
            b = _body(b)
            if k == "capture":
                seen.append(b)
            elif k == "providerRequest" and any(test(c, b) for c in seen):
                return True
        return False

    return hit


def _same(c: dict, r: dict) -> bool:
    return c.get("sessionId") == r.get("sessionId") and c.get("provider") == r.get("provider")


def _system(r: dict) -> Any:
    return _body(r.get("payload")).get("system")


def _adapters(i: dict) -> set:
    return {_body(b).get("provider") for k, b in steps(i) if k == "registerAdapter"}


def raises_for(content: Any, prompt: str) -> bool:
    """Whether a declarative content raises when rendered for ``prompt``."""
    if not isinstance(content, dict):
        return False
    if "raises" in content:
        return True
    if isinstance(content.get("when"), dict):
        cond = content["when"]
        held = (prompt.find(cond["promptContains"]) >= 0 if isinstance(cond.get("promptContains"), str) else
                prompt == cond.get("promptEquals") if "promptEquals" in cond else (prompt == "") is bool(cond.get("promptEmpty")))
        return raises_for(content.get("then") if held else content.get("otherwise"), prompt)
    return False


def _fails(registered: dict, request: dict) -> bool:
    """Whether a build of ``request`` with the ``registered`` contributions (id to body) raises:
    a kept contribution (ENV-FILTER-*) whose content raises for the request's prompt."""
    provider, tools = request.get("provider"), request.get("activeTools") or []
    for c in registered.values():
        if isinstance(c.get("providers"), list) and provider not in c["providers"]:
            continue
        if any(x not in tools for x in c.get("activeTools") or []):
            continue
        if raises_for(c.get("content"), request.get("prompt") or ""):
            return True
    return False


def _walk(i: dict) -> list[tuple[str, dict, dict, list[dict]]]:
    """Each step as ``(kind, body, contributions registered before it, good captures before it)``."""
    registered: dict = {}
    good: list[dict] = []
    out = []
    for k, b in steps(i):
        b = _body(b)
        out.append((k, b, dict(registered), list(good)))
        if k == "register" and isinstance(b.get("id"), str):
            registered[b["id"]] = b
        elif k == "unregister":
            registered.pop(b.get("id"), None)
        elif k == "clear":
            good = [g for g in good if g.get("sessionId") != b.get("sessionId")]
        elif k == "capture" and not _fails(registered, b):
            good.append(b)
    return out


def _failing_capture(before: Callable[[list[dict], dict], bool]) -> Hit:
    """A capture whose build fails; ``before(the good captures before it, it)``."""
    return lambda i, t: any(k == "capture" and _fails(reg, b) and before(good, b) for k, b, reg, good in _walk(i))


def _failing_after_clear(i: dict, t: "dict | None") -> bool:
    """A capture whose build fails, of a session cleared before it."""
    cleared = set()
    for k, b, reg, good in _walk(i):
        if k == "clear":
            cleared.add(b.get("sessionId"))
        elif k == "capture" and _fails(reg, b) and b.get("sessionId") in cleared:
            return True
    return False


def _failing_current(i: dict, t: "dict | None") -> bool:
    """A current whose rebuild of the stored request (with its overrides) fails."""
    stored: dict = {}
    for k, b, reg, good in _walk(i):
        if k == "capture":
            stored[b.get("sessionId")] = b
        elif k == "clear":
            stored.pop(b.get("sessionId"), None)
        elif k == "current" and b.get("sessionId") in stored:
            request = {**stored[b["sessionId"]], **{f: b[f] for f in ("provider", "activeTools") if f in b}}
            if _fails(reg, request):
                return True
    return False


def _entry(test: Callable[[dict], bool]) -> Hit:
    return _has("entry", lambda b: isinstance(b.get("entry"), dict) and test(b["entry"]))


def _setting(test: Callable[[Any], bool]) -> Hit:
    return lambda i, t: ("auditEntries" in i and test(i["auditEntries"])) or _has("setting", lambda b: "auditEntries" in b and test(b["auditEntries"]))(i, t)


def _texts(i: dict, t: "dict | None") -> list[str]:
    from conformance.strategies.partitions.cells import _texts as every

    return every(i.get("steps") or [])


SESSION = [
    *[Cell("step", k, ("ENV-SCRIPT-STEPS",), _has(k)) for k in KINDS],
    Cell("step", "not a one-key object", ("ENV-SCRIPT-STEPS",), lambda i, t: any(k == "" for k, b in steps(i))),
    Cell("step", "an unknown kind", ("ENV-SCRIPT-STEPS",), lambda i, t: any(k not in KINDS + ("",) for k, b in steps(i))),
    # registries (ENV-REGISTRY-*)
    *[Cell("registry", f"a compatible {key} map before load", ("ENV-REGISTRY-GLOBAL",),
           _has("globalRegistry", lambda b, key=key: b.get("key") == key and b.get("protocol") == PROTOCOLS[key] and b.get("version") == 1))
      for key in PROTOCOLS],
    Cell("registry", "another protocol", ("ENV-REGISTRY-INCOMPATIBLE",),
         _has("globalRegistry", lambda b: b.get("protocol") != PROTOCOLS.get(b.get("key")))),
    Cell("registry", "another version", ("ENV-REGISTRY-INCOMPATIBLE",),
         _has("globalRegistry", lambda b: b.get("protocol") == PROTOCOLS.get(b.get("key")) and b.get("version") != 1)),
    Cell("registry", "a second load", ("ENV-SCRIPT-STEPS",), lambda i, t: sum(1 for k, b in steps(i) if k == "load") >= 2),
    Cell("registry", "globalSet with no shared map yet", ("ENV-SCRIPT-STEPS",),
         lambda i, t: any(k == "globalSet" for k, b in steps(i)[:next((n for n, (k, b) in enumerate(steps(i))
                                                                        if k in ("globalRegistry", "load", "register", "capture")), len(steps(i)))])),
    Cell("registry", "a contribution put straight in that registration refuses", ("ENV-REGISTRY-DIRECT",),
         _has("globalSet", lambda b: isinstance(b.get("contribution"), dict) and (
             not isinstance(b["contribution"].get("id"), str) or js_blank(b["contribution"]["id"])
             or b["contribution"]["id"] == "environment"
             or ("priority" in b["contribution"] and type(b["contribution"]["priority"]) not in (int, float))))),
    Cell("registry", "a valid contribution put straight in", ("ENV-REGISTRY-LIVE",),
         _has("globalSet", lambda b: isinstance(b.get("contribution"), dict) and isinstance(b["contribution"].get("id"), str)
              and not js_blank(b["contribution"]["id"]) and b["contribution"]["id"] != "environment")),
    Cell("registry", "an adapter put straight in", ("ENV-REGISTRY-LIVE",), _has("globalSet", lambda b: isinstance(b.get("adapter"), dict))),
    Cell("registry", "a contribution registered after a capture", ("ENV-REGISTRY-LIVE",), _seq(_is("capture"), _is("register"), _is("capture"))),
    Cell("contribution", "unregistered", ("ENV-CONTRIB-UNREGISTER",), _seq(_is("register"), _is("unregister"))),
    Cell("contribution", "an unknown id unregistered", ("ENV-CONTRIB-UNREGISTER",),
         lambda i, t: any(k == "unregister" and _body(b).get("id") not in
                          [_body(x).get("id") for kk, x in steps(i)[:n] if kk == "register"] for n, (k, b) in enumerate(steps(i)))),
    # adapters (ENV-ADAPTER-*, ENV-PROBE)
    *[Cell("adapter", f"developerMessages {m}", ("ENV-PROBE", "ENV-PAYLOAD-DEVELOPER"),
           _has("registerAdapter", lambda b, m=m: b.get("developerMessages", "replace") == m))
      for m in ("replace", "absent", "return-input", "return-nothing")],
    Cell("adapter", "a blank or absent provider", ("ENV-ADAPTER-PROVIDER",),
         _has("registerAdapter", lambda b: not isinstance(b.get("provider"), str) or js_blank(b["provider"]))),
    Cell("adapter", "registered twice for one provider", ("ENV-ADAPTER-REPLACE",),
         lambda i, t: len([p for k, b in steps(i) if k == "registerAdapter" and (p := _body(b).get("provider"))]) >
         len({p for k, b in steps(i) if k == "registerAdapter" and (p := _body(b).get("provider"))})),
    # provider requests (ENV-PAYLOAD-*)
    Cell("provider request", "before any capture", ("ENV-PAYLOAD-PRECONDITION",),
         lambda i, t: next((k for k, b in steps(i) if k in ("capture", "providerRequest")), None) == "providerRequest"),
    Cell("provider request", "the captured session and provider, with an adapter", ("ENV-PAYLOAD-PRECONDITION", "ENV-PAYLOAD-SYSTEM"),
         lambda i, t: _captured_then(lambda c, r: _same(c, r) and r.get("provider") in _adapters(i))(i, t)),
    Cell("provider request", "the captured session and provider, no adapter", ("ENV-PAYLOAD-PRECONDITION",),
         lambda i, t: _captured_then(lambda c, r: _same(c, r) and r.get("provider") not in _adapters(i))(i, t)),
    Cell("provider request", "another provider than the capture's", ("ENV-PAYLOAD-PRECONDITION",),
         _captured_then(lambda c, r: c.get("sessionId") == r.get("sessionId") and c.get("provider") != r.get("provider"))),
    Cell("provider request", "another session", ("ENV-PAYLOAD-PRECONDITION",),
         _captured_then(lambda c, r: c.get("sessionId") != r.get("sessionId"))),
    Cell("provider request", "the system prompt is Pi's original", ("ENV-PAYLOAD-SYSTEM", "ENV-PAYLOAD-ORIGINAL"),
         _captured_then(lambda c, r: _same(c, r) and isinstance(c.get("systemPrompt"), str) and _system(r) == c["systemPrompt"])),
    Cell("provider request", "the system prompt is another text", ("ENV-PAYLOAD-SYSTEM",),
         _captured_then(lambda c, r: _same(c, r) and isinstance(_system(r), str) and _system(r) != c.get("systemPrompt"))),
    Cell("provider request", "the system prompt is not a string", ("ENV-PROBE",),
         _captured_then(lambda c, r: _same(c, r) and not isinstance(_system(r), str))),
    Cell("provider request", "Pi had no prompt", ("ENV-PAYLOAD-ORIGINAL",),
         _captured_then(lambda c, r: _same(c, r) and not isinstance(c.get("systemPrompt"), str))),
    Cell("provider request", "keys the adapter never touches", ("ENV-PROBE",),
         _has("providerRequest", lambda b: bool(set(_body(b.get("payload"))) - {"system", "developer"}))),
    # the service (ENV-SVC-*)
    Cell("capture", "with its own host", ("ENV-SVC-CAPTURE",), _has("capture", lambda b: isinstance(b.get("host"), dict))),
    Cell("capture", "with the script's host", ("ENV-SVC-CAPTURE",), _has("capture", lambda b: "host" not in b)),
    *[Cell(f"host {c.dimension}", c.name, c.clauses + ("ENV-SCRIPT-STEPS",), c.hit)
      for c in date_cells(lambda i: [h.get("date") for h in [i.get("host")] + [_body(b).get("host") for k, b in steps(i) if k == "capture"]
                                     if isinstance(h, dict)])],
    Cell("register", "a blank or reserved id with a priority that is not a finite number",
         ("ENV-CONTRIB-ID", "ENV-CONTRIB-ID-RESERVED", "ENV-PRIORITY-FINITE", "ENV-SCRIPT-STEPS"),
         _has("register", lambda b: (blank_id(b) or b.get("id") == "environment") and "priority" in b
              and not (type(b["priority"]) in (int, float) and math.isfinite(b["priority"])))),
    Cell("capture", "no provider", ("ENV-FILTER-PROVIDERS",), _has("capture", lambda b: b.get("provider") is None)),
    Cell("capture", "failing, after a good capture of its provider", ("ENV-SVC-FAIL-REUSE", "ENV-SVC-FAIL-NOTIFY"),
         _failing_capture(lambda seen, c: any(_same(s, c) for s in seen))),
    Cell("capture", "failing, with no good capture of its provider", ("ENV-SVC-FAIL-NONE", "ENV-SVC-FAIL-NOTIFY"),
         _failing_capture(lambda seen, c: not any(_same(s, c) for s in seen))),
    Cell("capture", "failing after a clear", ("ENV-SVC-CLEAR-MEMORY",), _failing_after_clear),
    Cell("current", "a captured session", ("ENV-SVC-CURRENT",), _seq(_is("capture"), _is("current"))),
    Cell("current", "an unknown session", ("ENV-SVC-CURRENT-UNKNOWN",),
         lambda i, t: any(k == "current" and _body(b).get("sessionId") not in
                          [_body(x).get("sessionId") for kk, x in steps(i)[:n] if kk == "capture"] for n, (k, b) in enumerate(steps(i)))),
    *[Cell("current", f"overriding {f}", ("ENV-SVC-CURRENT", "ENV-RENDER-OPTIONS") if f == "cwd" else ("ENV-SVC-CURRENT",),
           _has("current", lambda b, f=f: f in b)) for f in ("provider", "activeTools", "cwd")],
    Cell("current", "overriding the provider with null", ("ENV-SVC-CURRENT",), _has("current", lambda b: "provider" in b and b["provider"] is None)),
    Cell("current", "overriding activeTools with an empty list", ("ENV-SVC-CURRENT",), _has("current", lambda b: b.get("activeTools") == [])),
    Cell("current", "overriding cwd with an empty string", ("ENV-SVC-CURRENT",), _has("current", lambda b: b.get("cwd") == "")),
    Cell("current", "activeTools or cwd null", ("ENV-SVC-CURRENT",),
         _has("current", lambda b: ("activeTools" in b and b["activeTools"] is None) or ("cwd" in b and b["cwd"] is None))),
    Cell("current", "a rebuild that fails", ("ENV-SVC-CURRENT-FAIL",), _failing_current),
    Cell("clear", "then current", ("ENV-SVC-CLEAR",), _seq(_is("capture"), _is("clear"), _is("current"))),
    Cell("clear", "then a provider request", ("ENV-SVC-CLEAR-MEMORY",), _seq(_is("capture"), _is("clear"), _is("providerRequest"))),
    # audits (ENV-AUDIT-*)
    *[Cell("audit setting", name, ("ENV-AUDIT-SETTING",), _setting(lambda v, want=want: v == want))
      for name, want in (("none", []), ("developer only", ["developer"]), ("context-user only", ["context-user"]))],
    Cell("audit setting", "invalid", ("ENV-AUDIT-SETTING-INVALID",),
         _setting(lambda v: not (isinstance(v, list) and all(x in ("developer", "context-user") for x in v)) and v is not None)),
    Cell("audit setting", "from a TOML text", ("ENV-AUDIT-TOML",), _has("setting", lambda b: "toml" in b)),
    Cell("audit", "a capture repeated unchanged", ("ENV-AUDIT-NOTHING",),
         lambda i, t: len([1 for k, b in steps(i) if k == "capture"]) > len({repr(sorted(_body(b).items())) for k, b in steps(i) if k == "capture"})),
    Cell("audit", "a contribution changed between captures", ("ENV-AUDIT-CHANGED",), _seq(_is("capture"), _is("register"), _is("capture"))),
    Cell("audit", "a capture on another branch", ("ENV-AUDIT-CHANGED",), _seq(_is("capture"), _is("navigate"), _is("capture"))),
    Cell("audit", "a capture after a resume", ("ENV-AUDIT-CHANGED",), _seq(_is("capture"), _is("resume"), _is("capture"))),
    Cell("audit", "a failed build", ("ENV-AUDIT-FAILED-BUILD",), _failing_capture(lambda seen, c: True)),
    Cell("audit", "context files recorded", ("ENV-AUDIT-ROLES", "ENV-AUDIT-ITEMS"),
         _has("capture", lambda b: bool(_body(b.get("systemPromptOptions")).get("contextFiles")))),
    # entries (ENV-ENTRY-MESSAGES, ENV-AUDIT-READ, ENV-AUDIT-EARLIER)
    Cell("entry", "a group audit", ("ENV-AUDIT-READ",),
         _entry(lambda e: e.get("type") == "custom" and e.get("customType") == GROUP and isinstance(_body(e.get("data")).get("entries"), list))),
    Cell("entry", "a group audit with data that cannot be read", ("ENV-AUDIT-READ",),
         _entry(lambda e: e.get("type") == "custom" and e.get("customType") == GROUP and not isinstance(_body(e.get("data")).get("entries"), list))),
    Cell("entry", "an audit of an earlier type", ("ENV-AUDIT-EARLIER",), _entry(lambda e: e.get("type") == "custom" and e.get("customType") in EARLIER)),
    Cell("entry", "a custom message", ("ENV-ENTRY-MESSAGES",), _entry(lambda e: e.get("type") == "custom_message")),
    Cell("entry", "a custom message of an audit type", ("ENV-AUDIT-STRIP",),
         _entry(lambda e: e.get("type") == "custom_message" and e.get("customType") in (GROUP,) + EARLIER)),
    Cell("entry", "a branch summary", ("ENV-ENTRY-MESSAGES",), _entry(lambda e: e.get("type") == "branch_summary")),
    Cell("entry", "another type or none", ("ENV-ENTRY-MESSAGES",),
         _entry(lambda e: e.get("type") not in ("custom", "custom_message", "branch_summary", "message"))),
    Cell("navigate", "to an entry", ("ENV-AUDIT-STRIP",), _has("navigate", lambda b: isinstance(b.get("to"), str))),
    Cell("navigate", "before the first entry", ("ENV-AUDIT-STRIP",), _has("navigate", lambda b: "to" in b and b["to"] is None)),
    Cell("navigate", "to an unknown entry", ("ENV-SCRIPT-STEPS",), _has("navigate", lambda b: b.get("to") in ("e99", "nope", "e9"))),
    Cell("context", "given messages", ("ENV-CTX-INJECT",), _has("context", lambda b: "messages" in b)),
    Cell("context", "the session's branch", ("ENV-CTX-INJECT", "ENV-AUDIT-STRIP"), _has("context", lambda b: "messages" not in b)),
    *character_cells(("ENV-RENDER-CONTENT",), _texts),
]
"""The classes of ``envelope.session``: every step kind and malformed steps; registries
compatible, of another protocol or version, loaded twice, entries put straight in; contributions
unregistered, registered with a blank or reserved id beside a priority that is not a number; adapters of each kind, blank, replaced; provider requests before a capture, for the
captured provider with and without an adapter, another provider or session, each kind of system
prompt; captures with their own host or the script's, with a host date of another form, of the
form but no calendar's day, or February 29 of a leap year, failing with and without a last good one or
after a clear; current known, unknown, each override, failing; clear then current and requests;
audit settings; audits repeated, changed, across branches and resumes, of failed builds; session
entries of every kind; navigation; the context hook."""


PARTITIONS: dict[str, list[Cell]] = {"envelope.session": SESSION}

"""Frames of the envelope area's one-turn operations: inputs built on purpose, one per
combination of the classes that :mod:`conformance.strategies.partitions.envelope` and
:mod:`conformance.strategies.partitions.envelope_context` declare."""

from __future__ import annotations

from conformance.strategies.envelope import AGENT_DIR, CWD, HISTORY
from conformance.strategies.registry import frames

CHARACTERS = "caf\u00e9 \U0001F600 e\u0301"
HOST = {"platform": "linux", "shell": "/bin/bash", "shells": ["bash"], "date": "2025-01-31", "timezone": "Europe/Lisbon"}


@frames("envelope.instructions")
def instructions_frames() -> list[tuple[dict, None]]:
    """Each of the three texts absent, null, empty, blank, set with any characters, padded, in
    turn against the others."""
    values = ([], [None], [""], [" \u00a0"], ["Pi " + CHARACTERS], ["  padded\n"])
    keys = ("systemPrompt", "customPrompt", "appendSystemPrompt")
    out = []
    for n in range(len(values)):
        data: dict = {}
        for k, key in enumerate(keys):
            for v in values[(n + 2 * k) % len(values)]:
                data[key] = v
        out.append((data, None))
    return out


def _host(**fields: object) -> dict:
    return {**HOST, **fields}


@frames("envelope.environment")
def environment_frames() -> list[tuple[dict, None]]:
    """fish with ``exec_command`` on Windows and elsewhere with each set of shells, in another
    case and without ``exec_command``; ``$SHELL`` and ``%ComSpec%`` empty, absent or with an empty
    basename; cwds with a trailing slash, nothing, any characters; dates of another form, of the
    form but no calendar's day, February 29 of a leap year."""
    exe = ["exec_command"]
    cases = [
        (CWD, exe, _host(shell="/usr/bin/fish", shells=[])),
        (CWD + "/", exe, _host(platform="darwin", shell="/opt/Fish/bin/FISH", shells=["bash", "zsh"])),
        ("", exe, _host(platform="freebsd", shell="fish", shells=["sh", "bash"], timezone="")),
        ("C:\\work\\project", exe, _host(platform="win32", shell="C:\\tools\\fish", shells=[])),
        ("/work/" + CHARACTERS, ["Exec_command"], _host(shell="/usr/bin/fish", timezone=None)),
        (CWD, [], {"platform": "linux", "shell": "/", "comSpec": "", "date": "2025-01-31", "timezone": " \u3000"}),
        (CWD, [], _host(timezone="\tEurope/Lisbon ")),
        (CWD, [], {"platform": "win32", "comSpec": "C:\\Windows\\System32\\cmd.exe", "date": "2025-01-31"}),
        (CWD, [], _host(date="2026-02-30")),
        (CWD, [], _host(date="2028-02-29")),
        (CWD, [], _host(date=" 2025-01-31")),
    ]
    return [({"cwd": cwd, "activeTools": tools, "host": host}, None) for cwd, tools, host in cases]


def _c(id: object = None, content: object = "text", **fields: object) -> dict:
    c: dict = {"content": content, **fields}
    if id is not None:
        c["id"] = id
    return c


@frames("envelope.developer-messages")
def developer_messages_frames() -> list[tuple[dict, None]]:
    """Ids of every ordering class, repeated and refused (also beside a priority that is not a
    number, or with content that would raise); priorities of every kind; each filter with the
    provider known and not; every content form; no contribution; host dates of another form, of
    the form but no calendar's day, February 29 of a leap year."""
    ordering = [_c(i, f"from {i}") for i in ("a", "A", "a_b", "a-b", "a.b", "a/b", "a1", "a10", "a2", "\u00e9", "e", "ab", "a\u00adb", "Environment")]
    ordering.append(_c("a", "a again"))
    refused = [_c(None), _c(""), _c(" \u00a0"), _c("\u0085"), _c("environment"),
               _c(None, priority="1"), _c(" ", {"raises": "refused"}, priority=[1]), _c("environment", priority=True),
               *[_c(f"p{n}", f"priority {n}", priority=p) for n, p in enumerate((-1, 0.5, -0.0, 1e308, "1", True, None))]]
    filters = [_c("f1", providers=["openai"]), _c("f2", providers=["anthropic"]), _c("f3", providers=[]),
               _c("f4", providers=["OpenAI"]), _c("t1", activeTools=["read"]), _c("t2", activeTools=["read", "write"]),
               _c("t3", activeTools=[]), _c("t4", activeTools=["read", "read"]), _c("t5", activeTools=["Read"]), _c("x", {"raises": "boom"}, providers=["anthropic"])]
    template = "{provider} {sessionId} {prompt} {activeTools} {customPrompt} {cwd} {systemPromptOptions.flag} " \
               "{systemPromptOptions.missing} {{sessionId}} $provider {prompt"
    contents = [_c("c1", "  padded \n"), _c("c2", "\u0085x\u0085"), _c("c3", ""), _c("c4", " \n"), _c("c5", None),
                _c("c6", {"returns": "returned"}), _c("c7", {"returns": None}), _c("c8", {"template": template}),
                _c("c9", {"when": {"promptContains": "fix"}, "then": "contains"}),
                _c("d1", {"when": {"promptEquals": "fix it"}, "then": "equals", "otherwise": "differs"}),
                _c("d2", {"when": {"promptEmpty": False}}), _c("d3", CHARACTERS)]
    options = {"customPrompt": "Custom.", "flag": "on", "contextFiles": [{"path": f"{CWD}/AGENTS.md", "content": "ctx"}]}
    turn = {"provider": "openai", "activeTools": ["read"], "prompt": "fix it", "host": HOST}
    return [({"contributions": ordering, "host": HOST}, None),
            ({"contributions": refused, **turn}, None),
            ({"contributions": filters, **turn}, None),
            ({"contributions": [_c("f1", providers=["openai"])], "host": HOST}, None),
            ({"contributions": contents, **turn, "systemPromptOptions": options}, None),
            ({"contributions": [], "host": HOST, "prompt": ""}, None),
            ({"contributions": [], "host": _host(date="2025-02-29")}, None),
            ({"contributions": [], "host": _host(date="2025-01-31T10:00")}, None),
            ({"contributions": [], "host": _host(date="2000-02-29")}, None)]


DIVIDED = "x\n\n--- project-doc ---\n\ny"


PARENT, HOME = AGENT_DIR.rsplit("/", 1)[0], AGENT_DIR.split("/.pi")[0]
NEAR_AGENT_DIR = ((AGENT_DIR, f"{PARENT}/Agent/AGENTS.md"), (AGENT_DIR.upper(), f"{AGENT_DIR}/AGENTS.md"),
                  ("c:\\Users\\me\\.pi\\agent", "C:\\Users\\me\\.pi\\agent\\AGENTS.md"),
                  (AGENT_DIR, f"{PARENT}/x/../agent/AGENTS.md"), (f"{PARENT}/x/../agent", f"{AGENT_DIR}/AGENTS.md"),
                  ("C:\\a\\agent", "C:\\a\\x\\..\\agent\\AGENTS.md"),
                  (AGENT_DIR, f"{PARENT}/./agent/AGENTS.md"), (AGENT_DIR, f"{AGENT_DIR}/./AGENTS.md"),
                  (f"{HOME}/./.pi/agent", f"{AGENT_DIR}/AGENTS.md"),
                  (AGENT_DIR, f"{HOME}//.pi/agent/AGENTS.md"), (f"{PARENT}//agent", f"{AGENT_DIR}/AGENTS.md"))
"""Agent directories and a path near them (ENV-CTX-AGENTDIR): a case differs, a ``..``, ``.`` or
doubled slash on one side only; the same directory to a comparison that folds case or resolves
the path, another one as written."""


@frames("envelope.context-message")
def context_message_frames() -> list[tuple[dict, None]]:
    """The agent directory's file first after blank files of every kind and among padded ones
    and one holding the divider; not first, with files below and beside the directory and a
    relative one; the directory written with backslashes; all blank; none; then a first file near
    the agent directory before a project file: in another letter case (a drive letter too), with
    a '..', a '.' or a doubled slash that resolving would remove, on either side (ENV-CTX-AGENTDIR)."""
    first = [{"path": f"{CWD}/AGENTS.md", "content": " \t"}, {"path": f"{AGENT_DIR}/AGENTS.md", "content": "Global."},
             {"path": f"{CWD}/AGENTS.md", "content": "  padded\n"}, {"path": f"{CWD}/a/AGENTS.md", "content": "\u00a0\u3000"},
             {"path": f"{CWD}/b/AGENTS.md", "content": "\u0085"}, {"path": f"{CWD}/c/AGENTS.md", "content": DIVIDED}]
    project = {"path": f"{CWD}/AGENTS.md", "content": "Project."}
    later = [{"path": f"{CWD}/AGENTS.md", "content": "Project."}, {"path": f"{AGENT_DIR}/AGENTS.md", "content": "Global."},
             {"path": f"{AGENT_DIR}/sub/AGENTS.md", "content": "Below."}, {"path": f"{AGENT_DIR}x/AGENTS.md", "content": "Beside."},
             {"path": "AGENTS.md", "content": "Relative."}]
    windows = [{"path": "C:/Users/me/.pi/agent/AGENTS.md", "content": CHARACTERS}]
    return [({"cwd": CWD, "agentDir": AGENT_DIR, "contextFiles": first}, None),
            ({"cwd": "C:\\w", "agentDir": AGENT_DIR + "/", "contextFiles": later}, None),
            ({"cwd": CWD, "agentDir": "C:\\Users\\me\\.pi\\agent", "contextFiles": windows}, None),
            ({"cwd": CWD, "agentDir": AGENT_DIR, "contextFiles": [{"path": f"{CWD}/AGENTS.md", "content": ""},
                                                                {"path": f"{CWD}/x/AGENTS.md", "content": " "}]}, None),
            ({"cwd": CWD, "contextFiles": []}, None),
            *[({"cwd": CWD, "agentDir": agent_dir, "contextFiles": [{"path": near, "content": "Near."}, project]}, None)
              for agent_dir, near in NEAR_AGENT_DIR]]


@frames("envelope.context-hook")
def context_hook_frames() -> list[tuple[dict, None]]:
    """Each kind of context files over no history, a history of every kind, and an earlier copy;
    audit copies with no role field and a message of an audit type with another role (ENV-AUDIT-STRIP);
    the agent-directory frames (:func:`agent_dir_frames`) over one message."""
    one = [{"path": f"{CWD}/AGENTS.md", "content": "Project."}]
    two = [{"path": f"{AGENT_DIR}/AGENTS.md", "content": "Global."}, *one]
    blank = [{"path": f"{CWD}/AGENTS.md", "content": " "}]
    return [({"cwd": CWD, "agentDir": AGENT_DIR, "contextFiles": [], "messages": []}, None),
            ({"cwd": CWD, "agentDir": AGENT_DIR, "contextFiles": one, "messages": list(HISTORY)}, None),
            ({"cwd": CWD, "agentDir": AGENT_DIR, "contextFiles": blank, "messages": [HISTORY[1], HISTORY[0]]}, None),
            ({"cwd": CWD, "agentDir": AGENT_DIR, "contextFiles": two, "messages": [HISTORY[5], HISTORY[0], HISTORY[6]]}, None),
            ({"cwd": CWD, "agentDir": AGENT_DIR, "contextFiles": one, "messages": list(ROLE_FORMS)}, None),
            *[({**frame, "messages": [HISTORY[0]]}, None) for frame in agent_dir_frames()]]


ROLE_FORMS = [HISTORY[0], *({k: v for k, v in m.items() if k != "role"} for m in HISTORY[2:5]),
              {**HISTORY[2], "role": "user"}, {**HISTORY[3], "role": "Custom"}, {**HISTORY[1], "role": "user"},
              HISTORY[6]]
"""A history whose audit copies have no role field (as a session stores a custom message), with
messages of audit types and of the context-files type under another role, which are kept
(ENV-AUDIT-STRIP, ENV-CTX-INJECT)."""


@frames("envelope.build")
def build_frames() -> list[tuple[dict, None]]:
    """A request with nothing but its session, one with every prompt and context files of the
    agent directory and the project and options with their own cwd, one with no provider; one
    per agent-directory frame (:func:`agent_dir_frames`); refused contributions with a second
    problem; host dates of another form, of the form but no calendar's day, February 29 of a leap
    year."""
    files = [{"path": f"{AGENT_DIR}/AGENTS.md", "content": "Global."}, {"path": f"{CWD}/AGENTS.md", "content": CHARACTERS}]
    options = {"customPrompt": "Custom.", "appendSystemPrompt": "Appended.", "contextFiles": files, "cwd": "/other"}
    full = {"sessionId": "s1", "provider": "openai", "systemPrompt": "PI", "cwd": "C:\\work\\project", "agentDir": AGENT_DIR,
            "systemPromptOptions": options, "host": HOST, "prompt": "fix it"}
    blank = {"sessionId": "s1", "cwd": CWD, "host": HOST, "systemPromptOptions": {"contextFiles": [{"path": f"{CWD}/AGENTS.md", "content": " "}]}}
    return [({"contributions": [], "request": {"sessionId": "s1", "cwd": CWD, "systemPrompt": None}}, None),
            ({"contributions": [_c("a", providers=["openai"]), _c("b", providers=["anthropic"])], "request": full}, None),
            ({"contributions": [_c("a", providers=["openai"]), _c("r", {"raises": "boom"})], "request": blank}, None),
            ({"contributions": [_c("environment"), _c("Environment"), _c("ENVIRONMENT")], "request": blank}, None),
            ({"contributions": [_c(None, {"raises": "refused"}, priority="1"), _c("environment", priority="high"), _c("k")],
              "request": {**blank, "host": {**HOST, "date": "2025-04-31"}}}, None),
            ({"contributions": [], "request": {**blank, "host": {**HOST, "date": "2024-02-29"}}}, None),
            ({"contributions": [], "request": {**blank, "host": {**HOST, "date": "20250131"}}}, None),
            *[({"contributions": [], "request": {"sessionId": "s1", "cwd": frame["cwd"], "host": HOST,
                                                 "agentDir": frame["agentDir"],
                                                 "systemPromptOptions": {"contextFiles": frame["contextFiles"]}}}, None)
              for frame in agent_dir_frames()]]


def agent_dir_frames() -> list[dict]:
    """The inputs of :func:`context_message_frames` that turn on the agent-directory test
    (ENV-CTX-AGENTDIR): files below and beside it, a trailing slash, backslashes, and every near
    miss; for the operations that build the context-files message as a part (build, the hook)."""
    return [frame for frame, _ in context_message_frames()[1:3]] + \
        [frame for frame, _ in context_message_frames()[-len(NEAR_AGENT_DIR):]]


@frames("envelope.settings")
def settings_frames() -> list[tuple[dict, None]]:
    """Every file form and every value form of the audit setting."""
    values = ('["developer", "context-user"]', '["context-user", "developer"]', '["developer"]', '["context-user"]', "[]",
              '["developer", "developer"]', '["user"]', "true", "[1]", '["Developer"]', '["context-user", "developer "]')
    texts = [None, "", "[appearance]\n", "not toml = = =\n", "[other]\npi-developer-messages.auditEntries = []\n"]
    texts += [f"[appearance]\npi-developer-messages.auditEntries = {v}\n" for v in values]
    return [({"toml": t}, None) for t in texts]


def _capture(sid: str = "s1", provider: "str | None" = "openai", prompt: str = "ok", **fields: object) -> dict:
    request: dict = {"sessionId": sid, "prompt": prompt, "systemPrompt": "PI", "cwd": CWD, **fields}
    if provider is not None:
        request["provider"] = provider
    return {"capture": request}


def _request(sid: str = "s1", provider: str = "openai", system: object = "PI") -> dict:
    return {"providerRequest": {"sessionId": sid, "provider": provider,
                                "payload": {"system": system, "developer": [], "messages": [], "extra": 1}}}


FRAGILE = {"id": "fragile", "content": {"when": {"promptContains": "break"}, "then": {"raises": "boom"}, "otherwise": "steady"}}


@frames("envelope.session")
def session_frames() -> list[tuple[dict, None]]:
    """Scripts over the registries (shared maps of each kind before load, entries put straight
    in, a second load), adapters of every kind and provider requests of every kind, the service
    (failing captures with and without a last good one and after a clear, current with each
    override, unknown and failing), audits (settings, repeats, changes, branches, resumes) and
    session entries of every kind; a malformed step and an unknown one; registrations with two
    problems and host dates of every ENV-ENV-DATE class."""
    registries = [{"globalSet": {"contribution": {"id": "early", "content": "Early."}}},
                  {"globalRegistry": {"key": "contributions", "protocol": "pi-developer-messages/developer-messages/v1", "version": 1}},
                  {"globalRegistry": {"key": "adapters", "protocol": "other", "version": 1}},
                  {"globalSet": {"contribution": {"id": "", "content": "refused"}}},
                  {"globalSet": {"contribution": {"id": "direct", "content": "Direct."}}},
                  {"globalSet": {"adapter": {"provider": "openai"}}}, {"load": {}}, {"load": {}},
                  {"register": {"id": "a", "content": "A " + CHARACTERS}}, _capture(), {"register": {"id": "b", "content": "B"}},
                  _capture(), {"unregister": {"id": "b"}}, {"unregister": {"id": "nope"}}]
    versions = [{"globalRegistry": {"key": "adapters", "protocol": "pi-developer-messages/provider-payload-adapters/v1", "version": 1}},
                {"globalRegistry": {"key": "contributions", "protocol": "pi-developer-messages/developer-messages/v1", "version": 2}},
                {"load": {}}]
    adapters = [_request(), {"registerAdapter": {"provider": "openai"}},
                {"registerAdapter": {"provider": "openai", "developerMessages": "absent"}},
                {"registerAdapter": {"provider": "anthropic", "developerMessages": "return-input"}},
                {"registerAdapter": {"provider": " "}}, {"registerAdapter": {"provider": "x", "developerMessages": "return-nothing"}},
                _capture(systemPromptOptions={"customPrompt": "CUSTOM"}), _request(), _request(system="other"), _request(system=None), _request(provider="anthropic"),
                _request(sid="s2"), _capture(provider="google"), _request(provider="google"),
                _capture(sid="s3", systemPrompt=None), _request(sid="s3")]
    service = [{"registerAdapter": {"provider": "openai"}}, {"register": FRAGILE}, _capture(), _capture(prompt="break"),
               _capture(sid="s2", prompt="break"), {"current": {"sessionId": "s1"}},
               {"current": {"sessionId": "s1", "provider": None}}, {"current": {"sessionId": "s1", "cwd": "/elsewhere"}},
               {"current": {"sessionId": "s1", "activeTools": ["read"]}}, {"current": {"sessionId": "s1", "activeTools": []}},
               {"current": {"sessionId": "s1", "cwd": ""}}, {"current": {"sessionId": "s1", "activeTools": None, "cwd": None}},
               {"current": {"sessionId": "s9"}},
               {"clear": {"sessionId": "s1"}}, {"current": {"sessionId": "s1"}}, _request(), _capture(prompt="break")]
    files = {"contextFiles": [{"path": f"{CWD}/AGENTS.md", "content": "Rules."}]}
    audits = [{"setting": {"auditEntries": ["x"]}}, {"setting": {"toml": "[appearance]\npi-developer-messages.auditEntries = [\"developer\"]\n"}},
              {"register": {"id": "a", "content": "A"}}, _capture(systemPromptOptions=files), _capture(systemPromptOptions=files),
              {"register": {"id": "a", "content": "A changed"}}, _capture(systemPromptOptions=files),
              {"navigate": {"sessionId": "s1", "to": "e1"}}, _capture(systemPromptOptions=files), {"resume": {}},
              _capture(systemPromptOptions=files), _capture(provider=None, host=HOST),
              {"entry": {"sessionId": "s1", "entry": {"type": "custom", "customType": "@luan.sh/pi-developer-messages/group",
                                                      "data": {"entries": [{"role": "developer", "id": "a", "content": "A"}]}}}},
              {"entry": {"sessionId": "s1", "entry": {"type": "custom", "customType": "@luan.sh/pi-developer-messages/group", "data": "x"}}},
              {"entry": {"sessionId": "s1", "entry": {"type": "custom", "customType": "@luan.sh/pi-developer-messages/developer",
                                                      "data": {"role": "developer", "id": "a", "content": "A"}}}},
              {"entry": {"sessionId": "s1", "entry": {"type": "custom_message", "customType": "note", "content": "x", "display": True}}},
              {"entry": {"sessionId": "s1", "entry": {"type": "custom_message", "customType": "@luan.sh/pi-developer-messages/group",
                                                      "content": "audit", "display": False}}},
              {"entry": {"sessionId": "s1", "entry": {"type": "branch_summary", "summary": "s", "fromId": "e1"}}},
              {"entry": {"sessionId": "s1", "entry": {"type": "other"}}},
              {"append": {"sessionId": "s1", "message": {"role": "user", "content": "hi", "timestamp": 1}}},
              {"context": {"sessionId": "s1"}}, {"context": {"sessionId": "s1", "messages": [HISTORY[2], HISTORY[0]]}},
              {"compact": {"sessionId": "s1"}}, {"navigate": {"sessionId": "s1", "to": None}}, {"navigate": {"sessionId": "s1", "to": "e99"}},
              {"entries": {"sessionId": "s1"}}]
    return [({"host": HOST, "steps": registries}, None), ({"host": HOST, "steps": versions}, None),
            ({"host": HOST, "steps": adapters}, None), ({"host": HOST, "steps": service}, None),
            ({"host": HOST, "auditEntries": ["context-user"], "steps": audits}, None),
            ({"host": HOST, "steps": [{"load": {}, "clear": {"sessionId": "s1"}}]}, None),
            ({"host": HOST, "steps": [{"bogus": {}}]}, None),
            ({"host": {**HOST, "date": "2025-02-29"},
              "steps": [{"register": {"content": "no id", "priority": "1"}}, {"register": {"id": "environment", "priority": None}},
                        {"register": {"id": "k", "content": "K"}}, _capture(),
                        _capture(sid="s2", host={**HOST, "date": "2024-02-29"}), _capture(sid="s3", host={**HOST, "date": "2025-1-31"})]},
             None)]

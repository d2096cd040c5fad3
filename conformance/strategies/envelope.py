"""Strategies of the envelope area's inputs (the pi-developer-messages README, ENV-DECISION-*):
contributions, host facts, context files and histories, settings texts and session scripts, each
reaching the values its rules treat specially. The invariants of
:mod:`conformance.invariants.envelope` draw from the same pieces."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from pydantic import ValidationError

from conformance.operations.envelope import PROJECT_DOC_DIVIDER
from conformance.operations.envelope_models import TemplateContent
from conformance.strategies.registry import strategy

AGENT_DIR = "/home/user/.pi/agent"
CWD = "/work/project"

ORDERING_IDS = ("a", "A", "a_b", "a-b", "a.b", "a/b", "a1", "a10", "a2", "b", "B", "é", "e", "E", "z", "_", "-x",
                "tools/x", "Environment", "environment-2", "zeta", "f")
"""Ids from ENV-DECISION-CONTRIBUTIONS's example order (``a < A < a_b < a-b < a.b < a/b < a1 < a10 < a2 < b``, which
code-point order breaks) and ids that sort around ``environment``."""

EQUAL_RANKED = ("ab", "a\x00b", "a\u00adb", "a\u200bb")
"""Ids the root collation ranks equal (a completely ignorable character inside: U+0000, a soft
hyphen, a zero-width space), which code points must then order (ENV-ORDER-CODEPOINT)."""

TIES_BEYOND_BMP = (("m\ufe0f", "m\U000e0100"), ("\ufff9m", "\U0001d173m"), ("\ufa6c", "\U000242ee"))
"""Pairs of ids the root collation ranks equal whose code points and UTF-16 code units order them
apart: a character beyond U+FFFF against one in U+E000..U+FFFF (ignorable, or a compatibility
ideograph and its canonical decomposition), which code points must order (ENV-ORDER-CODEPOINT)."""

ids = st.one_of(st.text(alphabet="aAbB_-./190é", min_size=1, max_size=4), st.sampled_from(ORDERING_IDS),
                st.sampled_from(EQUAL_RANKED))
"""A contribution id with the characters the ordering rules treat specially: those whose
Unicode-collation order differs from code-point order (case, ``_ - . /``, digits, accents)."""

priorities = st.sampled_from([0, 0, 0, 1, -1, 0.5, 100])
"""Priorities that often tie."""

BAD_IDS = (None, "", " ", "\t\n", "environment")
"""Ids that are refused (absent, empty, blank) or reserved."""

FINITE_PRIORITIES = (0, 1, -1, 0.5, -0.0, 1e9, -1e9, 1e308)
"""Finite priorities of every kind: whole, fractional, negative zero, huge."""

PRIORITY_VALUES = FINITE_PRIORITIES + ("1", None, True, [], {})
"""Priorities: the finite numbers and JSON values that are not numbers (refused)."""

PROVIDERS = ("openai", "openai-codex", "anthropic", "OpenAI", "")
TOOLS = ("read", "exec_command", "write", "Read")


@st.composite
def contributions(draw: Any, min_size: int = 0, max_size: int = 6) -> list[dict]:
    """Contributions with distinct ids, priorities that often tie, and string contents: what
    ordering alone is about."""
    out = []
    for cid in draw(st.lists(ids, min_size=min_size, max_size=max_size, unique=True)):
        c: dict = {"id": cid, "content": f"from {cid}"}
        p = draw(priorities)
        if p != 0 or draw(st.booleans()):
            c["priority"] = p
        out.append(c)
    return out


PLACEHOLDERS = ("{provider}", "{sessionId}", "{prompt}", "{activeTools}", "{customPrompt}", "{cwd}",
                "{systemPromptOptions.cwd}", "{systemPromptOptions.customPrompt}", "{systemPromptOptions.flag}",
                "{systemPromptOptions.n}", "{systemPromptOptions.contextFiles}", "{systemPromptOptions.missing}")
TEMPLATE_NEAR_MISSES = ("{provider", "provider}", "{{sessionId}}", "$provider", "{", "}{", "{prompt")
"""Texts near a placeholder that stay literal (a placeholder the model does not know is refused
by the model, so none is drawn)."""
_TEMPLATE_PLAIN = ("T", "A ", " ", "\n", "  ")


def _known_placeholders(template: str) -> bool:
    """Whether every ``{...}`` of ``template`` is a placeholder the model knows (pieces put side
    by side can form an unknown one, which the model refuses)."""
    try:
        TemplateContent.model_validate({"template": template})
    except ValidationError:
        return False
    return True


@st.composite
def content(draw: Any, depth: int = 0) -> Any:
    """A declarative contribution content (the forms are in the guide ``docs/envelope.md``): mostly
    text that renders, and every other form; a content that raises is rare, since it fails the
    whole call."""
    kind = draw(st.integers(0, 11 if depth < 2 else 8))
    if kind <= 3:
        return draw(st.sampled_from(["text", "  padded \n", "a\n\nb", "x"]))
    if kind == 4:
        return draw(st.sampled_from(["", " \n\t", None]))
    if kind == 5:
        return {"returns": draw(st.sampled_from(["returned", " ", "", None]))}
    if kind in (6, 7, 8):
        pieces = st.sampled_from(_TEMPLATE_PLAIN + PLACEHOLDERS + TEMPLATE_NEAR_MISSES)
        return {"template": draw(st.lists(pieces, min_size=1, max_size=4).map("".join).filter(_known_placeholders))}
    if kind == 11 and draw(st.integers(0, 3)) == 0:
        return {"raises": draw(st.sampled_from(["boom", ""]))}
    condition = draw(st.sampled_from([{"promptContains": "fix"}, {"promptContains": ""}, {"promptEquals": "fix it"},
                                      {"promptEquals": "Fix it"}, {"promptEquals": ""}, {"promptEmpty": True},
                                      {"promptEmpty": False}]))
    out: dict = {"when": condition}
    if not draw(st.booleans()):
        out["then"] = draw(content(depth + 1))
    if not draw(st.booleans()):
        out["otherwise"] = draw(content(depth + 1))
    return out


@st.composite
def registered(draw: Any) -> list[dict]:
    """The contributions of one call, in registration order: mostly two to six with distinct ids,
    so that their order is at stake; else any, repeated ids (a later one replaces) included; now
    and then with a pair of :data:`TIES_BEYOND_BMP` after them, in either order."""
    if draw(st.integers(0, 3)) == 3:
        out = draw(st.lists(contribution(), max_size=6))
    else:
        out = draw(st.lists(contribution(), min_size=2, max_size=6, unique_by=lambda c: c.get("id")))
    if draw(st.integers(0, 4)) == 0:
        out += [{"id": cid, "content": "tie"} for cid in draw(st.permutations(draw(st.sampled_from(TIES_BEYOND_BMP))))]
    return out


@st.composite
def contribution(draw: Any) -> dict:
    """One contribution with any of the fields ENV-DECISION-CONTRIBUTIONS reads, each valid or not."""
    c: dict = {}
    cid = draw(st.sampled_from(BAD_IDS) if draw(st.integers(0, 7)) == 7 else ids)
    if cid is not None:
        c["id"] = cid
    if draw(st.booleans()):
        c["priority"] = draw(st.sampled_from(PRIORITY_VALUES) if draw(st.integers(0, 3)) == 3 else priorities)
    if draw(st.integers(0, 4)) == 4:
        c["providers"] = draw(st.lists(st.sampled_from(PROVIDERS), max_size=2))
    if draw(st.integers(0, 4)) == 4:
        c["activeTools"] = draw(st.lists(st.sampled_from(TOOLS), max_size=2))
    c["content"] = draw(content())
    return c


SHELLS = (None, "/bin/bash", "/bin/zsh", "/usr/bin/fish", "/opt/Fish/bin/FISH", "/usr/bin/zsh/", "/", "",
          "C:\\tools\\fish.exe", "/opt/<weird>&shell", "fish")
COMSPECS = (None, "C:\\Windows\\System32\\cmd.exe", "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe", "")
DATES = ("2025-01-31", "2024-02-29", "2025-12-24", "31/01/2025", "2025-1-31", "", "2025-01-31T00:00")
TIMEZONES = (None, "Europe/Lisbon", "UTC", "Etc/GMT+3", "", " ", "\u3000\t", " Europe/Lisbon\n")


@st.composite
def host(draw: Any) -> dict:
    """Host facts (ENV-DECISION-ENVIRONMENT, ENV-DECISION-FISH): every platform the rules tell apart
    and the values around them: ``$SHELL`` and ``%ComSpec%`` paths (fish in any case, empty
    basenames, trailing slashes, Windows paths, characters XML would escape), the shells that
    exist, dates well and badly written, time zones or none."""
    h: dict = {"platform": draw(st.sampled_from(["linux", "darwin", "win32", "freebsd"])),
               "date": draw(st.sampled_from(DATES if draw(st.integers(0, 9)) == 9 else DATES[:3]))}
    for key, values in (("shell", SHELLS), ("comSpec", COMSPECS), ("timezone", TIMEZONES)):
        value = draw(st.sampled_from(values))
        if value is not None or draw(st.booleans()):
            h[key] = value
    h["shells"] = draw(st.lists(st.sampled_from(["zsh", "bash", "sh"]), max_size=3, unique=True))
    return h


CWDS = (CWD, "C:\\work\\project", "/", "", "/a b/<c>&", CWD + "/")

# --- context files (ENV-DECISION-CONTEXT-FILES) ------------------------------------------------------------------------------

blank = st.text(alphabet=" \t\n\r", max_size=4)
_words = st.text(alphabet="ab #\n", min_size=1, max_size=8).filter(lambda s: s.strip(" \t\n\r"))


@st.composite
def file_content(draw: Any) -> str:
    """Non-blank content, often with white space around it (kept contents are never trimmed)."""
    return draw(blank) + draw(_words) + draw(blank)


context_paths = st.sampled_from([f"{AGENT_DIR}/AGENTS.md", f"{CWD}/AGENTS.md", f"{CWD}/sub/CLAUDE.md", "/work/AGENTS.md"])
"""Context-file paths: the agent directory's file first among project ones."""

MORE_PATHS = (f"{AGENT_DIR}/CLAUDE.md", f"{AGENT_DIR}/sub/AGENTS.md", f"{AGENT_DIR}x/AGENTS.md", "AGENTS.md", "")


@st.composite
def context_files(draw: Any, min_size: int = 0, paths: Any = context_paths) -> list[dict]:
    """Up to four context files, a quarter of them blank or padded."""
    files = []
    for _ in range(draw(st.integers(min_value=min_size, max_value=4))):
        text = draw(st.one_of(file_content(), blank)) if draw(st.integers(0, 3)) == 0 else draw(file_content())
        files.append({"path": draw(paths), "content": text})
    return files


@st.composite
def any_context_files(draw: Any) -> list[dict]:
    """:func:`context_files` over more paths (near misses of the agent directory, relative,
    empty), now and then with the project-doc divider inside a content."""
    files = draw(context_files(paths=st.one_of(context_paths, st.sampled_from(MORE_PATHS))))
    if files and draw(st.integers(0, 4)) == 0:
        files[0]["content"] += PROJECT_DOC_DIVIDER + "more"
    return files


@st.composite
def prompt_options(draw: Any) -> dict:
    """Pi's system-prompt options: custom and appended prompts (absent, empty, blank, set), the
    cwd, context files and free keys of every JSON type."""
    out: dict = {}
    for key in ("customPrompt", "appendSystemPrompt"):
        if draw(st.booleans()):
            out[key] = draw(st.sampled_from(["Custom.", "", "  ", "Appended.\n", None]))
    if draw(st.booleans()):
        out["contextFiles"] = draw(any_context_files())
    if draw(st.booleans()):
        out["cwd"] = draw(st.sampled_from(CWDS))
    if draw(st.integers(0, 2)) == 0:
        out[draw(st.sampled_from(["flag", "n"]))] = draw(st.sampled_from(["on", 1, None, [1], {"a": 1}, ""]))
    return out


PROMPTS = ("", "fix it", "Fix it", "please fix", " ", "fix it ")


@strategy("envelope.instructions")
def instructions() -> Any:
    """Pi's prompt and the custom and appended prompts, each absent, empty, blank or set (ENV-DECISION-INSTRUCTIONS)."""
    value = st.sampled_from([None, "", " ", "\n", "Text.", "Text.\n\n"])
    return st.fixed_dictionaries({}, optional={"systemPrompt": value, "customPrompt": value,
                                               "appendSystemPrompt": value}).map(lambda d: (d, None))


@strategy("envelope.environment")
def environment() -> Any:
    """A cwd (backslashes, root, empty, characters XML would escape), the active tools and
    :func:`host` (ENV-DECISION-ENVIRONMENT, ENV-DECISION-FISH)."""
    return st.tuples(st.sampled_from(CWDS), st.lists(st.sampled_from(TOOLS), max_size=3), host()) \
        .map(lambda e: ({"cwd": e[0], "activeTools": e[1], "host": e[2]}, None))


@st.composite
def render_context(draw: Any) -> dict:
    """The fields of one turn's render context, each now and then left out."""
    out: dict = {}
    if draw(st.booleans()):
        out["provider"] = draw(st.sampled_from(PROVIDERS + (None,)))
    if draw(st.booleans()):
        out["activeTools"] = draw(st.lists(st.sampled_from(TOOLS), max_size=3, unique=True))
    if draw(st.booleans()):
        out["prompt"] = draw(st.sampled_from(PROMPTS))
    if draw(st.booleans()):
        out["systemPromptOptions"] = draw(prompt_options())
    return out


@strategy("envelope.developer-messages")
def developer_messages() -> Any:
    """Contributions registered in order (repeated ids replace earlier ones) and one turn."""
    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        data = {"contributions": draw(registered()), "host": draw(host()),
                **draw(render_context())}
        if draw(st.integers(0, 3)) == 0:
            data["sessionId"] = draw(st.sampled_from(["s2", ""]))
        if draw(st.integers(0, 3)) == 0:
            data["cwd"] = draw(st.sampled_from(CWDS))
        return data, None

    return build()


@st.composite
def blanks_around_global(draw: Any) -> list[dict]:
    """The agent directory's file among blank files: before it (so that it is the first file
    kept), after it only (so that it is the one file kept), or both (ENV-CTX-BLANK, ENV-CTX-DIVIDER)."""
    def blanks(least: int) -> list[dict]:
        return [{"path": draw(st.sampled_from([f"{CWD}/AGENTS.md", "/work/AGENTS.md"])), "content": draw(blank)}
                for _ in range(draw(st.integers(least, 2)))]

    files = blanks(0) + [{"path": f"{AGENT_DIR}/AGENTS.md", "content": draw(file_content())}] + blanks(1)
    if draw(st.integers(0, 2)) == 0:
        files.append({"path": f"{CWD}/AGENTS.md", "content": draw(file_content())})
    return files


@strategy("envelope.context-message")
def context_message() -> Any:
    """Context files in Pi's order, with or without an agent directory (ENV-DECISION-CONTEXT-FILES),
    and the agent directory's file among blank ones."""
    agent_dirs = st.sampled_from([AGENT_DIR, None, AGENT_DIR + "/", ""])
    return st.one_of(st.tuples(st.sampled_from(CWDS), agent_dirs, any_context_files()),
                     st.tuples(st.sampled_from(CWDS), st.sampled_from([AGENT_DIR, AGENT_DIR + "/"]), blanks_around_global())) \
        .map(lambda e: ({"cwd": e[0], "agentDir": e[1], "contextFiles": e[2]}, None))


HISTORY = ({"role": "user", "content": "hi", "timestamp": 1},
           {"role": "custom", "customType": "@luan.sh/pi-developer-messages/agents-md", "content": "old",
            "display": False, "timestamp": 0},
           {"role": "custom", "customType": "@luan.sh/pi-developer-messages/group", "content": "audit",
            "display": False, "timestamp": 0},
           {"role": "custom", "customType": "@luan.sh/pi-developer-messages/developer", "content": "Mode: plan",
            "display": False, "timestamp": 0},
           {"role": "custom", "customType": "@luan.sh/pi-developer-messages/context-user", "timestamp": 0},
           {"role": "custom", "customType": "other", "content": "keep", "display": True, "timestamp": 2},
           {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "timestamp": 3})
"""Messages the context hook sees: history, an earlier context-files message, audit messages of
the group type and of the earlier per-instruction types, another extension's custom message."""


LEADING = ({"role": "system", "content": "You are a coding agent.", "timestamp": 0},
           {"content": "a message without a role", "timestamp": 0},
           {"customType": "@luan.sh/pi-developer-messages/agents-md", "content": "old", "display": False})
"""Messages a history may start with that the context-files message still goes before: system
messages, a message without a role, an earlier context-files message stored without one."""


@strategy("envelope.context-hook")
def context_hook() -> Any:
    """Context files and a history holding earlier copies of the injected message (ENV-DECISION-CONTEXT-FILES,
    ENV-DECISION-AUDIT), now and then after :data:`LEADING` messages."""
    return st.tuples(st.sampled_from([CWD, "C:\\w"]), st.sampled_from([AGENT_DIR, None]), any_context_files(),
                     st.lists(st.sampled_from(HISTORY), max_size=5), st.lists(st.sampled_from(LEADING), max_size=3)) \
        .map(lambda e: ({"cwd": e[0], "agentDir": e[1], "contextFiles": e[2], "messages": list(e[4]) + list(e[3])}, None))


@st.composite
def capture_request(draw: Any, with_host: bool = True) -> dict:
    """One turn's request (``before_agent_start`` and the host)."""
    req = {"sessionId": draw(st.sampled_from(["s1", "s1", "s2"])), "cwd": draw(st.sampled_from(CWDS)),
           **draw(render_context())}
    if draw(st.booleans()):
        req["systemPrompt"] = draw(st.sampled_from([None, "", "PI", "PI\n"]))
    if draw(st.booleans()):
        req["agentDir"] = draw(st.sampled_from([AGENT_DIR, None]))
    if with_host:
        req["host"] = draw(host())
    return req


OPTIONS_AS_REQUEST = (("cwd", "/elsewhere"), ("agentDir", AGENT_DIR + "2"), ("provider", "anthropic"), ("sessionId", "s9"),
                      ("activeTools", ["exec_command"]), ("systemPrompt", "OPTIONS PROMPT"))
"""Keys of Pi's options named like the request's fields, with values a request here never has."""


def _options_as_request(request: dict, option: "tuple[str, Any] | None") -> dict:
    """``request`` with ``option`` (a key and a value) put into its system-prompt options."""
    if option is not None:
        request["systemPromptOptions"] = {**request.get("systemPromptOptions", {}), option[0]: option[1]}
    return request


@strategy("envelope.build")
def build() -> Any:
    """Contributions and one whole turn (ENV-DECISION-*), half the time with options holding one of
    the request's fields with another value (ENV-RENDER-OPTIONS)."""
    return st.tuples(registered(), capture_request(), st.one_of(st.none(), st.sampled_from(OPTIONS_AS_REQUEST))) \
        .map(lambda e: ({"contributions": e[0], "request": _options_as_request(e[1], e[2])}, None))


AUDIT_VALUES = ('["developer", "context-user"]', "[]", '["developer"]', '["context-user", "developer"]',
                '["user"]', '"developer"', "[1]", '["developer", "developer"]', "true", '["Developer"]',
                '["developer", " context-user"]')
TOML_TEXTS = ("", "\n", "[appearance]\n", "not toml = = =\n", "pi-developer-messages.auditEntries = []\n",
              "[other]\npi-developer-messages.auditEntries = []\n")


@strategy("envelope.settings")
def settings() -> Any:
    """``xsettings.toml`` texts: none, empty, the README's form with every value (valid subsets,
    duplicates, other roles, other types), the key outside its table, invalid TOML (ENV-DECISION-AUDIT)."""
    seeded = st.sampled_from(AUDIT_VALUES).map(lambda v: f"[appearance]\npi-developer-messages.auditEntries = {v}\n")
    return st.one_of(st.none(), st.sampled_from(TOML_TEXTS), seeded).map(lambda t: ({"toml": t}, None))


@st.composite
def session_step(draw: Any) -> dict:
    """One step of an ``envelope.session`` script (the steps are in the guide ``docs/envelope.md``)."""
    kind = draw(st.sampled_from(["register", "register", "unregister", "registerAdapter", "capture", "capture",
                                 "current", "clear", "providerRequest", "providerRequest", "append", "entry",
                                 "context", "compact", "navigate", "entries", "setting", "resume", "load",
                                 "globalRegistry", "globalSet"]))
    sid = draw(st.sampled_from(["s1", "s1", "s2"]))
    if kind == "register":
        return {kind: draw(contribution())}
    if kind == "unregister":
        return {kind: {"id": draw(st.sampled_from(ORDERING_IDS[:4] + ("nope",)))}}
    if kind == "registerAdapter":
        adapter: dict = {"developerMessages": draw(st.sampled_from(["replace", "absent", "return-input",
                                                                    "return-nothing"]))}
        provider = draw(st.sampled_from(PROVIDERS + (None,)))
        if provider is not None:
            adapter["provider"] = provider
        return {kind: adapter}
    if kind == "capture":
        return {kind: draw(capture_request(with_host=draw(st.booleans())))}
    if kind == "current":
        step: dict = {"sessionId": sid}
        if draw(st.booleans()):
            step["provider"] = draw(st.sampled_from(PROVIDERS + (None,)))
        if draw(st.booleans()):
            step["activeTools"] = draw(st.one_of(st.lists(st.sampled_from(TOOLS), max_size=2), st.none()))
        if draw(st.integers(0, 3)) == 0:
            step["cwd"] = draw(st.sampled_from(CWDS + (None,)))
        return {kind: step}
    if kind == "providerRequest":
        payload = {"system": draw(st.sampled_from(["PI", "other", None])), "developer": [],
                   "messages": [], "extra": 1}
        return {kind: {"sessionId": sid, "provider": draw(st.sampled_from(PROVIDERS)), "payload": payload}}
    if kind == "append":
        return {kind: {"sessionId": sid, "message": draw(st.sampled_from(HISTORY))}}
    if kind == "entry":
        entry = draw(st.sampled_from([
            {"type": "custom", "customType": "@luan.sh/pi-developer-messages/group",
             "data": {"entries": [{"role": "developer", "id": "a", "content": "from a"}]}},
            {"type": "custom_message", "customType": "note", "content": "x", "display": True},
            {"type": "branch_summary", "summary": "s", "fromId": "e1"}, {"type": "other"}, {}]))
        return {kind: {"sessionId": sid, "entry": entry}}
    if kind == "navigate":
        return {kind: {"sessionId": sid, "to": draw(st.sampled_from([None, "e1", "e2", "e9"]))}}
    if kind == "setting":
        if draw(st.booleans()):
            return {kind: {"auditEntries": draw(st.sampled_from([[], ["developer"], ["context-user"], ["x"], "y"]))}}
        return {kind: {"toml": draw(settings())[0]["toml"] or ""}}
    if kind in ("resume", "load"):
        return {kind: {}}
    if kind == "globalRegistry":
        return {kind: {"key": draw(st.sampled_from(["contributions", "adapters"])),
                       "protocol": draw(st.sampled_from(["pi-developer-messages/developer-messages/v1",
                                                         "pi-developer-messages/provider-payload-adapters/v1", "other"])),
                       "version": draw(st.sampled_from([1, 2]))}}
    if kind == "globalSet":
        if draw(st.booleans()):
            return {kind: {"contribution": draw(contribution())}}
        return {kind: {"adapter": {"provider": draw(st.sampled_from(PROVIDERS))}}}
    return {kind: {"sessionId": sid}}  # clear, context, compact, entries


@strategy("envelope.session")
def session() -> Any:
    """Scripts of one to eight steps, with an initial audit setting now and then."""
    @st.composite
    def build(draw: Any) -> tuple[dict, None]:
        data: dict = {"host": draw(host()), "steps": draw(st.lists(session_step(), min_size=1, max_size=8))}
        if draw(st.integers(0, 3)) == 0:
            data["auditEntries"] = draw(st.sampled_from([[], ["developer"], ["x"], None, "developer"]))
        return data, None

    return build()

"""The input classes of the envelope area's one-turn operations (ENV-DECISION-*): provider
instructions, the environment message, developer messages, the context-files message and hook,
a whole build and the audit setting."""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any, Callable

from conformance.strategies.partitions.cells import Cell, Hit, case_pair_cells, character_cells

JS_SPACE = "\t\n\v\f\r \u00a0\ufeff\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
"""What ENV-TRIM-JS trims."""
NOT_JS_SPACE = "\u0085\u001c\u001d\u001e\u001f"
"""White space elsewhere that ENV-TRIM-JS keeps."""


def js_blank(text: str) -> bool:
    return all(c in JS_SPACE for c in text)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


# --- instructions ----------------------------------------------------------------------------------------------------

def _text_field(key: str, clauses: tuple[str, ...], *, null: bool = True) -> list[Cell]:
    """A text field absent, null, empty, blank, set, and set with white space around."""
    cells = [Cell(key, "absent", clauses, lambda i, t: key not in i),
             Cell(key, "empty", clauses, lambda i, t: i.get(key) == ""),
             Cell(key, "blank", clauses, lambda i, t: isinstance(i.get(key), str) and i[key] != "" and js_blank(i[key])),
             Cell(key, "text", clauses, lambda i, t: isinstance(i.get(key), str) and not js_blank(i[key])),
             Cell(key, "text with white space around", clauses,
                  lambda i, t: isinstance(i.get(key), str) and not js_blank(i[key]) and i[key] != i[key].strip())]
    if null:
        cells.insert(1, Cell(key, "null", clauses, lambda i, t: key in i and i[key] is None))
    return cells


INSTRUCTIONS = [
    *_text_field("systemPrompt", ("ENV-INSTR-DEFAULT",)),
    *_text_field("customPrompt", ("ENV-INSTR-CUSTOM", "ENV-INSTR-DEFAULT")),
    *_text_field("appendSystemPrompt", ("ENV-INSTR-CUSTOM",)),
    Cell("combination", "custom and appended text", ("ENV-INSTR-CUSTOM",),
         lambda i, t: bool(_str(i.get("customPrompt"))) and bool(_str(i.get("appendSystemPrompt")))),
    Cell("combination", "appended text without a custom prompt", ("ENV-INSTR-DEFAULT",),
         lambda i, t: not _str(i.get("customPrompt")) and bool(_str(i.get("appendSystemPrompt")))),
    Cell("combination", "custom prompt beside Pi's prompt", ("ENV-INSTR-CUSTOM",),
         lambda i, t: bool(_str(i.get("customPrompt"))) and bool(_str(i.get("systemPrompt")))),
    *character_cells(("ENV-INSTR-CUSTOM", "ENV-INSTR-DEFAULT")),
]
"""The classes of ``envelope.instructions``: each of Pi's prompt, the custom prompt and the
appended text absent, null, empty, blank, set, padded, and the combinations the two clauses
tell apart."""


# --- host facts (environment, developer messages, build) -------------------------------------------------------------

def basename(path: str) -> str:
    """ENV-ENV-BASENAME: the last component with both separators, trailing ones ignored."""
    return re.split(r"[/\\]", path.rstrip("/\\"))[-1] if path else ""


def date_form(value: Any) -> bool:
    """ENV-ENV-DATE's shape: ASCII ``YYYY-MM-DD`` and nothing else."""
    return isinstance(value, str) and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value) is not None


def calendar_day(value: Any) -> bool:
    """ENV-ENV-DATE: of the shape, and a day the proleptic Gregorian calendar has (years 0001..9999)."""
    if not date_form(value):
        return False
    year, month, day = int(value[:4]), int(value[5:7]), int(value[8:])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    return year >= 1 and 1 <= month <= 12 and 1 <= day <= days[month - 1]


def date_cells(dates: Callable[[dict], list]) -> list[Cell]:
    """The classes of ENV-ENV-DATE over the host dates ``dates`` reads from an input."""
    def any_date(test: Callable[[Any], bool]) -> Hit:
        return lambda i, t: any(test(d) for d in dates(i))

    return [
        Cell("date", "of the form, a day no calendar has", ("ENV-ENV-DATE",), any_date(lambda d: date_form(d) and not calendar_day(d))),
        Cell("date", "February 29 of a leap year", ("ENV-ENV-DATE",), any_date(lambda d: calendar_day(d) and d[5:] == "02-29")),
        Cell("date", "another form", ("ENV-ENV-DATE", "ENV-ENV-FORMAT"), any_date(lambda d: isinstance(d, str) and not date_form(d))),
    ]


def host_cells(host: Callable[[dict], dict], tools: Callable[[dict], list], cwd: Callable[[dict], Any]) -> list[Cell]:
    """The classes of the environment message's inputs, read from an input by ``host``,
    ``tools`` and ``cwd``."""
    def h(test: Callable[[dict], bool]) -> Hit:
        return lambda i, t: isinstance(host(i), dict) and test(host(i))

    def shell(h_: dict) -> str:
        s = h_.get("shell") or ""
        return s if basename(s) else (h_.get("comSpec") or "")

    def fish(i: dict) -> bool:
        return isinstance(host(i), dict) and basename(shell(host(i))).lower() == "fish"

    def fish_with(test: Callable[[dict], bool]) -> Hit:
        return lambda i, t: fish(i) and "exec_command" in tools(i) and test(host(i))

    def c(test: Callable[[str], bool]) -> Hit:
        return lambda i, t: isinstance(cwd(i), str) and test(cwd(i))

    return [
        *[Cell("platform", p, ("ENV-ENV-PLATFORM",), h(lambda x, p=p: x.get("platform") == p)) for p in ("linux", "darwin", "win32")],
        Cell("platform", "another", ("ENV-ENV-PLATFORM",), h(lambda x: x.get("platform") not in ("linux", "darwin", "win32"))),
        Cell("shell", "a path", ("ENV-ENV-SHELL",), h(lambda x: bool(basename(x.get("shell") or "")))),
        Cell("shell", "a Windows path", ("ENV-ENV-BASENAME",), h(lambda x: "\\" in (x.get("shell") or ""))),
        Cell("shell", "a trailing separator", ("ENV-ENV-BASENAME",), h(lambda x: (x.get("shell") or "x")[-1] in "/\\")),
        Cell("shell", "a name with an extension", ("ENV-ENV-BASENAME",), h(lambda x: "." in basename(x.get("shell") or ""))),
        Cell("shell", "empty", ("ENV-ENV-EMPTY-VAR",), h(lambda x: x.get("shell") == "")),
        Cell("shell", "an empty basename", ("ENV-ENV-EMPTY-VAR",), h(lambda x: bool(x.get("shell")) and not basename(x["shell"]))),
        Cell("shell", "absent, ComSpec set", ("ENV-ENV-SHELL",),
             h(lambda x: not basename(x.get("shell") or "") and bool(basename(x.get("comSpec") or "")))),
        Cell("shell", "absent, ComSpec empty", ("ENV-ENV-EMPTY-VAR",),
             h(lambda x: not basename(x.get("shell") or "") and x.get("comSpec") == "")),
        Cell("shell", "neither", ("ENV-ENV-SHELL",), h(lambda x: not basename(x.get("shell") or "") and not basename(x.get("comSpec") or ""))),
        Cell("shell", "characters XML would escape", ("ENV-ENV-NOESCAPE",), h(lambda x: bool(re.search(r"[<>&]", shell(x))))),
        Cell("fish", "fish with exec_command, on Windows", ("ENV-ENV-FISH",), fish_with(lambda x: x.get("platform") == "win32")),
        Cell("fish", "fish with exec_command, no shell installed", ("ENV-ENV-FISH",),
             fish_with(lambda x: x.get("platform") != "win32" and not x.get("shells"))),
        Cell("fish", "fish with exec_command, zsh installed", ("ENV-ENV-FISH",),
             fish_with(lambda x: x.get("platform") != "win32" and "zsh" in (x.get("shells") or []))),
        Cell("fish", "fish with exec_command, bash or sh but no zsh", ("ENV-ENV-FISH",),
             fish_with(lambda x: x.get("platform") != "win32" and bool(x.get("shells")) and "zsh" not in x["shells"])),
        Cell("fish", "fish in another case", ("ENV-ENV-FISH",), lambda i, t: fish(i) and "fish" not in shell(host(i))),
        Cell("fish", "fish without exec_command", ("ENV-ENV-FISH",), lambda i, t: fish(i) and "exec_command" not in tools(i)),
        Cell("fish", "exec_command in another case", ("ENV-ENV-FISH",), lambda i, t: fish(i) and "Exec_command" in tools(i)),
        Cell("date", "a date", ("ENV-ENV-FORMAT",), h(lambda x: bool(re.fullmatch(r"\d{4}-\d\d-\d\d", x.get("date") or "")))),
        *date_cells(lambda i: [host(i).get("date")] if isinstance(host(i), dict) else []),
        Cell("timezone", "an IANA name", ("ENV-ENV-TIMEZONE",), h(lambda x: bool(x.get("timezone")))),
        Cell("timezone", "absent or null", ("ENV-ENV-TIMEZONE",), h(lambda x: x.get("timezone") is None)),
        Cell("timezone", "empty", ("ENV-ENV-TIMEZONE",), h(lambda x: x.get("timezone") == "")),
        Cell("timezone", "blank", ("ENV-ENV-TIMEZONE",), h(lambda x: isinstance(x.get("timezone"), str) and x["timezone"] != ""
                                                             and x["timezone"].strip(JS_SPACE + NOT_JS_SPACE) == "")),
        Cell("timezone", "white space around a name", ("ENV-ENV-TIMEZONE",),
             h(lambda x: isinstance(x.get("timezone"), str) and x["timezone"].strip() != "" and x["timezone"] != x["timezone"].strip())),
        Cell("cwd", "backslashes", ("ENV-CWD-SLASHES",), c(lambda s: "\\" in s)),
        Cell("cwd", "a trailing slash", ("ENV-CWD-SLASHES",), c(lambda s: len(s) > 1 and s.endswith("/"))),
        Cell("cwd", "empty", ("ENV-CWD-SLASHES",), c(lambda s: s == "")),
        Cell("cwd", "characters XML would escape", ("ENV-ENV-NOESCAPE",), c(lambda s: bool(re.search(r"[<>&]", s)))),
    ]


ENVIRONMENT = [
    *host_cells(lambda i: i.get("host"), lambda i: i.get("activeTools") or [], lambda i: i.get("cwd")),
    Cell("tools", "none", ("ENV-ENV-FISH",), lambda i, t: not i.get("activeTools")),
    *character_cells(("ENV-ENV-NOESCAPE",)),
]
"""The classes of ``envelope.environment``: every platform, every form of ``$SHELL`` and
``%ComSpec%`` (paths of both kinds, trailing separators, extensions, empty, absent), fish in
each case of the shells that exist and without ``exec_command``, dates of another form, of the
form but no calendar's day, and February 29 of a leap year, time zones, cwds with backslashes, a
trailing slash, nothing or characters XML would escape."""


# --- contributions (developer messages, build) -----------------------------------------------------------------------

def contribution_cells(contributions: Callable[[dict], list], provider: Callable[[dict], Any],
                       tools: Callable[[dict], list], prompt: Callable[[dict], Any]) -> list[Cell]:
    """The classes of registered contributions, read from an input by the given functions."""
    def each(test: Callable[[dict, dict], bool]) -> Hit:
        return lambda i, t: any(isinstance(c, dict) and test(c, i) for c in contributions(i))

    def ids(i: dict) -> list[str]:
        return [c["id"] for c in contributions(i) if isinstance(c, dict) and isinstance(c.get("id"), str)]

    def kept_priorities(i: dict) -> list:
        return [c.get("priority", 0) for c in contributions(i) if isinstance(c, dict) and _finite(c.get("priority", 0))]

    def content(test: Callable[[Any], bool]) -> Hit:
        return each(lambda c, i: test(c.get("content")))

    def template(test: Callable[[str], bool]) -> Hit:
        return content(lambda x: isinstance(x, dict) and isinstance(x.get("template"), str) and test(x["template"]))

    def when(test: Callable[[dict], bool]) -> Hit:
        return content(lambda x: isinstance(x, dict) and isinstance(x.get("when"), dict) and test(x))

    return [
        Cell("contributions", "none", ("ENV-ENV-LAST",), lambda i, t: not contributions(i)),
        Cell("contributions", "several", ("ENV-ORDER-PRIORITY",), lambda i, t: len(contributions(i)) >= 2),
        Cell("id", "absent", ("ENV-CONTRIB-ID",), each(lambda c, i: "id" not in c or c["id"] is None)),
        Cell("id", "empty", ("ENV-CONTRIB-ID",), each(lambda c, i: c.get("id") == "")),
        Cell("id", "blank", ("ENV-CONTRIB-ID", "ENV-TRIM-JS"), each(lambda c, i: isinstance(c.get("id"), str) and c["id"] != "" and js_blank(c["id"]))),
        Cell("id", "white space ENV-TRIM-JS keeps", ("ENV-CONTRIB-ID", "ENV-TRIM-JS"),
             each(lambda c, i: isinstance(c.get("id"), str) and any(ch in NOT_JS_SPACE for ch in c["id"]))),
        Cell("id", "environment", ("ENV-CONTRIB-ID-RESERVED",), each(lambda c, i: c.get("id") == "environment")),
        Cell("id", "environment in another case", ("ENV-CONTRIB-ID-RESERVED",),
             each(lambda c, i: isinstance(c.get("id"), str) and c["id"] != "environment" and c["id"].lower() == "environment")),
        Cell("id", "blank, with a priority that is not a finite number", ("ENV-CONTRIB-ID", "ENV-PRIORITY-FINITE"),
             each(lambda c, i: blank_id(c) and "priority" in c and not _finite(c["priority"]))),
        Cell("id", "environment, with a priority that is not a finite number",
             ("ENV-CONTRIB-ID", "ENV-CONTRIB-ID-RESERVED", "ENV-PRIORITY-FINITE"),
             each(lambda c, i: c.get("id") == "environment" and "priority" in c and not _finite(c["priority"]))),
        Cell("content", "raises, of a refused contribution", ("ENV-CONTRIB-ID",),
             each(lambda c, i: refused(c) and isinstance(c.get("content"), dict) and "raises" in c["content"])),
        Cell("id", "registered twice", ("ENV-CONTRIB-REPLACE",), lambda i, t: len(ids(i)) > len(set(ids(i)))),
        *case_pair_cells(("ENV-ORDER-TIEBREAK",), lambda i, t: ids(i)),
        Cell("id", "_ - . / among letters", ("ENV-ORDER-TIEBREAK",), lambda i, t: len({x for x in ids(i) if re.search(r"[_\-./]", x)}) >= 2),
        Cell("id", "digits of different lengths", ("ENV-ORDER-TIEBREAK",),
             lambda i, t: len({len(m) for x in ids(i) for m in re.findall(r"\d+", x)}) >= 2),
        Cell("id", "an accented letter", ("ENV-ORDER-TIEBREAK",), lambda i, t: any(re.search(r"[\u00c0-\u024f]", x) for x in ids(i))),
        Cell("id", "ranked equal by the collation", ("ENV-ORDER-CODEPOINT",),
             lambda i, t: any(re.search("[\x00\u00ad\u200b]", x) for x in ids(i))),
        Cell("id", "ranked equal, UTF-16 code units ordering them otherwise than code points", ("ENV-ORDER-CODEPOINT",),
             lambda i, t: utf16_apart(ids(i))),
        Cell("priority", "absent", ("ENV-ORDER-PRIORITY",), each(lambda c, i: "priority" not in c)),
        Cell("priority", "negative", ("ENV-ORDER-PRIORITY",), each(lambda c, i: _finite(c.get("priority")) and c["priority"] < 0)),
        Cell("priority", "fractional", ("ENV-ORDER-PRIORITY",),
             each(lambda c, i: _finite(c.get("priority")) and c["priority"] != int(c["priority"]))),
        Cell("priority", "negative zero", ("ENV-ORDER-PRIORITY",),
             each(lambda c, i: isinstance(c.get("priority"), float) and c["priority"] == 0 and math.copysign(1, c["priority"]) < 0)),
        Cell("priority", "huge", ("ENV-PRIORITY-FINITE",), each(lambda c, i: _finite(c.get("priority")) and abs(c["priority"]) >= 1e9)),
        Cell("priority", "not a number", ("ENV-PRIORITY-FINITE",), each(lambda c, i: "priority" in c and not _finite(c["priority"]))),
        Cell("priority", "a tie", ("ENV-ORDER-TIEBREAK",), lambda i, t: len(kept_priorities(i)) > len(set(kept_priorities(i)))),
        Cell("providers", "listed, the provider among them", ("ENV-FILTER-PROVIDERS",),
             each(lambda c, i: isinstance(c.get("providers"), list) and provider(i) in c["providers"])),
        Cell("providers", "listed, the provider not among them", ("ENV-FILTER-PROVIDERS",),
             each(lambda c, i: bool(c.get("providers")) and isinstance(provider(i), str) and provider(i) not in c["providers"])),
        Cell("providers", "listed, no provider known", ("ENV-FILTER-PROVIDERS",),
             each(lambda c, i: bool(c.get("providers")) and provider(i) is None)),
        Cell("providers", "an empty list", ("ENV-FILTER-PROVIDERS",), each(lambda c, i: c.get("providers") == [])),
        Cell("providers", "listed in another case", ("ENV-FILTER-PROVIDERS",),
             each(lambda c, i: isinstance(provider(i), str) and any(isinstance(p, str) and p != provider(i) and p.lower() == provider(i).lower()
                                                                     for p in c.get("providers") or []))),
        Cell("activeTools", "all active", ("ENV-FILTER-TOOLS",),
             each(lambda c, i: bool(c.get("activeTools")) and all(x in tools(i) for x in c["activeTools"]))),
        Cell("activeTools", "one not active", ("ENV-FILTER-TOOLS",),
             each(lambda c, i: bool(c.get("activeTools")) and any(x in tools(i) for x in c["activeTools"])
                  and not all(x in tools(i) for x in c["activeTools"]))),
        Cell("activeTools", "an empty list", ("ENV-FILTER-TOOLS",), each(lambda c, i: c.get("activeTools") == [])),
        Cell("activeTools", "an active tool listed twice", ("ENV-FILTER-TOOLS",),
             each(lambda c, i: isinstance(c.get("activeTools"), list) and len(c["activeTools"]) > len(set(c["activeTools"]))
                  and all(x in tools(i) for x in c["activeTools"]))),
        Cell("activeTools", "an active tool listed in another case", ("ENV-FILTER-TOOLS",),
             each(lambda c, i: any(isinstance(x, str) and x not in tools(i) and x.lower() in [a.lower() for a in tools(i)]
                                   for x in c.get("activeTools") or []))),
        Cell("filter", "a filtered-out contribution that would raise", ("ENV-FILTER-BEFORE-ORDER",),
             each(lambda c, i: isinstance(c.get("content"), dict) and "raises" in c["content"]
                  and ((bool(c.get("providers")) and provider(i) not in c["providers"])
                       or any(x not in tools(i) for x in c.get("activeTools") or [])))),
        Cell("content", "a string", ("ENV-RENDER-CONTENT",), content(lambda x: isinstance(x, str) and not js_blank(x))),
        Cell("content", "padded", ("ENV-RENDER-TRIM",), content(lambda x: isinstance(x, str) and not js_blank(x) and x != x.strip(JS_SPACE))),
        Cell("content", "white space ENV-TRIM-JS keeps around it", ("ENV-TRIM-JS",),
             content(lambda x: isinstance(x, str) and x != "" and (x[0] in NOT_JS_SPACE or x[-1] in NOT_JS_SPACE))),
        Cell("content", "empty or blank", ("ENV-RENDER-TRIM",), content(lambda x: isinstance(x, str) and js_blank(x))),
        Cell("content", "absent", ("ENV-RENDER-CONTENT",), each(lambda c, i: c.get("content") is None)),
        Cell("content", "returns text", ("ENV-RENDER-CONTENT",),
             content(lambda x: isinstance(x, dict) and isinstance(x.get("returns"), str) and not js_blank(x["returns"]))),
        Cell("content", "returns nothing", ("ENV-RENDER-CONTENT",), content(lambda x: isinstance(x, dict) and "returns" in x and x["returns"] is None)),
        *[Cell("template", f"{{{f}}}", ("ENV-RENDER-CONTENT",), template(lambda s, f=f: "{" + f + "}" in s))
          for f in ("provider", "sessionId", "prompt", "activeTools", "customPrompt", "cwd")],
        Cell("template", "{systemPromptOptions.KEY} of a key Pi passes", ("ENV-RENDER-OPTIONS",),
             template(lambda s: bool(re.search(r"\{systemPromptOptions\.(cwd|flag|n|contextFiles|customPrompt)\}", s)))),
        Cell("template", "{systemPromptOptions.KEY} of a key not given", ("ENV-RENDER-OPTIONS",),
             template(lambda s: "{systemPromptOptions.missing}" in s)),
        Cell("template", "a near miss that stays literal", ("ENV-RENDER-CONTENT",),
             template(lambda s: bool(re.search(r"\$provider|\{provider(?!\})|(?<!\{)provider\}", s)))),
        *[Cell("when", k, ("ENV-RENDER-CONTENT",), when(lambda x, k=k: k in x["when"]))
          for k in ("promptContains", "promptEquals", "promptEmpty")],
        Cell("when", "without then or otherwise", ("ENV-RENDER-CONTENT",), when(lambda x: "then" not in x or "otherwise" not in x)),
        Cell("content", "raises", ("ENV-DECISION-SERVICE",), content(lambda x: isinstance(x, dict) and "raises" in x)),
        Cell("prompt", "empty", ("ENV-RENDER-CONTENT",), lambda i, t: _str(prompt(i)) == ""),
        Cell("prompt", "text", ("ENV-RENDER-CONTENT",), lambda i, t: _str(prompt(i)) != ""),
        Cell("provider", "unknown (none given)", ("ENV-FILTER-PROVIDERS",), lambda i, t: provider(i) is None),
    ]


IGNORABLE = re.compile("[\x00\u00ad\u200b\ufe00-\ufe0f\ufeff\ufff9-\ufffb\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
                       "\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef]")
"""Completely ignorable characters of the root collation (a tie between two ids differing only by them)."""


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def utf16_apart(ids: list[str]) -> bool:
    """Whether two of ``ids`` are ranked equal by the root collation (the same once the ignorable
    characters are removed and canonical equivalents decomposed) and ordered otherwise by UTF-16
    code units than by code points: a character beyond U+FFFF against one in U+E000..U+FFFF."""
    def base(x: str) -> str:
        return unicodedata.normalize("NFD", IGNORABLE.sub("", x))

    return any(x != y and base(x) == base(y) and (x < y) != (_utf16(x) < _utf16(y))
               for n, x in enumerate(ids) for y in ids[n + 1:])


def _finite(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def blank_id(c: dict) -> bool:
    """ENV-CONTRIB-ID: a missing, empty or blank id."""
    return not isinstance(c.get("id"), str) or js_blank(c["id"])


def refused(c: dict) -> bool:
    """A contribution registration refuses (ENV-CONTRIB-ID, ENV-CONTRIB-ID-RESERVED, ENV-PRIORITY-FINITE)."""
    return blank_id(c) or c.get("id") == "environment" or not _finite(c.get("priority", 0))


def _options(i: dict) -> dict:
    found = i.get("systemPromptOptions")
    return found if isinstance(found, dict) else {}


DEVELOPER_MESSAGES = [
    *contribution_cells(lambda i: i.get("contributions") or [], lambda i: i.get("provider"),
                        lambda i: i.get("activeTools") or [], lambda i: i.get("prompt")),
    Cell("options", "keys the envelope never reads", ("ENV-RENDER-OPTIONS",),
         lambda i, t: any(k not in ("customPrompt", "appendSystemPrompt", "contextFiles", "cwd") for k in _options(i))),
    Cell("options", "context files", ("ENV-CTX-NOT-DEVELOPER",), lambda i, t: bool(_options(i).get("contextFiles"))),
    *character_cells(("ENV-RENDER-CONTENT",)),
]
"""The classes of ``envelope.developer-messages``: every id, priority, filter and content form
a contribution's clause names, ids whose collation and code-point orders differ, ties (ids the
collation ranks equal that UTF-16 code units would order otherwise than code points among them), a
filtered-out contribution that would raise, the prompt, an unknown provider, Pi's options."""

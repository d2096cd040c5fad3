"""Seeded faults of the envelope area (ENV-* clauses)."""

from __future__ import annotations

import html

from conformance.faults.runner import Fault, replace, wrap
from reference.envelope import context_files as cf
from reference.envelope.contributions import ENVIRONMENT_ID

C = "reference.envelope.contributions"
CF = "reference.envelope.context_files"
ENV = "reference.envelope.environment"
B = "reference.envelope.build"

DEV = ("envelope.developer-messages", "envelope.build", "envelope.session")
CTX = ("envelope.context-message", "envelope.context-hook", "envelope.build", "envelope.session")


def _codepoint_key(contribution_id: str):
    return (tuple(ord(c) for c in contribution_id),)


def _environment_first(original):
    def developer_messages(contributions, request):
        messages = original(contributions, request)
        return messages[-1:] + messages[:-1]
    return developer_messages


def _environment_sorted(original):
    """The environment message ordered like a contribution of priority 0 instead of last."""
    from reference.envelope.collation import id_sort_key

    def developer_messages(contributions, request):
        messages = original(contributions, request)
        env, rest = messages[-1], messages[:-1]
        out = [m for m in rest if id_sort_key(m.id) < id_sort_key(ENVIRONMENT_ID)]
        return out + [env] + [m for m in rest if m not in out]
    return developer_messages


def _basename_posix_off_windows(original):
    """The shell's basename split at "/" only unless the platform is win32 (a platform's own path
    module, as Node's path.basename is)."""
    from unittest import mock

    from reference.envelope import environment

    def posix(path):
        parts = [p for p in path.split("/") if p]
        return parts[-1] if parts else ""

    def environment_message(cwd, host, active_tools):
        if host.platform == environment.WINDOWS_PLATFORM:
            return original(cwd, host, active_tools)
        with mock.patch.object(environment, "shell_basename", posix):
            return original(cwd, host, active_tools)
    return environment_message


def _divider_always(files, agent_dir):
    kept = cf.kept_files(files)
    if not kept:
        return None
    contents = [f.content for f in kept]
    if len(kept) > 1:
        return contents[0] + cf.PROJECT_DOC_DIVIDER + "\n\n".join(contents[1:])
    return contents[0]


def _divider_counts_given(files, agent_dir):
    """The divider's "more than one file" counted among the files given, blank ones included."""
    kept = cf.kept_files(files)
    if not kept:
        return None
    contents = [f.content for f in kept]
    if len(files) > 1 and cf.is_global_file(kept[0], agent_dir):
        return contents[0] + cf.PROJECT_DOC_DIVIDER + "\n\n".join(contents[1:])
    return "\n\n".join(contents)


def _trimmed(files):
    return [cf.ContextFile(f.path, f.content.strip()) for f in files if f.content.strip()]


def _no_escape_broken(cwd, shell, date, timezone):
    from reference.envelope.environment import slash_path

    return "\n".join(["<environment_context>", f"  <cwd>{html.escape(slash_path(cwd))}</cwd>",
                      f"  <shell>{html.escape(shell)}</shell>", f"  <current_date>{date}</current_date>",
                      f"  <timezone>{html.escape(timezone or 'unknown')}</timezone>", "</environment_context>"])


def _fish_without_exec(original):
    def reported_shell(name, platform, shells, active_tools):
        return original(name, platform, shells, list(active_tools) + ["exec_command"])
    return reported_shell


def _provider_unknown_passes(contribution, provider):
    return contribution.providers is None or provider is None or provider in contribution.providers


def _any_tool(contribution, active_tools):
    if not contribution.activeTools:
        return True
    return any(t in set(active_tools) for t in contribution.activeTools)


def _blank_custom_absent(system, custom, append):
    """A custom prompt of white space only taken for none (a trim() before the test)."""
    if custom and custom.strip():
        return f"{custom}\n\n{append}" if append else custom
    return system or ""


def _blank_append_dropped(system, custom, append):
    """An append-system text of white space only taken for none."""
    if custom:
        return f"{custom}\n\n{append}" if append and append.strip() else custom
    return system or ""


def _keep_old_copies(messages, message):
    rest = cf.strip_audit(messages)
    return ([message] if message is not None else []) + rest


def _no_trim(original):
    def render_contribution(contribution, context):
        content = contribution.content
        if callable(content):
            return original(contribution, context)
        if content is None or not content.strip():
            return None
        return content
    return render_contribution


def _developer_tied_to_match(original):
    """The hand-over of developer messages happens only when the system prompt matched."""
    def apply_envelope(payload, adapter, original_prompt, envelope):
        current = adapter.read_system_prompt(payload)
        if original_prompt is None or current is None or current != original_prompt:
            return payload
        return original(payload, adapter, original_prompt, envelope)
    return apply_envelope


def _group_read_partly(original):
    """A group audit with an unreadable item still records its readable items."""
    from reference.envelope import audit

    def recorded_items(entry):
        data = entry.get("data") if isinstance(entry, dict) else None
        if isinstance(entry, dict) and entry.get("type") == "custom" and entry.get("customType") == cf.AUDIT_GROUP_TYPE \
                and isinstance(data, dict) and isinstance(data.get("entries"), list):
            return [i for i in map(audit.audit_item, data["entries"]) if i is not None]
        return original(entry)
    return recorded_items


def _earlier_types_ignored(original):
    def recorded_items(entry):
        if isinstance(entry, dict) and entry.get("customType") in cf.EARLIER_AUDIT_TYPES:
            return []
        return original(entry)
    return recorded_items


def _options_narrowed(original):
    """Content functions see only the options the envelope reads."""
    import dataclasses

    def developer_messages(contributions, request):
        read = ("customPrompt", "appendSystemPrompt", "contextFiles")
        options = {k: v for k, v in request.systemPromptOptions.items() if k in read}
        return original(contributions, dataclasses.replace(request, systemPromptOptions=options))
    return developer_messages


def _first_refusal_fails(original):
    """The first refused contribution fails the whole call (version 1 of the operations)."""
    from reference.errors import SpecError

    def register_all(registry, specs):
        refused = original(registry, specs)
        if refused:
            raise SpecError(refused[0]["code"], "refused")
        return refused
    return register_all


FAULTS = [
    Fault("env-tiebreak-codepoint", "envelope", "Equal priorities are ordered by code point, not UCA root order",
          ("ENV-ORDER-TIEBREAK",), (replace("reference.envelope.collation:id_sort_key", _codepoint_key),), DEV),
    Fault("env-tiebreak-registration", "envelope", "Equal priorities keep registration order (no id tie-break)",
          ("ENV-ORDER-TIEBREAK",), (replace(f"{C}:order_key", lambda c: (float(c.priority),)),), DEV),
    Fault("env-priority-descending", "envelope", "Priorities sort high to low",
          ("ENV-ORDER-PRIORITY",),
          (wrap(f"{C}:order_key", lambda orig: lambda c: (-orig(c)[0], orig(c)[1])),), DEV),
    Fault("env-environment-first", "envelope", "The environment message comes first instead of last",
          ("ENV-ENV-LAST",), (wrap(f"{B}:developer_messages", _environment_first),), DEV),
    Fault("env-environment-sorted", "envelope",
          "The environment message is sorted among the contributions as if of priority 0",
          ("ENV-ENV-LAST",), (wrap(f"{B}:developer_messages", _environment_sorted),), DEV),
    Fault("env-divider-always", "envelope",
          "The project-doc divider is written whenever several files are kept, global or not",
          ("ENV-CTX-DIVIDER",), (replace(f"{CF}:context_body", _divider_always),), CTX),
    Fault("env-context-trimmed", "envelope", "Context-file contents are trimmed",
          ("ENV-CTX-BLANK",), (replace(f"{CF}:kept_files", _trimmed),), CTX),
    Fault("env-context-blank-kept", "envelope", "Blank context files are kept",
          ("ENV-CTX-BLANK", "ENV-CTX-NONE"), (replace(f"{CF}:kept_files", list),), CTX),
    Fault("env-xml-escaped", "envelope", "Environment values are XML-escaped",
          ("ENV-ENV-NOESCAPE",), (replace(f"{ENV}:render_environment", _no_escape_broken),),
          DEV + ("envelope.environment",)),
    Fault("env-fish-without-exec", "envelope", "fish is replaced even without the exec_command tool",
          ("ENV-ENV-FISH",), (wrap(f"{ENV}:reported_shell", _fish_without_exec),), DEV + ("envelope.environment",)),
    Fault("env-provider-unknown-passes", "envelope",
          "A contribution with providers is kept when the provider is unknown",
          ("ENV-FILTER-PROVIDERS",), (replace(f"{C}:passes_provider_filter", _provider_unknown_passes),), DEV),
    Fault("env-tools-any", "envelope", "activeTools needs any one listed tool instead of every one",
          ("ENV-FILTER-TOOLS",), (replace(f"{C}:passes_tool_filter", _any_tool),), DEV),
    Fault("env-instructions-no-append", "envelope", "The append-system text is dropped after a custom prompt",
          ("ENV-INSTR-CUSTOM",),
          (replace("reference.envelope.instructions:provider_instructions",
                   lambda system, custom, append: custom if custom else (system or "")),),
          ("envelope.instructions", "envelope.build", "envelope.session")),
    Fault("env-inject-keeps-old", "envelope", "Injection leaves earlier context-files messages in place",
          ("ENV-CTX-INJECT",), (replace(f"{CF}:inject_context", _keep_old_copies),),
          ("envelope.context-hook", "envelope.session")),
    Fault("env-render-untrimmed", "envelope", "String contents are not trimmed",
          ("ENV-RENDER-TRIM",), (wrap(f"{C}:render_contribution", _no_trim),), DEV),
    Fault("env-developer-tied-to-match", "envelope",
          "Developer messages are handed to the adapter only when the system prompt matched",
          ("ENV-PAYLOAD-DEVELOPER",), (wrap("reference.envelope.payload:apply_envelope", _developer_tied_to_match),),
          ("envelope.session",)),
    Fault("env-audit-group-read-partly", "envelope",
          "A group audit with one unreadable item still records its other items",
          ("ENV-AUDIT-READ",), (wrap("reference.envelope.audit:recorded_items", _group_read_partly),),
          ("envelope.session",)),
    Fault("env-audit-earlier-types-ignored", "envelope",
          "Audits of the earlier per-instruction types are not compared",
          ("ENV-AUDIT-EARLIER",), (wrap("reference.envelope.audit:recorded_items", _earlier_types_ignored),),
          ("envelope.session",)),
    Fault("env-audit-strip-group-only", "envelope",
          "Only custom messages of the group type are removed from model inputs, not the earlier types",
          ("ENV-AUDIT-STRIP", "ENV-AUDIT-EARLIER"),
          (replace(f"{CF}:is_audit_message", lambda m: cf.is_custom_of(m, cf.AUDIT_GROUP_TYPE)),),
          ("envelope.context-hook", "envelope.session")),
    Fault("env-render-options-narrowed", "envelope",
          "Content functions receive only the system-prompt options the envelope reads",
          ("ENV-RENDER-OPTIONS",), (wrap(f"{B}:developer_messages", _options_narrowed),), DEV),
    Fault("env-refusal-fails-call", "envelope",
          "A refused contribution fails the whole developer-messages or build call",
          ("ENV-OP-REFUSED",),
          (wrap("conformance.adapters.reference.envelope:_register_all", _first_refusal_fails),),
          ("envelope.developer-messages", "envelope.build")),
    # The same mistake in each operation that applies it: an implementation may filter or build the
    # instructions in more than one place, so each operation's cases must catch it on their own.
    Fault("env-tools-any-in-build", "envelope", "A built envelope keeps a contribution when any one listed tool is active",
          ("ENV-FILTER-TOOLS",), (replace(f"{C}:passes_tool_filter", _any_tool),), ("envelope.build",)),
    Fault("env-tools-any-in-session", "envelope", "A session's envelope keeps a contribution when any one listed tool is active",
          ("ENV-FILTER-TOOLS",), (replace(f"{C}:passes_tool_filter", _any_tool),), ("envelope.session",)),
    Fault("env-instructions-blank-custom-absent", "envelope", "A custom prompt of white space only counts as absent",
          ("ENV-INSTR-CUSTOM", "ENV-DECISION-INSTRUCTIONS"), (replace("reference.envelope.instructions:provider_instructions", _blank_custom_absent),),
          ("envelope.instructions",)),
    Fault("env-build-blank-custom-absent", "envelope", "A built envelope takes a custom prompt of white space only for none",
          ("ENV-INSTR-CUSTOM", "ENV-DECISION-INSTRUCTIONS"), (replace("reference.envelope.instructions:provider_instructions", _blank_custom_absent),),
          ("envelope.build",)),
    Fault("env-instructions-blank-append-dropped", "envelope",
          "An append-system text of white space only is dropped after a custom prompt",
          ("ENV-INSTR-CUSTOM", "ENV-DECISION-INSTRUCTIONS"), (replace("reference.envelope.instructions:provider_instructions", _blank_append_dropped),),
          ("envelope.instructions",)),
    Fault("env-ctx-divider-counts-given", "envelope",
          "The project-doc divider counts the files given, so a global file followed only by blank ones gets it",
          ("ENV-CTX-DIVIDER", "ENV-CTX-BLANK"), (replace(f"{CF}:context_body", _divider_counts_given),),
          ("envelope.context-message",)),
    Fault("env-hook-group-audits-only", "envelope",
          "The context hook removes group audit messages only, not those of the earlier audit types",
          ("ENV-AUDIT-EARLIER", "ENV-AUDIT-STRIP"), (replace(f"{CF}:AUDIT_TYPES", (cf.AUDIT_GROUP_TYPE,)),),
          ("envelope.context-hook",)),
    # The basename's separators taken from the platform, in each operation that renders the
    # environment message (envelope.session reads the same host through a capture).
    *(Fault(f"env-basename-posix-off-windows-in-{op.split('.')[1]}", "envelope",
            "Off Windows the shell's basename splits at / only, so a backslash path is reported whole",
            ("ENV-ENV-BASENAME",), (wrap(f"{ENV}:environment_message", _basename_posix_off_windows),), (op,))
      for op in ("envelope.environment", "envelope.developer-messages", "envelope.build")),
]

"""One seeded fault for each envelope clause the hand-written faults (envelope.py) leave unproven
(instructions, contributions, environment, context files, payload adapters, envelope
service, audit entries, registries).

Each row rewrites one text of the function (or method) that implements its clause so that the
function breaks that clause, most often by accepting what the clause refuses or by dropping one
condition; a case citing the clause must catch it. Targets: one module path a line, below.
"""

from __future__ import annotations

from conformance.faults.runner import Fault, rewrites, wrap

OP_ENVELOPE = "conformance.adapters.reference.envelope"
AUDIT = "reference.envelope.audit"
BUILD = "reference.envelope.build"
COLLATION = "reference.envelope.collation"
CONTEXT_FILES = "reference.envelope.context_files"
CONTRIBUTIONS = "reference.envelope.contributions"
ENVIRONMENT = "reference.envelope.environment"
GLOBALS = "reference.envelope.globals"
INSTRUCTIONS = "reference.envelope.instructions"
PAYLOAD = "reference.envelope.payload"
SERVICE = "reference.envelope.service"
SESSION = "reference.envelope.session"

_ENV = [
    ("ENV-INSTR-DEFAULT", f"{INSTRUCTIONS}:provider_instructions",
     'return system_prompt or ""',
     'return ("")'),
    ("ENV-CONTRIB-ID", f"{CONTRIBUTIONS}:validate_contribution",
     'if not isinstance(cid, str) or not js_trim(cid):',
     'if False:'),
    ("ENV-CONTRIB-ID-RESERVED", f"{CONTRIBUTIONS}:validate_contribution",
     'if cid == ENVIRONMENT_ID:',
     'if False:'),
    ("ENV-CONTRIB-REPLACE", f"{CONTRIBUTIONS}:register_contribution",
     'registry[contribution.id] = contribution',
     'pass'),
    ("ENV-CONTRIB-UNREGISTER", f"{CONTRIBUTIONS}:unregister_contribution",
     'return registry.pop(contribution_id, None) is not None',
     'return registry.pop(contribution_id, None) is None'),
    ("ENV-PRIORITY-FINITE", f"{CONTRIBUTIONS}:validate_contribution",
     'if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p):',
     'if False:'),
    ("ENV-FILTER-BEFORE-ORDER", f"{CONTRIBUTIONS}:compose_contributions",
     'if text is not None:',
     'if text is None:'),
    ("ENV-ORDER-CODEPOINT", f"{COLLATION}:id_sort_key",
     'tuple(ord(c) for c in contribution_id))',
     '())'),
    ("ENV-RENDER-CONTENT", f"{CONTRIBUTIONS}:render_contribution",
     'if content is None:',
     'if content is not None:'),
    ("ENV-TRIM-JS", f"{CONTRIBUTIONS}:js_trim",
     'while start < end and text[start] in _JS_WHITESPACE:',
     'while start < end and text[start] not in _JS_WHITESPACE:'),
    ("ENV-REGISTRY-GLOBAL", f"{GLOBALS}:install_registry",
     'if is_compatible(existing, key):',
     'if False:'),
    ("ENV-REGISTRY-INCOMPATIBLE", f"{GLOBALS}:install_registry",
     'if is_compatible(existing, key):',
     'if True:'),
    ("ENV-REGISTRY-DIRECT", f"{CONTRIBUTIONS}:compose_contributions",
     'if text is not None:',
     'if text is None:'),
    ("ENV-ENV-FORMAT", f"{ENVIRONMENT}:render_environment",
     'f"  <timezone>{timezone or \'unknown\'}</timezone>",',
     'f"  <timezone>{(timezone) and (\'unknown\')}</timezone>",'),
    ("ENV-CWD-SLASHES", f"{ENVIRONMENT}:slash_path",
     'return path.replace("\\\\", "/")',
     'return path.replace(\'\\\\x\', "/")'),
    ("ENV-ENV-SHELL", f"{ENVIRONMENT}:login_shell",
     'if name:',
     'if True:'),
    ("ENV-ENV-BASENAME", f"{ENVIRONMENT}:shell_basename",
     'return parts[-1] if parts else ""',
     'return parts[-2] if parts else ""'),
    ("ENV-ENV-EMPTY-VAR", f"{ENVIRONMENT}:login_shell",
     'if name:',
     'if True:'),
    ("ENV-ENV-PLATFORM", f"{ENVIRONMENT}:reported_shell",
     'if name.lower() != "fish" or EXEC_COMMAND_TOOL not in set(active_tools):',
     'if (name.lower() != "fish") and (EXEC_COMMAND_TOOL not in set(active_tools)):'),
    ("ENV-ENV-TIMEZONE", f"{ENVIRONMENT}:render_environment",
     'f"  <timezone>{timezone or \'unknown\'}</timezone>",',
     'f"  <timezone>{(\'unknown\')}</timezone>",'),
    ("ENV-CTX-JOIN", f"{CONTEXT_FILES}:context_body",
     'if len(kept) > 1 and is_global_file(kept[0], agent_dir):',
     'if len(kept) >= 1 and is_global_file(kept[0], agent_dir):'),
    ("ENV-CTX-AGENTDIR", f"{CONTEXT_FILES}:is_global_file",
     'target = target.rstrip("/") or target',
     'target = (target.rstrip("/")) and (target)'),
    ("ENV-CTX-FORMAT", f"{CONTEXT_FILES}:context_content",
     'return f"# AGENTS.md instructions for {slash_path(cwd)}\\n\\n<INSTRUCTIONS>\\n{body}\\n</INSTRUCTIONS>"',
     "return '# AGENTS.md instructions for x'"),
    ("ENV-CTX-MESSAGE", f"{CONTEXT_FILES}:context_message",
     'if body is None:',
     'if True:'),
    ("ENV-CTX-NOT-DEVELOPER", f"{CONTEXT_FILES}:context_message",
     'if body is None:',
     'if True:'),
    ("ENV-CTX-INJECT", f"{CONTEXT_FILES}:inject_context",
     'rest = [m for m in strip_audit(messages) if not is_custom_of(m, AGENTS_MD_TYPE)]',
     'rest = [m for m in strip_audit(messages) if (is_custom_of(m, AGENTS_MD_TYPE))]'),
    ("ENV-CTX-REMOVE", f"{CONTEXT_FILES}:inject_context",
     'rest = [m for m in strip_audit(messages) if not is_custom_of(m, AGENTS_MD_TYPE)]',
     'rest = [m for m in strip_audit(messages) if (is_custom_of(m, AGENTS_MD_TYPE))]'),
    ("ENV-ADAPTER-PROVIDER", f"{PAYLOAD}:register_adapter",
     'if not isinstance(provider, str) or not js_trim(provider):',
     'if False:'),
    ("ENV-ADAPTER-REPLACE", f"{PAYLOAD}:register_adapter",
     'if not isinstance(provider, str) or not js_trim(provider):',
     'if (isinstance(provider, str)) or not js_trim(provider):'),
    ("ENV-PAYLOAD-PRECONDITION", f"{PAYLOAD}:on_provider_request",
     'if envelope is None or provider is None or envelope.provider != provider:',
     'if (envelope is None) and (provider is None) and (envelope.provider != provider):'),
    ("ENV-PAYLOAD-SYSTEM", f"{PAYLOAD}:apply_envelope",
     'if original_prompt is not None and current is not None and current == original_prompt:',
     'if current is not None:'),
    ("ENV-PAYLOAD-DEVELOPER", f"{PAYLOAD}:apply_envelope",
     'if supports_developer_messages(adapter):',
     'if supports_developer_messages(adapter) and result is not payload:'),
    ("ENV-PAYLOAD-TOGETHER", f"{PAYLOAD}:apply_envelope",
     'with_developer = adapter.replace_developer_messages(result, list(envelope.developerMessages))',
     'with_developer = adapter.replace_developer_messages(payload, list(envelope.developerMessages))'),
    ("ENV-PAYLOAD-ORIGINAL", f"{SERVICE}:EnvelopeService.provider_request",
     'state.request.systemPrompt',
     'state.envelope.providerInstructions'),
    ("ENV-PAYLOAD-NO-USER", f"{PAYLOAD}:apply_envelope",
     'if supports_developer_messages(adapter):',
     'if False:'),
    ("ENV-PROBE", f"{PAYLOAD}:ProbeAdapter.replace_developer_messages",
     'result["developer"] = [m.to_json() for m in messages]',
     'result["developer"] = result["messages"] = [m.to_json() for m in messages]'),
    ("ENV-SVC-CAPTURE", f"{SERVICE}:EnvelopeService.capture",
     'state.envelope = envelope',
     'pass'),
    ("ENV-SVC-PUBLISHED", f"{SERVICE}:EnvelopeService.publish",
     'self.scope.objects[SERVICE_KEY] = self',
     'pass'),
    ("ENV-SVC-CURRENT", f"{SERVICE}:EnvelopeService.current",
     'if state is None:',
     'if state is not None:'),
    ("ENV-SVC-CURRENT-UNKNOWN", f"{SERVICE}:EnvelopeService.current",
     'state = self.sessions.get(session_id)',
     'state = self.sessions.get(session_id) or next(iter(self.sessions.values()), None)'),
    ("ENV-SVC-CURRENT-FAIL", f"{SERVICE}:EnvelopeService.current",
     'if state is None:',
     'if state is not None:'),
    ("ENV-SVC-CLEAR", f"{SERVICE}:EnvelopeService.clear",
     'return self.sessions.pop(session_id, None) is not None',
     'return self.sessions.pop(session_id, None) is None'),
    ("ENV-SVC-CLEAR-MEMORY", f"{SERVICE}:EnvelopeService.clear",
     'return self.sessions.pop(session_id, None) is not None',
     'return self.sessions.pop(session_id, None) is None'),
    ("ENV-SVC-FAIL-NOTIFY", f"{SERVICE}:EnvelopeService.capture",
     'state.envelope = fallback',
     'pass'),
    ("ENV-SVC-FAIL-REUSE", f"{SERVICE}:EnvelopeService.capture",
     'state.envelope = fallback',
     'pass'),
    ("ENV-SVC-FAIL-NONE", f"{SERVICE}:EnvelopeService.capture",
     'state.lastGood[request.provider] = envelope',
     'pass'),
    ("ENV-AUDIT-SETTING", f"{AUDIT}:audit_setting",
     'if value is None:',
     'if False:'),
    ("ENV-AUDIT-SETTING-INVALID", f"{AUDIT}:audit_setting",
     'if value is None:',
     'if value is not None:'),
    ("ENV-AUDIT-TOML", f"{AUDIT}:settings_from_toml",
     'if text is None:',
     'if True:'),
    ("ENV-AUDIT-TOML-FORM", f"{AUDIT}:settings_to_toml",
     'items = ", ".join(f\'"{r}"\' for r in roles)',
     'items = \', x\'.join(f\'"{r}"\' for r in roles)'),
    ("ENV-AUDIT-ROLES", f"{AUDIT}:audit_items",
     'if "context-user" in selected and envelope.contextMessage is not None:',
     'if ("context-user" in selected) or (envelope.contextMessage is not None):'),
    ("ENV-AUDIT-ITEMS", f"{AUDIT}:audit_items",
     'if "context-user" in selected and envelope.contextMessage is not None:',
     'if "context-user" not in selected and envelope.contextMessage is not None:'),
    ("ENV-AUDIT-GROUP", f"{AUDIT}:audit_entry",
     'if not items:',
     'if True:'),
    ("ENV-AUDIT-CONTENT", f"{AUDIT}:audit_entry",
     'if not items:',
     'if True:'),
    ("ENV-AUDIT-CHANGED", f"{AUDIT}:changed_items",
     'return [i for i in items if latest.get((i["role"], i["id"])) != i["content"]]',
     'return [i for i in items if latest.get((i["role"], i["id"])) == i["content"]]'),
    ("ENV-AUDIT-NOTHING", f"{AUDIT}:audit_entry",
     'if not items:',
     'if True:'),
    ("ENV-AUDIT-FAILED-BUILD", f"{SERVICE}:EnvelopeService.capture",
     'state.envelope = fallback',
     'pass'),
    ("ENV-AUDIT-STRIP", f"{CONTEXT_FILES}:strip_audit",
     'return [m for m in messages if not is_audit_message(m)]',
     'return [m for m in messages if not (is_audit_message(m) and not m.get("display"))]'),
    ("ENV-SCRIPT-STEPS", f"{OP_ENVELOPE}_session:parse_steps",
     'raise _step_error(i, kind, exc) from exc',
     'pass'),
    ("ENV-ENTRY-MESSAGES", f"{SESSION}:entry_message",
     'if kind == "custom_message":',
     'if kind in ("custom_message", "custom"):'),
]

FAULTS = rewrites("envelope", "env", _ENV)


def _registry_snapshot(original):
    """build_envelope that keeps using the contributions it saw at its first build."""
    seen = []

    def build_envelope(contributions, request):
        if not seen:
            seen.append(list(contributions))
        return original(seen[0], request)
    return build_envelope


FAULTS += [
    Fault("env-registry-live", "envelope", "The registry is read once, at the first build, and never again",
          ("ENV-REGISTRY-LIVE",), (wrap(f"{BUILD}:build_envelope", _registry_snapshot),)),
]

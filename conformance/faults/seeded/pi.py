"""Seeded faults of the pi area: messages, replay and conversion, templates,
packages, models.json values and credentials."""

from __future__ import annotations

from conformance.faults.runner import Fault, replace, wrap
from conformance.faults.patches import mutate
from reference.pi.core import filters
from reference.pi.core import replay as rp

CONVERT = "reference.pi.core.convert"
REPLAY = "reference.pi.core.replay"
TPL = "reference.pi.core.templates"
PKG = "reference.pi.core.filters"
VAL = "reference.pi.core.values"
MDL = "reference.pi.core.credentials"

PYTHON_WHITESPACE = ("\t\n\v\f\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                     "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
"""What Python's ``str.isspace`` and ``str.split`` take for white space: U+001C..U+001F and U+0085
that JavaScript's ``\\s`` leaves out, without the U+FEFF that it holds."""

MSG_OPS = ("pi.convert-to-llm", "pi.replay-system", "pi.validate-message")
TPL_OPS = ("pi.load-templates", "pi.parse-args", "pi.substitute-args", "pi.expand-input")
PKG_OPS = ("pi.package-source", "pi.packages-resolve")
MDL_OPS = ("pi.models-value", "pi.models-load", "pi.models-auth", "pi.models-available", "pi.classifier-catalogue",
           "pi.classifier-request", "pi.classifier-usage")


def _exclude_ignored(original):
    def convert_bash_execution(message):
        return original({k: v for k, v in message.items() if k != "excludeFromContext"})
    return convert_bash_execution


def _details_sent(original):
    def convert_custom(message):
        out = original(message)
        if "details" in message:
            out = {**out, "details": message["details"]}
        return out
    return convert_custom


def _unknown_kept(original):
    from reference.pi.core.convert import PASSTHROUGH_ROLES

    def convert_to_llm(messages):
        known = original([m for m in messages if not isinstance(m, dict) or m.get("role") in PASSTHROUGH_ROLES
                          or m.get("role") in ("bashExecution", "custom", "branchSummary", "compactionSummary")])
        it = iter(known)
        out = []
        for m in messages:
            role = m.get("role") if isinstance(m, dict) else None
            if role in PASSTHROUGH_ROLES or role in ("custom", "branchSummary", "compactionSummary"):
                out.append(next(it))
            elif role == "bashExecution":
                if m.get("excludeFromContext") is not True:
                    out.append(next(it))
            else:
                out.append(m)
        return out
    return convert_to_llm


def _update_moves_last(state, sections):
    for name, text in (sections or {}).items():
        state.sections.pop(name, None)
        if text is not None:
            state.sections[name] = text


def _added_before_removed(state, message):
    for tool in message.get("toolsAdded") or []:
        state.tools[tool["name"]] = tool
    for ref in message.get("toolsRemoved") or []:
        state.tools.pop(ref["name"], None)


def _plus_before_bang(declared, patterns, package_root):
    """The filter steps (PI-PKG-FILTER-ORDER) with ``+path`` applied before ``!pattern``."""
    if patterns is None:
        return list(declared)
    if not patterns:
        return []
    includes, excludes, force_in, force_out = filters._split_filter(patterns)
    kept = [p for p in declared if not includes or any(filters.matches_glob(p, g, package_root) for g in includes)]
    for p in declared:
        if p not in kept and any(filters.matches_exact(p, t, package_root) for t in force_in):
            kept.append(p)
    kept = [p for p in kept if not any(filters.matches_glob(p, g, package_root) for g in excludes)]
    kept = [p for p in kept if not any(filters.matches_exact(p, t, package_root) for t in force_out)]
    return [p for p in declared if p in kept]


def _minus_before_plus(declared, patterns, package_root):
    """The filter steps (PI-PKG-FILTER-ORDER) with ``-path`` applied before ``+path``."""
    if patterns is None:
        return list(declared)
    if not patterns:
        return []
    includes, excludes, force_in, force_out = filters._split_filter(patterns)
    kept = [p for p in declared if not includes or any(filters.matches_glob(p, g, package_root) for g in includes)]
    kept = [p for p in kept if not any(filters.matches_glob(p, g, package_root) for g in excludes)]
    kept = [p for p in kept if not any(filters.matches_exact(p, t, package_root) for t in force_out)]
    for p in declared:
        if p not in kept and any(filters.matches_exact(p, t, package_root) for t in force_in):
            kept.append(p)
    return [p for p in declared if p in kept]


def _empty_filter_loads_all(original):
    def apply_filter(declared, patterns, package_root):
        return list(declared) if patterns == [] else original(declared, patterns, package_root)
    return apply_filter


def _env_fallback(original):
    """An unresolved models.json apiKey falls back to the provider's environment variables."""
    def configured_source(provider_id, config, env_auth, creds):
        source = original(provider_id, config, env_auth, creds)
        if source is None and config and config.get("apiKey") is not None:
            return original(provider_id, {k: v for k, v in config.items() if k != "apiKey"}, env_auth, creds)
        return source
    return configured_source


def _bang_literal(original):
    from reference.pi.core.values import ConfigValue, Part

    def parse_config_value(value):
        if isinstance(value, str) and value.startswith("!"):
            return ConfigValue(raw=value, kind="template", parts=(Part("literal", value),))
        return original(value)
    return parse_config_value


def _dollar_dollar_kept(original):
    def parse_config_value(value):
        if isinstance(value, str) and "$$" in value and not value.startswith("!"):
            from reference.pi.core.values import ConfigValue, Part

            pieces = value.split("$$")
            parts: list = []
            for i, piece in enumerate(pieces):
                parts.extend(original(piece).parts if piece else ())
                if i < len(pieces) - 1:
                    parts.append(Part("literal", "$$"))
            return ConfigValue(raw=value, kind="template", parts=tuple(parts))
        return original(value)
    return parse_config_value


def _zero_is_all(original):
    def _positional(args, number):
        return " ".join(args) if int(number) == 0 else original(args, number)
    return _positional


def _templates_before_extensions(original):
    def expand_input(text, templates, extension_commands=frozenset()):
        out = original(text, templates, frozenset())
        if out.kind == "template":
            return out
        return original(text, templates, extension_commands)
    return expand_input


FAULTS = [
    Fault("msg-exclude-ignored", "pi", "excludeFromContext is ignored: excluded bash runs reach the model",
          ("PI-CONVERT-BASH-EXCLUDE",), (wrap(f"{CONVERT}:convert_bash_execution", _exclude_ignored),), MSG_OPS),
    Fault("msg-custom-details-sent", "pi", "A custom message's details are sent to the model",
          ("PI-CONVERT-CUSTOM",), (wrap(f"{CONVERT}:convert_custom", _details_sent),), MSG_OPS),
    Fault("msg-unknown-role-kept", "pi", "Messages of unknown roles are passed to the model",
          ("PI-CONVERT-UNKNOWN-DROP",), (wrap(f"{CONVERT}:convert_to_llm", _unknown_kept),), MSG_OPS),
    Fault("msg-section-update-moves-last", "pi", "Updating a section moves it last instead of keeping its place",
          ("PI-REPLAY-SECTION-SET",), (replace(f"{REPLAY}:apply_sections", _update_moves_last),), MSG_OPS),
    Fault("msg-tools-added-first", "pi", "toolsAdded is applied before toolsRemoved",
          ("PI-REPLAY-TOOLS",), (replace(f"{REPLAY}:apply_tools", _added_before_removed),), MSG_OPS),
    Fault("msg-replace-ignored", "pi", "replace: true does not start a new baseline",
          ("PI-REPLAY-REPLACE",), (replace(f"{REPLAY}:start_baseline", lambda state, message: state),), MSG_OPS),
    Fault("tpl-args-resubstituted", "pi", "Arguments are substituted again after insertion",
          ("PI-TPL-SUB-ONE-PASS",),
          (wrap(f"{TPL}:substitute_args", lambda orig: lambda content, args: orig(orig(content, args), args)),),
          TPL_OPS),
    Fault("tpl-args-empty-dropped", "pi", "An empty quoted argument is dropped",
          ("PI-TPL-ARGS-EMPTY",),
          (wrap(f"{TPL}:parse_command_args", lambda orig: lambda text: [a for a in orig(text) if a]),), TPL_OPS),
    Fault("tpl-dollar-zero-all", "pi", "$0 gives every argument instead of nothing",
          ("PI-TPL-SUB-POSITIONAL",), (wrap(f"{TPL}:_positional", _zero_is_all),), TPL_OPS),
    Fault("tpl-description-limit-59", "pi", "A fallback description is cut at 59 characters",
          ("PI-TPL-DESCRIPTION-FALLBACK",), (replace(f"{TPL}:DESCRIPTION_LIMIT", 59),), TPL_OPS),
    Fault("tpl-description-limit-61", "pi", "A fallback description is cut at 61 characters",
          ("PI-TPL-DESCRIPTION-FALLBACK",), (replace(f"{TPL}:DESCRIPTION_LIMIT", 61),), TPL_OPS),
    Fault("tpl-template-before-extension", "pi", "A template takes /name input before an extension command",
          ("PI-TPL-EXPAND-EXTENSION",), (wrap(f"{TPL}:expand_input", _templates_before_extensions),), TPL_OPS),
    Fault("tpl-yaml-flow-tab-splits", "pi", "A tab inside a plain scalar of a flow collection ends it, so the YAML is refused",
          ("PI-TPL-YAML-SCHEMA",), (mutate(f"{TPL}:_load_yaml", "yaml.Scanner = _TabScanner", "yaml.Scanner = Scanner"),),
          TPL_OPS),
    Fault("tpl-yaml-flow-line-tab-indents", "pi", "A tab opening a line inside a flow collection counts as indentation",
          ("PI-TPL-YAML-SCHEMA",), (mutate(f"{TPL}:_tab_role", 'return "separation" if flow else "indent"',
                                           'return "indent"'),), TPL_OPS),
    Fault("tpl-yaml-bracket-opens-flow", "pi",
          "A comma or bracket before a tab in a block plain scalar is taken for a flow collection, the tab for a space",
          ("PI-TPL-YAML-SCHEMA",), (mutate(f"{TPL}:_tab_role", 'return "content"',
                                           'return "separation" if before[-1] in ",[{" else "content"'),), TPL_OPS),
    Fault("pkg-plus-before-bang", "pi", "+path is applied before !pattern, so ! removes what + added back",
          ("PI-PKG-FILTER-ORDER",), (replace(f"{PKG}:apply_filter", _plus_before_bang),), PKG_OPS),
    Fault("pkg-minus-before-plus", "pi", "-path is applied before +path, so + adds back what - removed",
          ("PI-PKG-FILTER-ORDER",), (replace(f"{PKG}:apply_filter", _minus_before_plus),), PKG_OPS),
    Fault("pkg-empty-filter-loads-all", "pi", "An empty filter list loads everything instead of nothing",
          ("PI-PKG-FILTER-EMPTY",), (wrap(f"{PKG}:apply_filter", _empty_filter_loads_all),), PKG_OPS),
    Fault("mdl-env-fallback", "pi",
          "A models.json apiKey naming an unset variable falls back to the provider's environment key",
          ("PI-CRED-MODELS-JSON-UNRESOLVED", "PI-CRED-PRECEDENCE"),
          (wrap(f"{MDL}:configured_source", _env_fallback),), MDL_OPS),
    Fault("mdl-empty-variable-set", "pi", "An empty environment variable counts as set",
          ("PI-MODELS-VALUE-UNSET",), (replace(f"{VAL}:env_value", lambda name, env: env.get(name)),), MDL_OPS),
    Fault("mdl-bang-literal", "pi", "A leading ! is taken literally instead of running a command",
          ("PI-MODELS-VALUE-FORMS",), (wrap(f"{VAL}:parse_config_value", _bang_literal),), MDL_OPS),
    Fault("mdl-dollar-dollar-kept", "pi", "$$ is kept as two dollars instead of one",
          ("PI-MODELS-VALUE-ESCAPES",), (wrap(f"{VAL}:parse_config_value", _dollar_dollar_kept),), MDL_OPS),
    Fault("pkg-source-trailing-trim-only", "pi",
          "Only trailing white space is taken off a source, so \" npm:pkg\" is a local path",
          ("PI-PKG-SOURCE-TRIM",),
          (mutate("reference.pi.core.sources:parse_source", "text = js_trim(source)", "text = source.rstrip()"),),
          ("pi.package-source",)),
    Fault("tpl-args-python-whitespace", "pi",
          "Arguments are split at Python's white space, not JavaScript's \\s (U+001C..U+001F and U+0085 separate, U+FEFF does not)",
          ("PI-TPL-ARGS-SPLIT",), (replace(f"{TPL}:JS_WHITESPACE", PYTHON_WHITESPACE),), ("pi.parse-args",)),
]

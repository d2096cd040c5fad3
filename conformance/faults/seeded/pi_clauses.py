"""One seeded fault for each pi clause the hand-written faults (pi.py) leave unproven. Each row
rewrites one text of the function that implements its clause so that it breaks that clause, most
often by accepting what the clause refuses; a case citing the clause must catch it."""

from __future__ import annotations

import dataclasses
import re

from conformance.faults.runner import Fault, rewrites, wrap

AVAILABILITY = "reference.pi.core.availability"
CHANGELOG = "reference.pi.core.changelog"
CLASSIFIER_IMAGES = "reference.pi.core.classifier_images"
CLASSIFIERS = "reference.pi.core.classifiers"
COMMANDS = "reference.pi.host.commands"
CONVERT = "reference.pi.core.convert"
CREDENTIALS = "reference.pi.core.credentials"
IMAGE_MODELS = "reference.pi.core.image_models"
DISK = "reference.pi.host.disk"
FILTERS = "reference.pi.core.filters"
IDENTITY = "reference.pi.core.identity"
MANIFEST = "reference.pi.core.manifest"
MERGE = "reference.pi.core.merge"
MESSAGES = "reference.pi.core.messages"
MODELS_FILE = "reference.pi.core.models_file"
REPLAY = "reference.pi.core.replay"
SAMPLING = "reference.pi.core.sampling"
SCOPE = "reference.pi.core.scope"
SOURCES = "reference.pi.core.sources"
TEMPLATES = "reference.pi.core.templates"
VALUES = "reference.pi.core.values"

_MSG = [
    ("PI-MSG-OBJECT", f"{MESSAGES}:validate_message",
     'if "role" not in message:',
     'if False:'),
    ("PI-MSG-USAGE-CACHEWRITE1H", f"{MESSAGES}:check_usage_subsets",
     'if _is_number(a) and _is_number(b) and a > b:',
     'if False:'),
    ("PI-MSG-USAGE-REASONING", f"{MESSAGES}:check_usage_subsets",
     'if _is_number(a) and _is_number(b) and a > b:',
     'if False:'),
    ("PI-MSG-PENDING", f"{MESSAGES}:check_pending",
     'if persist and message.get("stopReason") == "pending":',
     'if False:'),
    ("PI-MSG-DEFERRED", f"{MESSAGES}:check_deferred",
     'if message.get("stopReason") == "deferred" and "deferred" not in message:',
     'if False:'),
    ("PI-MSG-UNKNOWN-ROLE", f"{MESSAGES}:validate_message",
     'if not isinstance(role, str):',
     'if (isinstance(role, str)):'),
    ("PI-MSG-EXTRA-FIELDS", f"{MESSAGES}:validate_message",
     'if not isinstance(role, str):',
     'if (isinstance(role, str)):'),
    ("PI-MSG-PROBLEMS", f"{MESSAGES}:validate_message",
     'if not isinstance(role, str):',
     'if (isinstance(role, str)):'),
    ("PI-MSG-REFUSE-INVALID", f"{MESSAGES}:require_valid_messages",
     'if result.problems:',
     'if False:'),
    ("PI-REPLAY-CONTENT-APPEND", f"{REPLAY}:append_content",
     'if text:',
     'if True:'),
    ("PI-REPLAY-CONTENT-BLOCKS", f"{REPLAY}:message_text",
     'return "\\n".join(block["text"] for block in content if block.get("type") == "text")',
     'return "\\n".join(block["text"] for block in content if block.get("type") != "text")'),
    ("PI-REPLAY-SECTION-REMOVE", f"{REPLAY}:apply_sections",
     'if text is None:',
     'if text is not None:'),
    ("PI-REPLAY-SECTION-READD", f"{REPLAY}:apply_sections",
     'if text is None:',
     'if text is not None:'),
    ("PI-REPLAY-SECTION-ORDER", f"{REPLAY}:apply_sections",
     'if text is None:',
     'if False:'),
    ("PI-REPLAY-TOOLS-REDEFINE", f"{REPLAY}:apply_tools",
     'for tool in message.get("toolsAdded") or []:',
     'for tool in (message.get("toolsAdded")) and ([]):'),
    ("PI-REPLAY-RENDER", f"{REPLAY}:render_system_prompt",
     'parts = ["\\n\\n".join(state.content), *state.sections.values()]',
     'parts = ["\\n".join(state.content), *state.sections.values()]'),
    ("PI-REPLAY-NON-SYSTEM", f"{REPLAY}:replay_system_messages",
     'if not (isinstance(message, dict) and message.get("role") == "system"):',
     'if not ((isinstance(message, dict)) or (message.get("role") == "system")):'),
    ("PI-CONVERT-BASH-TEXT", f"{CONVERT}:bash_execution_to_text",
     'elif exit_code is not None and exit_code != 0:',
     'elif exit_code is None and exit_code != 0:'),
    ("PI-CONVERT-BASH-EXIT", f"{CONVERT}:bash_execution_to_text",
     'elif exit_code is not None and exit_code != 0:',
     'elif (exit_code is not None) or (exit_code != 0):'),
    ("PI-CONVERT-BASH-CANCEL", f"{CONVERT}:bash_execution_to_text",
     'if message["truncated"] and message.get("fullOutputPath"):',
     'if False:'),
    ("PI-CONVERT-BASH-TRUNCATED", f"{CONVERT}:bash_execution_to_text",
     'elif exit_code is not None and exit_code != 0:',
     'elif (exit_code is not None) or (exit_code != 0):'),
    ("PI-CONVERT-BRANCH-SUMMARY", f"{CONVERT}:convert_branch_summary",
     'text = BRANCH_SUMMARY_PREFIX + message["summary"] + BRANCH_SUMMARY_SUFFIX',
     'text = message["summary"]'),
    ("PI-CONVERT-COMPACTION-SUMMARY", f"{CONVERT}:convert_compaction_summary",
     'text = COMPACTION_SUMMARY_PREFIX + message["summary"] + COMPACTION_SUMMARY_SUFFIX',
     'text = message["summary"]'),
    ("PI-CONVERT-PASSTHROUGH", f"{CONVERT}:convert_to_llm",
     'if converted is not None:',
     'if converted is None:'),
    ("PI-CONVERT-TIMESTAMP", f"{CONVERT}:_user",
     'return {"role": "user", "content": content, "timestamp": timestamp}',
     'return {"role": "user", "content": content, "timestamp": 0}'),
]

_MDL = [
    ("PI-MODELS-NULL-FIELD", f"{MERGE}:model_from_definition",
     'DEFAULT_INPUT if definition.get("input") is None else',
     'DEFAULT_INPUT if "input" not in definition else'),
    ("PI-CRED-STORED-UNTYPED", f"{CREDENTIALS}:_stored_key",
     'entry.get("type", "api_key") == "api_key"',
     'entry.get("type") == "api_key"'),
    ("PI-MODELS-VALUE-COMMAND-BYTES", f"{COMMANDS}:run_shell_command",
     'out.decode("utf-8", errors="replace")',
     'out.decode("utf-8", errors="ignore")'),
    ("PI-MODELS-VALUE-COMMAND-STDIN", f"{COMMANDS}:run_shell_command",
     '["/bin/sh", "-c", command]',
     '["/bin/sh", "-c", "echo typed | {\\n" + command + "\\n}"]'),
    ("PI-MODELS-VALUE-COMMAND", f"{VALUES}:run_config_command",
     'if result.exit_code is None or result.exit_code != 0:',
     'if (result.exit_code is None) and (result.exit_code != 0):'),
    ("PI-MODELS-SCHEMA", f"{MODELS_FILE}:validate_models_json",
     'if path not in seen:',
     'if False:'),
    ("PI-MODELS-SCHEMA-EVERY-FIELD", f"{MODELS_FILE}:validate_models_json",
     'return None, [seen[p] for p in sorted(seen)]',
     'return None, [seen[p] for p in sorted(seen)][:1]'),
    ("PI-MODELS-JSON-COMMENTS", f"{MODELS_FILE}:strip_json_comments",
     'return _STRING_OR_TRAILING_COMMA.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(0), text)',
     'return _STRING_OR_TRAILING_COMMA.sub(lambda m: m.group(1) if m.group(1) is None else m.group(0), text)'),
    ("PI-MODELS-COMPOSITION-ERROR", f"{MERGE}:build_registry",
     'if builtin is not None:',
     'if False:'),
    ("PI-MODELS-PROVIDER-FIELDS", f"{MERGE}:compose_provider",
     'if config.get("oauth") and not config.get("baseUrl"):',
     'if (config.get("oauth")) or (not config.get("baseUrl")):'),
    ("PI-MODELS-ADD-REPLACE", f"{MERGE}:compose_provider",
     'if config.get("oauth") and not config.get("baseUrl"):',
     'if (config.get("oauth")) or (not config.get("baseUrl")):'),
    ("PI-MODELS-DEFAULTS", f"{MERGE}:model_from_definition",
     'if not api:',
     'if (api):'),
    ("PI-MODELS-DEFAULTS-EXISTING", f"{MERGE}:_defaults_for",
     'lambda m: api is not None and m["api"] == api,',
     'lambda m: False,'),
    ("PI-MODELS-PROVIDER-COMPAT", f"{MERGE}:compose_provider",
     'model = model_from_definition(provider_id, definition, api, base_url, config.get("compat"))',
     'model = model_from_definition(provider_id, definition, api, base_url, None)'),
    ("PI-MODELS-INPUT-AS-WRITTEN", f"{MERGE}:model_from_definition",
     'list(DEFAULT_INPUT if definition.get("input") is None else definition["input"])',
     'list(definition.get("input") or DEFAULT_INPUT)'),
    ("PI-MODELS-OVERRIDE-MERGE", f"{MERGE}:apply_model_override",
     'out[key] = copy.deepcopy(override[key])',
     'pass'),
    ("PI-MODELS-OVERRIDE-UNKNOWN", f"{MERGE}:compose_provider",
     'if config.get("oauth") and not config.get("baseUrl"):',
     'if (config.get("oauth")) or (not config.get("baseUrl")):'),
    ("PI-MODELS-IMAGE-RESIZE", f"{MERGE}:effective_image_resize",
     'resize = ((model.get("inputLimits") or {}).get("images") or {}).get("resize") or {}',
     'resize = ({})'),
    ("PI-MODELS-PROMPT-CACHE", f"{MERGE}:cache_warming_tiers",
     'cache = model.get("promptCache") or {}',
     'cache = ({})'),
    ("PI-CRED-HEADER-MISSING", f"{CREDENTIALS}:resolve_request_auth",
     'config = config or {}',
     'config = (config) and ({})'),
    ("PI-CRED-AUTH-HEADER", f"{CREDENTIALS}:resolve_request_auth",
     'headers = merge_headers(headers, {"Authorization": f"Bearer {key}"})',
     'headers = {**headers, "Authorization": f"Bearer {key}"}'),
    ("PI-CRED-HEADER-LAYERS", f"{CREDENTIALS}:raw_request_headers",
     'config = config or {}',
     'config = (config) and ({})'),
    ("PI-CRED-REQUIRED-ENV", f"{CREDENTIALS}:configured_source",
     'if _stored_key(creds.auth_json.get(provider_id)) is not None:',
     'if False:'),
    ("PI-MODELS-AVAILABILITY", f"{AVAILABILITY}:available_models",
     'if configured_source(provider_id, provider.config, env_auth_of(provider.builtin), creds) is None:',
     'if False:'),
    ("PI-CLASSIFIER-LISTING", f"{CLASSIFIERS}:available_classifiers",
     'configs = provider_configs or {}',
     'configs = (provider_configs) and ({})'),
    ("PI-CLASSIFIER-REQUEST", f"{CLASSIFIERS}:validate_classify_request",
     'if not isinstance(question.get("instructions"), str):',
     'if False:'),
    ("PI-CLASSIFIER-COST", f"{CLASSIFIERS}:classifier_usage",
     'if not isinstance(report, dict) or ("input_tokens" not in report and "output_tokens" not in report):',
     'if (not isinstance(report, dict)) and ("input_tokens" not in report and "output_tokens" not in report):'),
]

_PKG = [
    ("PI-PKG-MANIFEST-BOM", f"{MANIFEST}:read_manifest",
     'data = json.loads(text[1:] if text.startswith("\\ufeff") else text)',
     'data = json.loads(text)'),
    ("PI-PKG-MANIFEST-GLOB-NODE-MODULES", f"{MANIFEST}:_walk_files_and_dirs",
     'if fs.is_dir(full) and name != "node_modules" and not fs.is_symlink(full):',
     'if fs.is_dir(full) and not fs.is_symlink(full):'),
    ("PI-PKG-SOURCE-NPM", f"{SOURCES}:parse_npm_source",
     'if not match or not _NPM_NAME.fullmatch(match.group(1)):',
     'if not match or (_NPM_NAME.fullmatch(match.group(1))):'),
    ("PI-PKG-SOURCE-GIT", f"{SOURCES}:parse_git_source",
     'has_prefix = text.startswith("git:") and not _GIT_URL_SCHEME.match(text)',
     'has_prefix = text.startswith("git:") and (_GIT_URL_SCHEME.match(text))'),
    ("PI-PKG-SOURCE-URL", f"{SOURCES}:parse_git_source",
     'has_prefix = text.startswith("git:") and not _GIT_URL_SCHEME.match(text)',
     'has_prefix = (text.startswith("git:")) or (not _GIT_URL_SCHEME.match(text))'),
    ("PI-PKG-SOURCE-GIT-HASH", f"{SOURCES}:parse_git_source",
     'if "#" in path:',
     'if False:'),
    ("PI-PKG-SOURCE-TRAILING-SLASH", f"{SOURCES}:parse_git_source",
     'path = path.strip("/")',
     'path = path.lstrip("/")'),
    ("PI-PKG-SOURCE-TRIM", f"{SOURCES}:parse_source",
     'text = js_trim(source)',
     'text = source'),
    ("PI-PKG-SOURCE-LOCAL", f"{SOURCES}:parse_source",
     'if not isinstance(source, str) or not js_trim(source):',
     'if (isinstance(source, str)) or not js_trim(source):'),
    ("PI-PKG-SOURCE-INVALID", f"{SOURCES}:parse_git_source",
     'if not host or len(segments) < 2 or any(s in ("", "..") for s in segments) or "\\\\" in path:',
     'if False:'),
    ("PI-PKG-IDENTITY", f"{IDENTITY}:package_identity",
     'if source.type == "npm":',
     'if False:'),
    ("PI-PKG-INSTALL-LAYOUT", f"{SCOPE}:Layout.install_path",
     'return posixpath.join(base, "npm", "node_modules", source.name or "")',
     'return posixpath.join(base, "npm", "node_modules", (source.name) and (""))'),
    ("PI-PKG-DISCOVERY-CONVENTIONAL", f"{MANIFEST}:discover_directory",
     'if resource_type == "skills":',
     'if resource_type != "skills":'),
    ("PI-PKG-DISCOVERY-INDEX", f"{MANIFEST}:_discover_extensions",
     'if own:',
     'if own and False:'),
    ("PI-PKG-DISCOVERY-MANIFEST", f"{MANIFEST}:manifest_declared",
     'if _has_glob(entry):',
     'if True:'),
    ("PI-PKG-DISCOVERY-CHOICE", f"{MANIFEST}:declared_resources",
     'if not any(fs.is_dir(posixpath.join(package_root, t)) for t in RESOURCE_TYPES):',
     'if (any(fs.is_dir(posixpath.join(package_root, t)) for t in RESOURCE_TYPES)):'),
    ("PI-PKG-LOCAL-FILE", f"{SCOPE}:_declared",
     'return {t: ([root] if t == "extensions" else []) for t in RESOURCE_TYPES}, True',
     'return {t: ([root] if t != "extensions" else []) for t in RESOURCE_TYPES}, True'),
    ("PI-PKG-LOCAL-DIR-OBJECT", f"{SCOPE}:resolve_packages",
     'declared, filtered = _declared(fs, root)',
     'declared, filtered = _declared(fs, root) if all(f is None for f in base.filters.values()) '
     'or declared_resources(fs, root) is not None else ({t: [] for t in RESOURCE_TYPES}, True)'),
    ("PI-PKG-FILTER-OMITTED", f"{FILTERS}:apply_filter",
     'kept = [p for p in declared if not includes or any(matches_glob(p, g, package_root) for g in includes)]',
     'kept = [p for p in declared if (not includes) and (any(matches_glob(p, g, package_root) for g in includes))]'),
    ("PI-PKG-PATTERN-DOT-SLASH", f"{FILTERS}:matches_glob",
     'pattern = norm_pattern(pattern)',
     'pattern = pattern'),
    ("PI-PKG-ENTRY-INVALID", f"{SCOPE}:parse_declaration",
     'if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):',
     'if False:'),
    ("PI-PKG-FILTER-NARROW", f"{FILTERS}:apply_filter",
     'if p not in kept and any(matches_exact(p, t, package_root) for t in force_in):',
     'if False:'),
    ("PI-PKG-SCOPE-REPLACE", f"{SCOPE}:select_declarations",
     'if decl.scope == "user":',
     'if decl.scope != "user":'),
    ("PI-PKG-AUTOLOAD-DELTA", f"{FILTERS}:apply_delta",
     '(includes, matches_glob, True),',
     '(includes, matches_glob, False),'),
    ("PI-PKG-TRUST", f"{SCOPE}:select_declarations",
     'if not trusted:',
     'if False:'),
    ("PI-PKG-DUPLICATE", f"{SCOPE}:select_declarations",
     'if decl.scope == "user":',
     'if decl.scope != "user":'),
    ("PI-PKG-HOST-DEPS", f"{MANIFEST}:host_provided_warnings",
     'deps = (manifest or {}).get("dependencies")',
     'deps = ((manifest) and ({})).get("dependencies")'),
    ("PI-PKG-SETTINGS-LISTS", f"{SCOPE}:settings_resources",
     'set(apply_filter(declared, patterns, settings_dir) if patterns else declared)',
     'set(declared)'),
    ("PI-PKG-SETTINGS-TRUST", f"{SCOPE}:resolve_packages",
     '("project", project_lists if trusted else None)',
     '("project", project_lists)'),
    ("PI-PKG-SETTINGS-ORDER", f"{SCOPE}:resolve_packages",
     'for scope, lists in (("project", project_lists if trusted else None), ("user", personal_lists)):',
     'for scope, lists in (("user", personal_lists), ("project", project_lists if trusted else None)):'),
    ("PI-PKG-DISABLED-REPORTED", f"{SCOPE}:_add",
     'target = result.resources if enabled else result.disabled',
     'target = result.resources if enabled else {t: {} for t in result.disabled}'),
]

_TPL = [
    ("PI-TPL-FILE-BYTES", f"{DISK}:read_template",
     'raw = path.read_bytes().decode("utf-8", errors="replace")',
     'raw = path.read_bytes().decode("utf-8", errors="ignore")'),
    ("PI-TPL-NAME", f"{TEMPLATES}:command_name",
     'return file_name[: -len(".md")] if file_name.endswith(".md") else file_name',
     'return file_name'),
    ("PI-TPL-DIRS", f"{DISK}:template_files",
     'if entry.name.startswith(".") or not entry.name.endswith(".md"):',
     'if (entry.name.startswith(".")) and (not entry.name.endswith(".md")):'),
    ("PI-TPL-DOTFILES", f"{DISK}:template_files",
     'if entry.name.startswith(".") or not entry.name.endswith(".md"):',
     'if (entry.name.startswith(".")) and (not entry.name.endswith(".md")):'),
    ("PI-TPL-ORDER", f"{DISK}:template_files",
     'if entry.name.startswith(".") or not entry.name.endswith(".md"):',
     'if entry.name.startswith(".") or (entry.name.endswith(".md")):'),
    ("PI-TPL-NEWLINES", f"{TEMPLATES}:normalise_text",
     'if raw.startswith("\\ufeff"):',
     'if False:'),
    ("PI-TPL-FRONTMATTER", f"{TEMPLATES}:split_frontmatter",
     'if not yaml_text:',
     'if (yaml_text):'),
    ("PI-TPL-YAML-SCHEMA", f"{TEMPLATES}:_load_yaml",
     'if not (0 <= at < len(text) and text[at] == "\\t"):',
     'if (0 <= at < len(text) and text[at] == "\\t"):'),
    ("PI-TPL-BODY-TRIM", f"{TEMPLATES}:split_frontmatter",
     'if not text.startswith("---"):',
     'if (text.startswith("---")):'),
    ("PI-TPL-YAML-ERROR", f"{TEMPLATES}:split_frontmatter",
     'if not text.startswith("---"):',
     'if True:'),
    ("PI-TPL-DESCRIPTION", f"{TEMPLATES}:frontmatter_string",
     'return value if isinstance(value, str) and value else None',
     'return value if (isinstance(value, str)) else None'),
    ("PI-TPL-DESCRIPTION-CHARS", f"{TEMPLATES}:first_line_description",
     'if len(line) > DESCRIPTION_LIMIT:',
     'if len(line) >= DESCRIPTION_LIMIT:'),
    ("PI-TPL-ARGUMENT-HINT", f"{TEMPLATES}:frontmatter_string",
     'return value if isinstance(value, str) and value else None',
     'return value if (isinstance(value, str)) else None'),
    ("PI-TPL-TRUST", f"{DISK}:conventional_directories",
     'if project_trusted:',
     'if False:'),
    ("PI-TPL-DUPLICATE", f"{TEMPLATES}:add_template",
     'if kept.name == template.name:',
     'if False:'),
    ("PI-TPL-DIAGNOSTIC-ORDER", f"{TEMPLATES}:collect_templates",
     'result.diagnostics[:0] = problems',
     'result.diagnostics[len(result.diagnostics):] = problems'),
    ("PI-TPL-PRECEDENCE", f"{DISK}:conventional_directories",
     'if project_trusted:',
     'if False:'),
    ("PI-TPL-ARGS-SPLIT", f"{TEMPLATES}:parse_command_args",
     'while i <= last:',
     'while i < last:'),
    ("PI-TPL-ARGS-QUOTE", f"{TEMPLATES}:parse_command_args",
     'while i <= last:',
     'while i < last:'),
    ("PI-TPL-ARGS-ESCAPE", f"{TEMPLATES}:parse_command_args",
     'elif ch in "\\"\'" and not started:',
     'elif (ch in "\\"\'") or (not started):'),
    ("PI-TPL-ARGS-UNTERMINATED", f"{TEMPLATES}:parse_command_args",
     'elif ch in "\\"\'" and not started:',
     'elif (ch in "\\"\'") or (not started):'),
    ("PI-TPL-SUB-ALL", f"{TEMPLATES}:substitute_args",
     'return joined\n',
     'return ", ".join(args)\n'),
    ("PI-TPL-SUB-DEFAULT", f"{TEMPLATES}:substitute_args",
     'return value if value else default',
     'return value if value or (target not in ("@", "ARGUMENTS") and int(target) <= len(args)) else default'),
    ("PI-TPL-SUB-ALL-DEFAULT", f"{TEMPLATES}:substitute_args",
     'value = joined if target in ("@", "ARGUMENTS") else _positional(args, target)',
     'value = (args[0] if args else "") if target in ("@", "ARGUMENTS") else _positional(args, target)'),
    ("PI-TPL-SUB-DEFAULT-TEXT", f"{TEMPLATES}:substitute_args",
     'return value if value else default',
     'return value if value else default.replace("$", "")'),
    ("PI-TPL-SUB-SLICE", f"{TEMPLATES}:substitute_args",
     'begin = max(int(start) - 1, 0)',
     'begin = int(start) - 1'),
    ("PI-TPL-EXPAND-MATCH", f"{TEMPLATES}:expand_input",
     'name, arg_text = match.group(1), match.group(2) or ""',
     'name, arg_text = match.group(1), (match.group(2)) and ("")'),
    ("PI-TPL-EXPAND-EXTENSION-NAME", f"{TEMPLATES}:match_extension_command",
     'if not text.startswith("/"):',
     'if (text.startswith("/")):'),
    ("PI-TPL-EXPAND-NO-PLACEHOLDERS", f"{TEMPLATES}:expand_input",
     'if match is None:',
     'if match is not None:'),
    ("PI-TPL-EXPLICIT-PATHS", f"{DISK}:load_prompt_templates",
     'found.extend(("temporary", path, True) for path in explicit)',
     'found.extend(("project", path, True) for path in explicit)'),
    ("PI-TPL-EXPLICIT-ORDER", f"{DISK}:load_prompt_templates",
     'found.extend(("temporary", path, True) for path in explicit)',
     'found[:0] = [("temporary", path, True) for path in explicit]'),
    ("PI-TPL-EXPLICIT-MISSING", f"{DISK}:explicit_template_files",
     'missing.append(path)',
     'pass'),
    ("PI-TPL-EXPLICIT-MISSING-ONCE", f"{DISK}:explicit_template_files",
     'elif path not in missing:',
     'else:'),
    ("PI-TPL-SETTINGS-PROMPTS", f"{DISK}:settings_and_conventional_files",
     '_override_enabled(path, entries, base)',
     'True'),
    ("PI-TPL-DEFAULTS-OFF", f"{DISK}:load_prompt_templates",
     'if default_folders:',
     'if True:'),
]

FAULTS = rewrites("pi", "msg", _MSG) + rewrites("pi", "mdl", _MDL) + rewrites("pi", "pkg", _PKG) + rewrites("pi", "tpl", _TPL)


# -- message shapes (PI-MSG-*): the per-role models are pydantic models, not functions, so each
# fault wraps validate_message and lets through what the clause refuses, or refuses what it allows.


def _accepting(role, path=r".*", code=r".*"):
    """validate_message that drops the problems of ``role`` messages (any role: ``None``) whose
    JSON path and code match the regular expressions ``path`` and ``code``."""
    def make(original):
        def validate_message(message, *, persist=True, **options):
            out = original(message, persist=persist, **options)
            if role is not None and out.role != role:
                return out
            kept = [p for p in out.problems if not (re.fullmatch(path, p.path) and re.fullmatch(code, p.code))]
            return dataclasses.replace(out, problems=kept)
        return validate_message
    return make


def _null_optionals_accepted(original):
    """validate_message that takes an explicit null as an absent optional field."""
    from reference.pi.core.messages import _lookup

    def validate_message(message, *, persist=True, **options):
        out = original(message, persist=persist, **options)
        kept = [p for p in out.problems if not (p.code == "wrong-type" and isinstance(message, dict)
                                                and _lookup(message, list(p.parts)) is None
                                                and p.parts and _has_key(message, p.parts))]
        return dataclasses.replace(out, problems=kept)
    return validate_message


def _has_key(message, parts):
    from reference.pi.core.messages import _lookup

    parent = _lookup(message, list(parts[:-1]))
    return isinstance(parent, dict) and parts[-1] in parent


def _null_exit_code_refused(original):
    """validate_message that refuses ``exitCode: null`` in a bash execution."""
    from reference.pi.core.messages import Problem

    def validate_message(message, *, persist=True, **options):
        out = original(message, persist=persist, **options)
        if out.role == "bashExecution" and isinstance(message, dict) and "exitCode" in message \
                and message["exitCode"] is None:
            return dataclasses.replace(out, problems=out.problems + [Problem(("exitCode",), "wrong-type", "null")])
        return out
    return validate_message


_BLOCK = r"\$\.content\[\d+\]\."
_VALIDATE = f"{MESSAGES}:validate_message"
_SHAPES = [
    ("PI-MSG-TEXT-BLOCK", "A text block with a missing or mistyped text is accepted", _accepting(None, _BLOCK + "text(Signature)?")),
    ("PI-MSG-IMAGE-BLOCK", "An image block without data or mimeType is accepted", _accepting(None, _BLOCK + "(data|mimeType)")),
    ("PI-MSG-THINKING-BLOCK", "A thinking block with a missing or mistyped field is accepted",
     _accepting(None, _BLOCK + "(thinking|thinkingSignature|redacted)")),
    ("PI-MSG-TOOLCALL-BLOCK", "A tool call with a missing or mistyped field is accepted",
     _accepting(None, _BLOCK + "(id|name|arguments|thoughtSignature|namespace)")),
    ("PI-MSG-USAGE", "Missing usage fields are accepted", _accepting(None, r"\$\.usage(\..*)?", "missing")),
    ("PI-MSG-COUNTS-NONNEGATIVE", "Negative token counts and costs are accepted", _accepting(None, code="negative")),
    ("PI-MSG-SYSTEM", "A system message is never refused", _accepting("system")),
    ("PI-MSG-SYSTEM-NO-IMAGE", "An image block in a system message is accepted",
     _accepting("system", _BLOCK + "type", "invalid-value")),
    ("PI-MSG-USER", "A user message is never refused", _accepting("user")),
    ("PI-MSG-ASSISTANT", "An assistant message's own fields are never refused",
     _accepting("assistant", r"\$\.(api|provider|model|content|timestamp|responseModel|responseId|errorMessage)")),
    ("PI-MSG-STOP-REASON", "Any stop reason is accepted", _accepting("assistant", r"\$\.stopReason")),
    ("PI-MSG-TOOLRESULT", "A tool result is never refused", _accepting("toolResult")),
    ("PI-MSG-BASH", "A bash execution is never refused", _accepting("bashExecution")),
    ("PI-MSG-BASH-EXITCODE-NULL", "exitCode: null is refused", _null_exit_code_refused),
    ("PI-MSG-CUSTOM", "A custom message is never refused", _accepting("custom")),
    ("PI-MSG-BRANCH-SUMMARY", "A branch summary is never refused", _accepting("branchSummary")),
    ("PI-MSG-COMPACTION-SUMMARY", "A compaction summary's fields are never refused", _accepting("compactionSummary", code="missing|wrong-type")),
    ("PI-MSG-OPTIONAL-NULL", "An explicit null is taken as an absent optional field", _null_optionals_accepted),
]
FAULTS += [Fault("msg-" + clause[len("PI-MSG-"):].lower() + "-shape", "pi", title, (clause,), (wrap(_VALIDATE, make),))
           for clause, title, make in _SHAPES]


# -- the classifier catalogue is a table, not a function


def _without_vercel(catalogue):
    """The catalogue without its vercel-ai-gateway entry."""
    return tuple(e for e in catalogue if e.provider != "vercel-ai-gateway")


def _typesafe_priced(catalogue):
    """The catalogue with a price on TypeSafe's direct jev-latest."""
    price = {"input": 1.0, "output": 2.0, "cacheRead": 0.1, "cacheWrite": 1.25}
    return tuple(dataclasses.replace(e, cost=price) if e.provider == "typesafe" else e for e in catalogue)


FAULTS += [
    Fault("mdl-classifier-catalogue-table", "pi", "The vercel-ai-gateway classifier is missing from the catalogue",
          ("PI-CLASSIFIER-CATALOGUE",), (wrap(f"{CLASSIFIERS}:CATALOGUE", _without_vercel),)),
    Fault("mdl-classifier-price-input-table", "pi", "TypeSafe's direct jev-latest carries a price",
          ("PI-CLASSIFIER-PRICE-INPUT",), (wrap(f"{CLASSIFIERS}:CATALOGUE", _typesafe_priced),)),
]


# -- edition pi-1.6.0 (PI-160-*): caught by the cases of that edition, which the catch matrix runs
# under pi-1.6.0 (the first edition a case holds for)

PI_EDITIONS = "reference.pi.core.editions"

FAULTS += rewrites("pi", "pi", [
    ("PI-160-MSG-SYSTEM-NO-REPLACE", f"{PI_EDITIONS}:honours_replace",
     'return check_edition(edition) == PI_0994',
     'return check_edition(edition) in EDITIONS'),
    ("PI-160-CLASSIFIER-LUNA-KEY", f"{CLASSIFIERS}:hidden_by_login",
     'return entry.key_only and',
     'return False and'),
    ("PI-160-MODELS-SCHEMA-URL", f"{MODELS_FILE}:validate_models_json",
     'if not isinstance(data, dict):',
     'if not isinstance(data, dict) or "$schema" in data:'),
    ("PI-160-MODELS-VALUE-ESCAPES", f"{VALUES}:parse_config_value",
     'if nxt in ("$", "!"):',
     'if nxt in ("$",):'),
    ("PI-160-MODELS-PROXY", f"{MERGE}:compose_provider",
     'for m in base.models if base else []:',
     'for m in base.models if base and set(config) != {"baseUrl"} else []:'),
    ("PI-160-MODELS-SAMPLING-MERGE", f"{SAMPLING}:merge_sampling_params",
     'layers = [model.get("samplingParams"), (model.get("samplingParamsByThinkingLevel") or {}).get(level), request]',
     'layers = [model.get("samplingParams"), request, (model.get("samplingParamsByThinkingLevel") or {}).get(level)]'),
    ("PI-160-MODELS-SAMPLING-APIS", f"{SAMPLING}:sampling_applies",
     'return api in SAMPLING_APIS',
     'return True'),
    ("PI-160-MODELS-SAMPLING-OVERRIDE", f"{SAMPLING}:override_levels",
     'out[level] = {**(out.get(level) or {}), **copy.deepcopy(params)}',
     'out[level] = copy.deepcopy(params)'),
    ("PI-160-MODELS-THINKING-SUPPORTED", f"{SAMPLING}:supported_thinking_levels",
     'if level in _ONLY_WHEN_MAPPED and mapping.get(level) is None:',
     'if False:'),
    ("PI-160-MODELS-THINKING-CLAMP", f"{SAMPLING}:clamp_thinking_level",
     'return (above or below or ["off"])[0]',
     'return (below or above or ["off"])[0]'),
    ("PI-160-PKG-CHANGELOG-PATH", f"{CHANGELOG}:changelog_file",
     'rel = named if isinstance(named, str) else DEFAULT_CHANGELOG',
     'rel = DEFAULT_CHANGELOG'),
    ("PI-160-PKG-CHANGELOG-INSIDE", f"{CHANGELOG}:changelog_file",
     'return path if _inside(fs.real_path(package_root), fs.real_path(path)) else None',
     'return path'),
    ("PI-160-PKG-CHANGELOG-EXTENSIONS", f"{CHANGELOG}:changelog_update",
     'if not declared.get("extensions"):',
     'if not any(declared.values()):'),
    ("PI-160-PKG-CHANGELOG-FIRST-SEEN", f"{CHANGELOG}:changelog_update",
     'if last_seen is None:\n        return ChangelogUpdate(path, recorded=version)',
     'if last_seen is None:\n        last_seen = "0.0.0"'),
    ("PI-160-PKG-CHANGELOG-NEWER", f"{CHANGELOG}:changelog_update",
     'if v > last]',
     'if v >= last]'),
    ("PI-160-PKG-CHANGELOG-HEADINGS", f"{CHANGELOG}:changelog_versions",
     'if not line.startswith("## "):',
     'if not line.startswith("## ") or "[" in line:'),
    ("PI-160-CLASSIFIER-IMAGE-INPUT", f"{CLASSIFIER_IMAGES}:takes_images",
     'return (entry.provider, entry.id) in IMAGE_CLASSIFIERS',
     'return True'),
    ("PI-160-CLASSIFIER-IMAGE-FORMATS", f"{CLASSIFIER_IMAGES}:image_formats",
     'return JEV_TYPES, None',
     'return None, None'),
    ("PI-160-CLASSIFIER-IMAGE-UNSTATED", f"{CLASSIFIER_IMAGES}:takes_images",
     'if entry.provider in CATALOGUE_LISTED:\n        return None',
     'if entry.provider in CATALOGUE_LISTED:\n        return False'),
    ("PI-160-IMAGE-MODELS", f"{IMAGE_MODELS}:image_catalogue",
     'for model in IMAGE_MODELS_160]',
     'for model in IMAGE_MODELS_160[1:]]'),
    ("PI-160-IMAGE-MODELS-AUTH", f"{IMAGE_MODELS}:available_image_models",
     'return image_catalogue(edition) if image_source(creds, provider_configs) is not None else []',
     'return image_catalogue(edition)'),
    ("PI-160-TPL-ARGS-QUOTING", f"{TEMPLATES}:parse_command_args",
     'elif ch in "\\"\'" and not started:',
     'elif ch in "\\"\'":'),
])
FAULTS += [
    Fault("pi-160-msg-thinking-level-shape", "pi", "Any thinkingLevel is accepted", ("PI-160-MSG-THINKING-LEVEL",),
          (wrap(_VALIDATE, _accepting("assistant", r"\$\.thinkingLevel")),)),
    Fault("pi-160-msg-nested-calls-shape", "pi", "A tool result's nestedCalls is never refused", ("PI-160-MSG-NESTED-CALLS",),
          (wrap(_VALIDATE, _accepting("toolResult", r"\$\.nestedCalls(\..*)?")),)),
    Fault("pi-160-classifier-table", "pi", "The vercel-ai-gateway classifier is missing from the 1.6.0 catalogue",
          ("PI-160-CLASSIFIER-TABLE",), (wrap(f"{CLASSIFIERS}:CATALOGUE_160", _without_vercel),)),
]

"""Seeded faults for the pi rules that a second reading of the goldens found shown but not stated
(package sources, discovery, deltas, changelogs; values, credentials, the models.json schema,
classifier usage). Each rewrites one text of the function implementing its clause so that it
breaks that clause; a case citing the clause must catch it."""

from __future__ import annotations

from conformance.faults.runner import Fault, mutate, rewrites

CHANGELOG = "reference.pi.core.changelog"
CLASSIFIERS = "reference.pi.core.classifiers"
CREDENTIALS = "reference.pi.core.credentials"
MANIFEST = "reference.pi.core.manifest"
MERGE = "reference.pi.core.merge"
MODELS_FILE = "reference.pi.core.models_file"
SCOPE = "reference.pi.core.scope"
SOURCES = "reference.pi.core.sources"
VALUES = "reference.pi.core.values"

_PKG = [
    ("PI-PKG-SOURCE-HOME", f"{SOURCES}:resolve_local_path",
     'if home is not None and (p == "~" or p.startswith("~/")):',
     'if False:'),
    ("PI-PKG-SOURCE-REF-FIRST-AT", f"{SOURCES}:_split_ref",
     'at = path_with_ref.find("@")',
     'at = path_with_ref.rfind("@")'),
    ("PI-PKG-SOURCE-REPO-URL", f"{SOURCES}:parse_git_source",
     'repo = f"git@{host}:{path}"',
     'repo = f"https://{host}/{path.lstrip(\'/\')}"'),
    ("PI-PKG-SOURCE-HOST-CASE", f"{SOURCES}:parse_git_source",
     'host=host.lower(), path=path',
     'host=host, path=path'),
    ("PI-PKG-SOURCE-CASE", f"{SOURCES}:parse_source",
     'if text.startswith("npm:"):',
     'if text.lower().startswith("npm:"):'),
    ("PI-PKG-DISCOVERY-DEPTH", f"{MANIFEST}:_discover_files",
     'out.extend(_discover_files(fs, full, suffix))',
     'pass'),
    ("PI-PKG-DELTA-RECORDS", f"{SCOPE}:resolve_packages",
     'owner[t][p] = decl',
     'pass'),
]

_MDL = [
    ("PI-CRED-EMPTY-NOT-CONFIGURED", f"{CREDENTIALS}:configured_source",
     'if creds.runtime_keys.get(provider_id):',
     'if provider_id in creds.runtime_keys:'),
    ("PI-CRED-STORED-ENV", f"{CREDENTIALS}:resolve_request_auth",
     'value = resolve_config_value(parsed, env, runner)',
     'value = resolve_config_value(parsed, creds.env, runner)'),
    ("PI-CLASSIFIER-USAGE-REPORT", f"{CLASSIFIERS}:_tokens",
     'or not math.isfinite(value) or value <= 0:',
     'or not math.isfinite(value):'),
    ("PI-MODELS-SCHEMA-FIELDS", f"{MODELS_FILE}:validate_models_json",
     'if path not in seen:',
     'if path not in seen and err["type"] not in ("greater_than", "less_than_equal", "literal_error", "string_too_short"):'),
    ("PI-MODELS-VALUE-COMMAND-ENV", f"{VALUES}:run_config_command",
     'result = runner(command, env, time_limit_s)',
     'result = runner(command, {}, time_limit_s)'),
]

FAULTS = rewrites("pi", "pkg", _PKG) + rewrites("pi", "mdl", _MDL) + [
    Fault("mdl-value-forms-name-characters", "pi", "A variable name may hold a dot, so $TOKEN.v1 reads TOKEN.v1",
          ("PI-MODELS-VALUE-FORMS",), (mutate(f"{VALUES}:parse_config_value", "match = _NAME.match(value, dollar + 1)",
                                              'match = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*").match(value, dollar + 1)'),)),
    Fault("mdl-json-comments-bom", "pi", "A models.json text starting with a byte order mark is not JSON",
          ("PI-MODELS-JSON-COMMENTS",), (mutate(f"{MODELS_FILE}:parse_models_json_text", 'if text.startswith("\\ufeff"):',
                                                'if False:'),)),
    Fault("mdl-composition-empty-models-usable", "pi", "An empty models list counts as something a provider entry sets",
          ("PI-MODELS-COMPOSITION-ERROR",), (mutate(f"{MERGE}:compose_provider",
                                                    "config.get(key) is not None and config.get(key) != []",
                                                    "config.get(key) is not None"),)),
    Fault("pi-160-pkg-changelog-first-seen-without-changelog", "pi",
          "A package without a changelog seen for the first time records its version",
          ("PI-160-PKG-CHANGELOG-FIRST-SEEN",),
          (mutate(f"{CHANGELOG}:changelog_update", "        return ChangelogUpdate(path)\n    if last_seen is None:",
                  "        return ChangelogUpdate(path, recorded=version if last_seen is None and isinstance(version, str) "
                  "and version else None)\n    if last_seen is None:"),)),
    # Any leading ~ taken for the home directory (path.startsWith("~")), in each operation that
    # resolves a local source or a settings-list entry.
    *(Fault(f"pkg-home-tilde-any-prefix-in-{op.split('.')[1]}", "pi",
            "A local path starting with ~ but not ~/ (~pkgs, ~user/x) resolves from the home directory",
            ("PI-PKG-SOURCE-HOME",),
            (mutate(f"{SOURCES}:resolve_local_path",
                    'if home is not None and (p == "~" or p.startswith("~/")):\n'
                    '        p = posixpath.join(home, p[2:]) if p != "~" else home',
                    'if home is not None and p.startswith("~"):\n'
                    '        p = posixpath.join(home, p[1:].lstrip("/")) if p != "~" else home'),), (op,))
      for op in ("pi.package-source", "pi.packages-resolve")),
]

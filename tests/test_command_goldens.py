"""A golden never holds the scratch folder a ``!command`` runs in: it is made anew for each run, so
``--update-goldens`` refuses to write the answer of a case whose command shows it (``pwd``)."""

from __future__ import annotations

from conformance.cli import main

CASE = """format: 1
area: pi
title: Commands
op: pi.models-auth
cases:
  - id: mdl-user-command-{name}
    title: A models.json apiKey command
    clauses: [PI-MODELS-VALUE-COMMAND]
    normalise: [pi.drop-messages]
    input:
      builtins: {{ acme: {{ baseUrl: "https://api.acme.test/v1", api: openai-completions, env: [ACME_API_KEY], models: [{{ id: acme-large }}] }} }}
      modelsJson: {{ providers: {{ acme: {{ apiKey: "!{command}" }} }} }}
      env: {{ ACME_API_KEY: env-key }}
      provider: acme
      model: acme-large
"""


def _update(tmp_path, name, command, capsys):
    (tmp_path / "s" / "pi").mkdir(parents=True)
    (tmp_path / "g").mkdir()
    (tmp_path / "s" / "pi" / "cmd.yaml").write_text(CASE.format(name=name, command=command))
    code = main(["run", "--update-goldens", "--allow-commands", "--scenarios-dir", str(tmp_path / "s"),
                 "--golden-dir", str(tmp_path / "g")])
    return code, capsys.readouterr()


def test_a_command_that_prints_its_scratch_folder_writes_no_golden(tmp_path, capsys):
    code, out = _update(tmp_path, "pwd", "pwd", capsys)
    assert code == 2, out.out + out.err  # errored, and its golden is still missing: a suite error
    assert "golden not written: the answer shows the command's scratch folder" in out.out, out.out
    assert not list((tmp_path / "g").rglob("*.yaml"))


def test_a_command_of_a_fixed_output_writes_its_golden(tmp_path, capsys):
    code, out = _update(tmp_path, "echo", "echo cmd-key", capsys)
    assert code == 0, out.out + out.err
    assert (tmp_path / "g" / "pi" / "mdl-user-command-echo.yaml").is_file()

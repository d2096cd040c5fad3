"""Published Pi releases as adapters (``pi-node@VERSION``): installed from a registry into the
kit's cache once, run by the bundled Node adapter, and answering ``unsupported`` with the reason
for what a release lacks.

The registry is a stand-in on the loopback interface (``tests/fake_registry.py``), so no test
needs the network. Running a release needs the bundled adapter's pinned Node runtime (``npm ci``
in its folder) and npm; without them the tests that run one are skipped, except under CI.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conformance.adapters import releases
from conformance.adapters.base import AdapterNameError
from tests.fake_registry import AI, CODING_AGENT, FakeRegistry

pytestmark = pytest.mark.untraced  # the adapter is a Node process; the kit's part is measured elsewhere

RUNNABLE = releases.pinned_node() is not None and shutil.which("npm") is not None
needs_node = pytest.mark.skipif(not RUNNABLE and not os.environ.get("CI"),
                                reason="the pi-node adapter's pinned Node runtime or npm is not installed")


def test_release_names() -> None:
    assert releases.parse_release("pi-node@1.5.2") == releases.Release("pi-node", "1.5.2")
    mz = releases.parse_release("pi-node-mz@0.73.1")
    assert (mz.package, mz.folder_name) == ("@mariozechner/pi-coding-agent", "mariozechner-pi-coding-agent@0.73.1")
    for other in (None, "pi-node", "reference", "node a@b.mjs", "python:m:C"):
        assert releases.parse_release(other) is None
    for bad in ("pi-node@latest", "pi-node@^1.5.0", "pi-node@", "pi-node-mz@1.5"):
        with pytest.raises(AdapterNameError, match="exact release version"):
            releases.parse_release(bad)


def test_bundled_release_needs_no_install(cache) -> None:
    if releases._installed_version(releases.PI_NODE_DIR, "@earendil-works/pi-coding-agent") != "1.6.0":
        pytest.skip("the bundled Pi is not installed")
    assert releases.release_command(releases.Release("pi-node", "1.6.0")) == ["bash", str(releases.PI_NODE_DIR / "run.sh")]
    assert not (cache.parent / "pi-node").exists()


def test_a_bad_release_version_is_a_usage_error(cache, capsys) -> None:
    from conformance.cli import main

    assert main(["run", "--adapter", "pi-node@newest", "--case", "mdl-value-literal"]) == 2
    assert "exact release version" in capsys.readouterr().err


@pytest.fixture()
def registry(monkeypatch, tmp_path):
    """The stand-in registry holding the stand-in release 9.9.9, npm pointed at it."""
    with FakeRegistry(AI, CODING_AGENT) as served:
        monkeypatch.setenv("npm_config_registry", served.url)
        monkeypatch.setenv("npm_config_cache", str(tmp_path / "npm-cache"))
        monkeypatch.setenv("npm_config_userconfig", str(tmp_path / "npmrc"))
        monkeypatch.setenv("npm_config_prefer_online", "true")
        yield served


def _cases(report: Path) -> dict[str, dict]:
    return {c["id"]: c for c in json.loads(report.read_text(encoding="utf-8"))["cases"]}


@needs_node
def test_a_release_installs_once_and_answers_what_it_lacks_as_unsupported(cache, registry, tmp_path, capsys) -> None:
    from conformance.cli import main

    report = tmp_path / "r.json"
    argv = ["run", "--adapter", "pi-node@9.9.9", "--case", "tpl-strength-args-letter-not-quote",
            "--case", "tpl-kind-every-placeholder-in-args", "--case", "mdl-value-literal", "--case", "pkg-src-npm-plain",
            "--report-json", str(report)]
    code = main(argv)
    out = capsys.readouterr().out
    assert code in (0, 1), out
    assert "implementation: pi 9.9.9" in out
    cases = _cases(report)
    # The release has parseCommandArgs: the case is judged (by the stand-in's own rule).
    assert cases["tpl-strength-args-letter-not-quote"]["status"] in ("passed", "failed")
    substitute = cases["tpl-kind-every-placeholder-in-args"]
    assert substitute["status"] == "unsupported"
    assert "Pi 9.9.9 has no export substituteArgs in internal module core/prompt-templates.js" in substitute["message"]
    value = cases["mdl-value-literal"]
    assert value["status"] == "unsupported"
    assert "Pi 9.9.9 has no internal module core/resolve-config-value.js" in value["message"]
    source = cases["pkg-src-npm-plain"]  # the class is there, its method is not
    assert (source["status"], source["message"]) == ("unsupported", "Pi 9.9.9 has no DefaultPackageManager.parseSource")
    installed = cache.parent / "pi-node" / "earendil-works-pi-coding-agent@9.9.9"
    assert (installed / "node_modules" / "@earendil-works" / "pi-ai" / "package.json").is_file()

    served = registry.requests
    assert served > 0
    assert main(argv) in (0, 1)
    assert registry.requests == served  # the second run used the cached install
    assert _cases(report)["mdl-value-literal"]["status"] == "unsupported"


@needs_node
def test_a_release_npm_cannot_install_exits_3_saying_what_npm_said(cache, registry, capsys) -> None:
    from conformance.cli import main

    assert main(["run", "--adapter", "pi-node@9.9.8", "--case", "mdl-value-literal"]) == 3
    err = capsys.readouterr().err
    assert "npm could not install @earendil-works/pi-coding-agent@9.9.8" in err
    assert "npm error" in err and "9.9.8" in err.split("npm could not install", 1)[1].split("\n", 1)[1]
    root = cache.parent / "pi-node"
    assert [p.name for p in root.iterdir() if not p.name.endswith(".lock")] == []  # nothing half installed


@needs_node
def test_the_earlier_line_installs_under_its_own_scope(cache, registry) -> None:
    registry.add({**CODING_AGENT, "package.json": {**CODING_AGENT["package.json"], "name": "@mariozechner/pi-coding-agent",
                                                    "dependencies": {"@mariozechner/pi-ai": "9.9.9"}}})
    registry.add({**AI, "package.json": {**AI["package.json"], "name": "@mariozechner/pi-ai"}})
    command = releases.release_command(releases.Release("pi-node-mz", "9.9.9"))
    assert command[-4:] == ["--release", str(cache.parent / "pi-node" / "mariozechner-pi-coding-agent@9.9.9"),
                            "--scope", "@mariozechner"]
    from conformance.adapters.connect import make_adapter

    adapter = make_adapter("pi-node-mz@9.9.9")
    try:
        hello = adapter.start()
        assert (hello.name, hello.version) == ("pi", "9.9.9")
        answer = adapter.run("pi.models-value", {"value": "x", "env": {}}, root=None)
        assert answer.kind == "unsupported" and "core/resolve-config-value.js" in answer.message
        answer = adapter.run("pi.classifier-catalogue", {}, root=None)
        assert answer.kind == "unsupported" and "@mariozechner/pi-ai/providers/all" in answer.message
    finally:
        adapter.stop()


@needs_node
def test_parallel_installs_of_one_release_install_it_once(cache, registry) -> None:
    from concurrent.futures import ThreadPoolExecutor

    release = releases.Release("pi-node", "9.9.9")
    with ThreadPoolExecutor(max_workers=3) as pool:
        folders = list(pool.map(lambda _: releases.install(release), range(3)))
    assert len(set(folders)) == 1 and (folders[0] / "node_modules" / release.package / "package.json").is_file()
    tarballs = registry.tarball_requests
    assert tarballs == 2  # the release and its pi-ai, fetched by one npm install only
    root = cache.parent / "pi-node"
    assert sorted(p.name for p in root.iterdir() if not p.name.endswith(".lock")) == [release.folder_name]


def test_with_the_cache_off_releases_go_to_a_temporary_folder(monkeypatch) -> None:
    monkeypatch.setenv("PI_CONFORMANCE_CACHE", "off")
    monkeypatch.setattr(releases, "_temporary_root", None)
    root = releases.releases_root()
    assert root.is_dir() and root.name.startswith("pi-conformance-releases-")
    assert releases.releases_root() == root


def test_an_install_says_on_standard_error_that_it_reaches_the_network_and_a_reuse_says_nothing(
        cache, monkeypatch, capsys) -> None:
    """One line before npm runs (docs/history.md: the first use of a release fetches it); none
    when the release is already installed. npm is a stand-in that fails, so no Node is needed."""
    import sys

    from conformance.adapters.base import AdapterStartError

    monkeypatch.setattr(releases, "npm_command", lambda: [
        sys.executable, "-c", "import sys; print('npm error offline', file=sys.stderr); sys.exit(1)"])
    release = releases.Release("pi-node", "9.9.7")
    with pytest.raises(AdapterStartError):
        releases.install(release)
    err = capsys.readouterr().err
    assert err.startswith("pi-conformance: pi-node@9.9.7 is not installed: fetching "
                          "@earendil-works/pi-coding-agent@9.9.7 from the npm registry (network) into "), err
    assert err.count("\n") == 1
    folder = releases.releases_root() / release.folder_name
    folder.mkdir(parents=True)
    (folder / releases._MARKER).write_text("installed\n", encoding="utf-8")
    assert releases.install(release) == folder
    assert capsys.readouterr().err == ""

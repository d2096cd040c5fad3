"""The Python processes the kit starts of its own code (``serve-reference``, ``faults --via
serve``) import the kit's packages whatever the current folder holds: a user's folder with a
module or package named ``reference`` or ``conformance`` is not imported in their place."""

from __future__ import annotations

import pytest

from conformance.adapters.connect import KIT_ROOT, kit_module_command, make_adapter
from conformance.faults.runner import fault_adapter, load_faults


@pytest.fixture
def crowded_folder(tmp_path, monkeypatch):
    """A current folder holding a package ``reference`` and a module ``conformance`` of a user's."""
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "__init__.py").write_text('raise SystemExit("the user\'s reference")\n')
    (tmp_path / "conformance.py").write_text('raise SystemExit("the user\'s conformance")\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("start", [
    lambda: make_adapter("serve-reference"),
    lambda: fault_adapter(next(f for f in load_faults() if f.id == "tpl-args-empty-dropped"), via="serve"),
], ids=["serve-reference", "faults-serve"])
def test_a_kit_child_imports_the_kits_packages_whatever_the_current_folder_holds(crowded_folder, start):
    adapter = start()
    try:
        hello = adapter.start()
        answer = adapter.run("kit.echo", {"value": "x"}, root=None, timeout=30)
    finally:
        adapter.stop()
    assert "pi.parse-args" in hello.operations
    assert answer.kind == "result" and answer.output == {"value": "x"}


def test_the_current_folder_is_kept_only_when_it_holds_the_kits_packages(crowded_folder, monkeypatch):
    assert kit_module_command("conformance.adapters.server")[1:] == ["-P", "-m", "conformance.adapters.server"]
    monkeypatch.chdir(KIT_ROOT)
    assert kit_module_command("conformance.faults.runner", "serve", "x")[1:] == ["-m", "conformance.faults.runner", "serve", "x"]

"""Build hook: the wheel carries the goldens.

``golden/`` stays at the top of the repository (goldens are specification, read beside the
scenarios); a built wheel carries a copy as ``conformance/_golden/`` so that an installed kit runs
without a checkout. Everything else is declared in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithGoldens(build_py):
    """``build_py`` that also copies ``golden/`` into the built package as ``conformance/_golden``."""

    def run(self) -> None:
        super().run()
        source = HERE / "golden"
        if not source.is_dir():
            raise SystemExit(f"cannot build: no goldens at {source}")
        target = Path(self.build_lib) / "conformance" / "_golden"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target)


setup(cmdclass={"build_py": BuildWithGoldens})

"""The package as a user gets it: ``python -m build`` makes an sdist and a wheel from
it, the wheel's metadata is complete, and the wheel installed into a fresh virtual
environment imports and compiles an example.  The test extras install ``build`` and
a setuptools new enough for the SPDX license fields, so nothing here is skipped.
"""

from __future__ import annotations

import email.parser
import os
import re
import subprocess
import sys
import tarfile
import time
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_readme_links_work_on_a_package_index():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]+)\)", text)
    relative = [t for t in targets if not re.match(r"https?://|#", t)]
    assert not relative, f"README.md links that break off the source tree: {relative}"


def test_the_license_file_is_the_declared_license():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "Apache-2.0"' in pyproject and 'license-files = ["LICENSE"]' in pyproject
    assert 'requires = ["setuptools>=77"]' in pyproject  # the first to read both fields


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """``python -m build`` (sdist, then the wheel built from the sdist)."""
    out = tmp_path_factory.mktemp("dist")
    started = time.perf_counter()
    # --no-isolation: the test extras provide build and setuptools>=77, so the build
    # needs no network; the wheel is built from the unpacked sdist either way.
    proc = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir",
                           str(out), str(REPO)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    print(f"python -m build: {time.perf_counter() - started:.1f} s")
    (sdist,) = out.glob("pypto-*.tar.gz")
    (wheel,) = out.glob("pypto-*.whl")
    print(f"wheel {wheel.stat().st_size / 1024:.0f} KiB, sdist {sdist.stat().st_size / 1024:.0f} KiB")
    return sdist, wheel


@pytest.mark.slow
def test_the_sdist_holds_tests_docs_and_examples(dist):
    sdist, _ = dist
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "README.md", "pyproject.toml", "MANIFEST.in", "pypto/py.typed",
            "tests/conftest.py", "tests/packaging/test_package.py",
            "tests/notebook/tour_runner.py", "docs/design.md", "docs/guide/notebooks.md",
            "examples/decoder.py", "examples/tour.ipynb", "benchmarks/bench_compiler.py",
            ".ci/run"} <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


@pytest.mark.slow
def test_the_wheel_carries_the_package_and_its_metadata(dist):
    _, wheel = dist
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (info,) = {n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info")}
        metadata = email.parser.Parser().parsestr(archive.read(f"{info}/METADATA").decode())
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
    assert {"pypto/__init__.py", "pypto/py.typed", "pypto/viz/svg.py", "pypto/ir/highlight.py",
            f"{info}/licenses/LICENSE"} <= names
    assert not [n for n in names if n.startswith(("tests/", "docs/", "examples/"))]
    assert metadata["Name"] == "pypto" and metadata["Requires-Python"] == ">=3.10"
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert metadata["Author"] == "The pypto maintainers"
    classifiers = metadata.get_all("Classifier")
    assert "Programming Language :: Python :: 3.10" in classifiers
    assert "Typing :: Typed" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # the SPDX field rules
    assert set(metadata.get_all("Provides-Extra")) == {"numpy", "torch", "notebook", "test"}
    requires = metadata.get_all("Requires-Dist")
    assert not [r for r in requires if "extra ==" not in r]  # nothing at run time
    assert any(r.startswith("pygments") and 'extra == "notebook"' in r for r in requires)
    assert any(r.startswith("ipython") and 'extra == "notebook"' in r for r in requires)
    assert not [r for r in requires if r.startswith("torch") and 'extra == "test"' in r]
    assert any(r.startswith("build") and 'extra == "test"' in r for r in requires)
    assert "pypto = pypto.cli:main" in entry_points
    assert "pypto = pypto.ir.highlight:PyptoLexer" in entry_points
    assert metadata.get_payload().startswith("# pypto\n")  # the README is the description


@pytest.mark.slow
def test_the_wheel_installs_into_a_clean_venv_and_compiles(dist, tmp_path):
    sdist, wheel = dist
    started = time.perf_counter()
    env_dir = tmp_path / "clean"
    venv.create(env_dir, with_pip=True, symlinks=os.name != "nt")
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-index",
                              "--no-deps", str(wheel)], capture_output=True, text=True,
                             timeout=300)
    assert install.returncode == 0, install.stderr
    with tarfile.open(sdist) as archive:  # the sdist's own examples, outside the repo
        if hasattr(tarfile, "data_filter"):  # 3.12+, and backported to 3.10.12 / 3.11.4
            archive.extractall(tmp_path / "src", filter="data")
        else:
            archive.extractall(tmp_path / "src")
    (source,) = (tmp_path / "src").iterdir()
    clean_env = {k: v for k, v in os.environ.items()
                 if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    clean_env["NO_COLOR"] = "1"

    def run(*argv: str) -> str:
        proc = subprocess.run(list(argv), capture_output=True, text=True, cwd=tmp_path,
                              env=clean_env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    where = run(str(python), "-c", "import pypto, pypto.language as pl; print(pypto.__file__)")
    assert Path(where.strip()).is_relative_to(env_dir)
    compiled = run(str(bindir / "pypto"), "compile", str(source / "examples" / "graph_layers.py"))
    assert compiled.startswith("# pypto.program: GraphLayers\n")
    assert "def accumulate_band(" in compiled
    svg = run(str(bindir / "pypto"), "graph", str(source / "examples" / "decoder.py"))
    assert svg.startswith("<svg ") and "decoder_layer" in svg
    print(f"clean venv, install, import, compile: {time.perf_counter() - started:.1f} s")

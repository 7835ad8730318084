"""Run ``examples/tour.ipynb`` in a real kernel, and the normal form its outputs are
compared in.

``python tests/notebook/tour_runner.py`` re-executes the tour and writes it back with
its outputs (do that after changing the notebook or what it displays, and commit the
result): the test compares a fresh run with the committed outputs.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import nbclient
import nbformat

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "examples" / "tour.ipynb"
KERNEL = "pypto-tour-test"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# Where a cell's code lives differs per kernel process (ipykernel's temp files).
_CELL_FILE = re.compile(r"(-->\s+)(?:[^\s:]+\.py|Cell In\[\d+\], line \d+)")
_VOLATILE_METADATA = ("execution",)


def execute(path: Path = TOUR) -> Any:
    """The notebook at ``path`` after a full run in a kernel running *this* interpreter.

    A private kernelspec found through ``JUPYTER_PATH`` (searched first) keeps a
    user-level ``python3`` kernelspec for some other interpreter out of the run.
    """
    notebook = nbformat.read(path, as_version=4)
    saved = {key: os.environ.get(key) for key in ("JUPYTER_PATH", "NO_COLOR", "PTO_BACKTRACE")}
    with tempfile.TemporaryDirectory() as root:
        spec_dir = Path(root) / "kernels" / KERNEL
        spec_dir.mkdir(parents=True)
        (spec_dir / "kernel.json").write_text(json.dumps({
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "pypto test", "language": "python"}), encoding="utf-8")
        os.environ["JUPYTER_PATH"] = root
        os.environ["NO_COLOR"] = "1"
        os.environ.pop("PTO_BACKTRACE", None)
        try:
            client = nbclient.NotebookClient(notebook, timeout=300, kernel_name=KERNEL,
                                             resources={"metadata": {"path": str(path.parent)}})
            client.execute()
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    return notebook


def normal_outputs(cell: Any) -> list[dict]:
    """A code cell's outputs without what differs between two runs of the same code."""
    shown = []
    for output in cell.get("outputs", []):
        item = {"output_type": output["output_type"]}
        if "data" in output:
            item["data"] = {mime: _normal_text(value) for mime, value in output["data"].items()}
        if "text" in output:
            item["text"] = _normal_text(output["text"])
        if output["output_type"] == "error":
            item["ename"] = output["ename"]
            item["traceback"] = [_normal_text(line) for line in output["traceback"]]
        shown.append(item)
    return shown


def _normal_text(value: Any) -> Any:
    text = "".join(value) if isinstance(value, list) else value
    if not isinstance(text, str):
        return text
    return _CELL_FILE.sub(r"\1<cell>", _ANSI.sub("", text))


def refresh(path: Path = TOUR) -> None:
    """Execute the notebook and store it with its outputs (stable metadata only)."""
    notebook = execute(path)
    notebook.metadata.pop("widgets", None)
    notebook.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                       "name": "python3"}
    notebook.nbformat, notebook.nbformat_minor = 4, 5
    for number, cell in enumerate(notebook.cells, 1):
        cell["id"] = f"tour-{number}"  # stable ids: a re-run changes only what it shows
        for key in _VOLATILE_METADATA:
            cell.metadata.pop(key, None)
    nbformat.validate(notebook)
    nbformat.write(notebook, path)


if __name__ == "__main__":
    refresh()
    print(f"wrote {TOUR.relative_to(REPO)} with its outputs")

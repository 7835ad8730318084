"""Find the per-pass dumps ``PassManager.run_passes(..., dump_ir=True)`` (and
``RunConfig(dump_passes=True)``) write: ``00_frontend.py``, ``01_after_<Pass>.py``, ...,
each with an optional ``.log`` of the verifier's warnings."""

from __future__ import annotations

import re
from pathlib import Path

from .model import IRTraceError, Snapshot, split_source_lines

__all__ = ["discover_snapshots"]

_DUMP_NAME = re.compile(r"^(\d+)_(?:after_)?(\w+)\.py$")


def discover_snapshots(directory: "str | Path") -> list[Snapshot]:
    """The dumps in ``directory``, in pass order."""
    root = Path(directory)
    if not root.is_dir():
        raise IRTraceError(f"{root} is not a directory of IR dumps")
    snapshots = []
    for path in root.iterdir():
        match = _DUMP_NAME.match(path.name)
        if match is None or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise IRTraceError(f"cannot read {path}: {exc}") from None
        log = path.with_suffix(".log")
        warning = log.read_text(encoding="utf-8") if log.is_file() else None
        snapshots.append(Snapshot(int(match.group(1)), match.group(2), path, text,
                                  split_source_lines(text), warning))
    if not snapshots:
        raise IRTraceError(f"{root} holds no IR dumps (NN_frontend.py, NN_after_<Pass>.py)")
    snapshots.sort(key=lambda s: s.index)
    indices = [s.index for s in snapshots]
    if len(set(indices)) != len(indices):
        raise IRTraceError(f"{root} holds two dumps with the same number")
    return snapshots

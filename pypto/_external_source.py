"""External kernel sources: the files a kernel's build reads, and a digest of them
(``pypto._external_source``).

pypto compiles no external kernel (``@pl.jit`` refuses ``external_*`` options: they
need code generation), but what the helpers compute is plain file work with a CPU
meaning: which files an external source pulls in through ``#include``, one string
holding a list of include directories (the ``external_include_dirs`` function
attribute), and a content digest that changes exactly when one of those files, the
include directories or the caller's metadata change (a build cache key).  Imports
nothing of pypto.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Iterable, Sequence

__all__ = ["EXTERNAL_INCLUDE_DIRS_ATTR", "collect_external_source_files",
           "decode_external_include_dirs", "encode_external_include_dirs",
           "external_source_digest"]

EXTERNAL_INCLUDE_DIRS_ATTR = "external_include_dirs"

_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)


def encode_external_include_dirs(include_dirs: Iterable[str | Path]) -> str:
    """``include_dirs`` as one attribute string: a JSON list of absolute paths, in the
    given order, each once."""
    if isinstance(include_dirs, (str, Path)):
        raise TypeError("encode_external_include_dirs expects a list of directories, got "
                        f"one {type(include_dirs).__name__}")
    seen: list[str] = []
    for entry in include_dirs:
        if not isinstance(entry, (str, Path)) or not str(entry):
            raise TypeError(f"an include directory must be a non-empty path, got {entry!r}")
        path = str(Path(entry).expanduser().resolve())
        if path not in seen:
            seen.append(path)
    return json.dumps(seen)


def decode_external_include_dirs(value: object) -> tuple[str, ...]:
    """The directories ``encode_external_include_dirs`` wrote (``None`` or ``""``: none;
    a list of paths is taken as it is)."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise ValueError(f"not an encoded include-directory list: {value!r}") from None
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"not an include-directory list: {value!r}")
    return tuple(value)


def collect_external_source_files(sources: Sequence[str | Path], *,
                                  include_dirs: Iterable[str | Path] = ()) -> list[Path]:
    """``sources`` and every file they ``#include`` (transitively) that exists next to
    the including file or in one of ``include_dirs``; each once, sources first.  A
    missing source is a ``FileNotFoundError``; an include found nowhere is left out
    (a system header)."""
    dirs = [Path(d).expanduser().resolve() for d in include_dirs]
    found: list[Path] = []
    pending = []
    for source in sources:
        path = Path(source).expanduser().resolve()
        if not path.is_file():
            raise FileNotFoundError(f"external source {str(source)!r} does not exist")
        pending.append(path)
    while pending:
        path = pending.pop(0)
        if path in found:
            continue
        found.append(path)
        text = path.read_text(encoding="utf-8", errors="replace")
        for name in _INCLUDE.findall(text):
            for base in [path.parent, *dirs]:
                candidate = (base / name).resolve()
                if candidate.is_file():
                    pending.append(candidate)
                    break
    return found


def external_source_digest(sources: Sequence[str | Path], *, metadata: Iterable[str] = (),
                           include_dirs: Iterable[str | Path] = ()) -> str:
    """A SHA-256 hex digest of the contents of ``sources`` and the files they include,
    the include directories and ``metadata``: equal inputs give equal digests, a change
    to any of them gives another."""
    dirs = list(include_dirs)
    digest = hashlib.sha256()
    for part in metadata:
        digest.update(b"meta\0" + str(part).encode() + b"\0")
    digest.update(b"dirs\0" + encode_external_include_dirs(dirs).encode() + b"\0")
    for path in collect_external_source_files(sources, include_dirs=dirs):
        digest.update(b"file\0" + path.name.encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()

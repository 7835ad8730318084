"""``pypto.jit.cache``: PyPTO's compile-cache key and on-disk cache, and the in-memory
cache of each ``JITFunction`` (01-language.md §17.6).

``make_cache_key`` is PyPTO's key: it changes with the sources, the parameter names,
a static dim, a dtype, a layout, a scalar's value (and, in pypto, its type: ``1`` and
``1.0`` specialise differently), the platform and the compile options; it does not
change with the size a *dynamic* dim has in a call, nor with tensor data.
``l2_store`` / ``l2_lookup`` keep an output directory per key on disk
(``$PYPTO_JIT_CACHE_DIR``, default ``~/.cache/pypto/jit``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple, Optional, Sequence

from ..ir.dtype import DataType
from ..passes.context import RuntimeKind
from .._lazy import optional_reexports

if TYPE_CHECKING:
    from .compiled import CompiledProgram

__all__ = ["TensorCacheInfo", "ScalarCacheInfo", "compute_source_hash", "make_cache_key",
           "l2_lookup", "l2_store", "CacheInfo", "CompileCache"]

# PyPTO's cache module also shows these pass-configuration names (from pypto.passes).
__getattr__, __dir__ = optional_reexports(globals(), {"MemoryPlanner": "pypto.passes",
                                                      "runtime_kind_to_name": "pypto.passes"})

CacheKey = tuple


@dataclasses.dataclass(frozen=True)
class TensorCacheInfo:
    """A tensor parameter in the key: its shape (``None`` for a dynamic dim), dtype, layout."""

    name: str
    shape: tuple
    dtype: Any
    layout: Any = None


@dataclasses.dataclass(frozen=True)
class ScalarCacheInfo:
    """A scalar parameter in the key, with the value it was specialised for."""

    name: str
    value: Any


def compute_source_hash(sources: Iterable[str]) -> str:
    """SHA-256 of the sources (the entry's and its dependencies'), in order."""
    digest = hashlib.sha256()
    for source in sources:
        data = source.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big"))  # no two source lists hash alike
        digest.update(data)
    return digest.hexdigest()


def make_cache_key(source_hash: str, param_names: Sequence[str],
                   tensor_shapes: Mapping[str, Sequence[Any]],
                   tensor_dtypes: Mapping[str, Any], dynamic_dims: Any,
                   scalar_values: Mapping[str, Any], platform: Any = None, strategy: Any = None,
                   distributed_config: Any = None, analyze_auto_scopes_for_deps: bool = False,
                   dump_ptoas_passes: bool = False, memory_planner: Any = None,
                   enable_pypto_l0c_double_buffer: bool = False,
                   tensor_layouts: Optional[Mapping[str, Any]] = None,
                   dep_layouts: Sequence[Any] = (),
                   runtime: Any = RuntimeKind.TENSORMAP_AND_RINGBUFFER) -> CacheKey:
    """The key of one specialization.

    ``tensor_shapes`` / ``tensor_dtypes`` / ``tensor_layouts`` map tensor parameters to
    their shape, dtype and layout; ``dynamic_dims`` names the dynamic axes, as a mapping
    ``param -> axes`` or pairs ``(param, axis)`` (a dim given as ``None`` or a
    ``DynDim`` is dynamic too); ``scalar_values`` maps scalar parameters to values.
    """
    dynamic = _dynamic_axes(dynamic_dims)
    layouts = tensor_layouts or {}
    tensors = []
    for name in param_names:
        if name in tensor_shapes:
            shape = tuple(None if axis in dynamic.get(name, ()) or not isinstance(dim, int)
                          else dim for axis, dim in enumerate(tensor_shapes[name]))
            tensors.append(TensorCacheInfo(name, shape, _plain(tensor_dtypes.get(name)),
                                           _plain(layouts.get(name))))
    scalars = tuple(ScalarCacheInfo(name, scalar_values[name]) for name in param_names
                    if name in scalar_values)
    scalar_types = tuple(type(s.value).__name__ for s in scalars)
    return (source_hash, tuple(param_names), tuple(tensors), scalars, scalar_types,
            _plain(platform), _plain(strategy), repr(distributed_config),
            bool(analyze_auto_scopes_for_deps), bool(dump_ptoas_passes), _plain(memory_planner),
            bool(enable_pypto_l0c_double_buffer), tuple(_plain(l) for l in dep_layouts),
            _plain(runtime))


def _dynamic_axes(dynamic_dims: Any) -> dict[str, set[int]]:
    if not dynamic_dims:
        return {}
    if isinstance(dynamic_dims, Mapping):
        return {name: {int(a) for a in axes} for name, axes in dynamic_dims.items()}
    found: dict[str, set[int]] = {}
    for name, axis in dynamic_dims:
        found.setdefault(name, set()).add(int(axis))
    return found


def _plain(value: Any) -> Any:
    """Enum members and dtypes by name, so keys read (and compare) as plain data."""
    if isinstance(value, DataType):
        return value.name
    name = getattr(value, "name", None)
    if name is not None and hasattr(type(value), "__members__"):
        return f"{type(value).__name__}.{name}"
    return value


# -- the on-disk ("L2") cache ------------------------------------------------------------------

def _l2_root() -> Path:
    configured = os.environ.get("PYPTO_JIT_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pypto" / "jit"


def _l2_path(key: CacheKey) -> Path:
    return _l2_root() / hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:32]


def l2_lookup(key: CacheKey) -> Optional[Path]:
    """The directory stored for ``key``, or None."""
    path = _l2_path(key)
    return path if path.is_dir() else None


def l2_store(key: CacheKey, output_dir: "str | os.PathLike[str]") -> Path:
    """Copy ``output_dir`` into the cache under ``key`` (the first copy stored stays);
    returns the stored directory."""
    target = _l2_path(key)
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=target.parent))
    try:
        shutil.copytree(output_dir, staging / "out")
        try:
            os.replace(staging / "out", target)  # atomic: readers never see half a copy
        except OSError:
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


# -- the in-memory cache of one JITFunction ------------------------------------------------

class CacheInfo(NamedTuple):
    hits: int
    misses: int
    size: int


class CompileCache:
    """Key -> ``CompiledProgram``; the first program stored under a key is kept."""

    def __init__(self) -> None:
        self._entries: dict[str, "CompiledProgram"] = {}
        self._hits = 0
        self._misses = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> Optional["CompiledProgram"]:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self._misses += 1
            else:
                self._hits += 1
            return found

    def put(self, key: str, compiled: "CompiledProgram") -> "CompiledProgram":
        with self._lock:
            return self._entries.setdefault(key, compiled)

    def info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._entries))

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._hits = self._misses = 0

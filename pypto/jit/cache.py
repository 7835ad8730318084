"""The per-``JITFunction`` compile cache and its key (01-language.md §17.6).

The key is a SHA-256 over a canonical JSON description of everything the compiled
program depends on: the pypto version, the pass configuration, for the entry and
every dependency its kind/options, a hash of its source and the values of the
namespace names it uses, the entry's parameter names and per-parameter specs (shape
with ``None`` for dynamic dims, dtype, layout, scalar value).  No salted ``hash()``
and no object ids, so keys agree across processes.
"""

from __future__ import annotations

import hashlib
import json
import threading
import types
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Sequence

from .deps import Namespace
from .literals import literal_key
from .signature import ParamPlan

if TYPE_CHECKING:
    from .analysis import FunctionFacts
    from .compiled import CompiledProgram, PassConfig
    from .decorator import JITFunction

__all__ = ["CacheInfo", "CompileCache", "specialization_key"]

_KEY_FORMAT = "pypto-jit-key/1"


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


def specialization_key(closure: Sequence[tuple["JITFunction", "FunctionFacts",
                                               dict[str, "JITFunction"]]],
                       plans: Sequence[ParamPlan], config: "PassConfig") -> str:
    from .. import __version__
    index = {id(jit): position for position, (jit, _, _) in enumerate(closure)}
    functions = [_function_material(position, jit, facts, index)
                 for position, (jit, facts, _) in enumerate(closure)]
    material = [_KEY_FORMAT, __version__, config.strategy, config.verification_level,
                functions, [plan.name for plan in plans], [plan.key for plan in plans]]
    text = json.dumps(material, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _function_material(position: int, jit: "JITFunction", facts: "FunctionFacts",
                       index: dict[int, int]) -> list:
    options = sorted((key, getattr(value, "name", value)) for key, value in jit.options.items())
    names = [[name, _value_material(jit.namespace, name, index)] for name in facts.free_names]
    chains = [[".".join(chain), _chain_material(jit.namespace, chain)]
              for chain in facts.attribute_chains]
    return [position, jit.__name__, jit.kind.value, options, facts.source_hash, names, chains]


def _value_material(namespace: Namespace, name: str, index: dict[int, int]) -> Any:
    from .decorator import JITFunction
    try:
        value = namespace.lookup(name)
    except KeyError:
        return ["unbound"]
    if isinstance(value, JITFunction):
        position = index.get(id(value))
        return ["jit", position] if position is not None else ["jit-not-called", value.kind.value]
    if isinstance(value, types.ModuleType):
        return ["module", value.__name__]
    described = literal_key(value)
    # Anything else is rejected by the specializer; its type is enough to tell apart.
    return described if described is not None else ["other", type(value).__qualname__]


def _chain_material(namespace: Namespace, chain: tuple[str, ...]) -> Any:
    """``cfg.rows`` / ``math.inf``: the value the specializer inlines for the chain."""
    try:
        value = namespace.lookup(chain[0])
        for attr in chain[1:]:
            if isinstance(value, types.ModuleType) and value.__name__ == "pypto.language":
                return ["pl"]
            value = getattr(value, attr)
    except (KeyError, AttributeError):
        return ["unbound"]
    described = literal_key(value)
    return described if described is not None else ["other", type(value).__qualname__]

"""The compile cache key of a ``JITFunction`` (01-language.md §17.6).

PyPTO's key (``cache.make_cache_key``: sources, parameter names, tensor shapes with
dynamic dims as ``None``, dtypes, layouts, scalar values and types, the pass strategy)
plus what pypto also depends on: the pypto version and verification level, each
function's kind and options, and the values of the namespace names its body uses (a
changed global constant gives a new program; PyPTO would reuse the stale one).  The
whole is a SHA-256 over canonical JSON: no salted ``hash()``, no object ids, so keys
agree across processes.
"""

from __future__ import annotations

import hashlib
import json
import types
from typing import TYPE_CHECKING, Any, Sequence

from .cache import compute_source_hash, make_cache_key
from .deps import Namespace
from .literals import literal_key
from .param_types import ScalarInfo, TensorInfo
from .signature import NOT_SUBSTITUTED, ParamPlan

if TYPE_CHECKING:
    from .analysis import FunctionFacts
    from .compiled import PassConfig
    from .decorator import JITFunction

__all__ = ["specialization_key"]

_KEY_FORMAT = "pypto-jit-key/2"


def specialization_key(closure: Sequence[tuple["JITFunction", "FunctionFacts",
                                               dict[str, "JITFunction"]]],
                       plans: Sequence[ParamPlan], config: "PassConfig") -> str:
    from .. import __version__
    index = {id(jit): position for position, (jit, _, _) in enumerate(closure)}
    functions = [_function_material(position, jit, facts, index)
                 for position, (jit, facts, _) in enumerate(closure)]
    pypto_key = _pypto_key([facts.info.source for _, facts, _ in closure], plans,
                           config.strategy)
    material = [_KEY_FORMAT, __version__, config.verification_level, functions,
                [plan.key for plan in plans], repr(pypto_key)]
    text = json.dumps(material, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _pypto_key(sources: list[str], plans: Sequence[ParamPlan], strategy: str) -> tuple:
    """PyPTO's part of the key, from the plans of one specialization."""
    shapes: dict[str, list[Any]] = {}
    dtypes: dict[str, Any] = {}
    layouts: dict[str, Any] = {}
    dynamic: dict[str, list[int]] = {}
    scalars: dict[str, Any] = {}
    for plan in plans:
        info = plan.type
        if isinstance(info, TensorInfo):
            shapes[plan.name] = [d if isinstance(d, int) else None for d in info.dims]
            dtypes[plan.name] = info.dtype
            layouts[plan.name] = info.layout
            dynamic[plan.name] = [i for i, d in enumerate(info.dims) if not isinstance(d, int)]
        elif plan.value is not NOT_SUBSTITUTED:
            scalars[plan.name] = plan.value
        elif isinstance(info, ScalarInfo):
            scalars[plan.name] = None  # a runtime scalar: its value is not part of the program
    return make_cache_key(compute_source_hash(sources), [plan.name for plan in plans], shapes,
                          dtypes, dynamic, scalars, strategy=strategy, tensor_layouts=layouts)


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

"""Write the type stubs (``.pyi``) of the op wrapper modules from the registry entries.

The wrappers of ``pl.tensor``/``pl.tile``/``pl.system``/``pl.array``/``pl.prefetch`` are
generated when the module is imported (``_namespace.fill_namespace``), so a type checker
reading the ``.py`` sees none of them.  The stubs give every wrapper its signature with
types read off the entry: an operand's ``ArgKind`` (``Tensor``, ``Tile``, a scalar ...),
an attribute's ``ValueKind`` (``bool``, ``DataType``, an enum ...), and the result by the
op's type rule (``_RESULT_OF_RULE``; otherwise the namespace's own kind).  The unified
``pl.*`` functions are typed from the two wrappers they route to: a parameter that is a
``Tensor`` on one path and a ``Tile`` on the other is a ``TypeVar`` over both.

    python -m pypto.language.op.stubgen          # rewrite the committed stubs
    python -m pypto.language.op.stubgen --check  # exit 1 when they differ from the registry

``tests/typing/test_stubs.py`` fails when the committed stubs drift from the registry.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ...ir import enums as _enums
from ...ir.ops.registry import OpDef, ops_in
from ...ir.ops.signature import REQUIRED, SigParam, wrapper_params
from ...ir.ops.wrappers import wrapper_name
from ...ir.op.stubgen import run_stub_command

__all__ = ["NAMESPACES", "stub_text", "package_stub_text", "write_stubs", "stale_stubs"]

NAMESPACES = ("tensor", "tile", "system", "array", "prefetch")
_HERE = Path(__file__).resolve().parent
_SCALAR = "_ScalarLike"
_SHAPED_VAR = "_ShapedT"

# Type rules whose result is not the namespace's own kind.
_RESULT_OF_RULE = {
    "read": "Scalar", "dim": "Scalar", "index_scalar": "Scalar", "address": "Scalar",
    "count": "Scalar", "task_id": "Scalar", "bool_scalar": "Scalar", "alloc": "Scalar",
    "no_value": "None", "store": "Tensor", "mscatter": "Tensor",
}
_NAMESPACE_RESULT = {"tensor": "Tensor", "tile": "Tile"}
_KIND_TYPE = {"Tensor": "Tensor", "Tile": "Tile", "Shaped": "Tensor | Tile", "Scalar": _SCALAR,
              "IndexTuple": f"Sequence[{_SCALAR}]", "TensorTuple": "Sequence[Tensor]",
              "Array": "Array", "Value": "Any"}
_VALUE_TYPE = {"bool": "bool", "int": "int", "float": "float", "str": "str",
               "DataType": "DataType", "list of int": "Sequence[int]", "an IR type": "Type"}


@dataclass(frozen=True)
class _Param:
    name: str
    annotation: str
    default: bool        # has a default (written ``= ...``)
    keyword_only: bool
    star: str = ""       # "*" / "**" for variadic parameters


@dataclass(frozen=True)
class _Signature:
    params: tuple[_Param, ...]
    result: str
    scalar_rhs: bool = False  # a scalar second operand picks the op's scalar form


def _optional(annotation: str, default: Any) -> str:
    if default is None and annotation not in ("Any", "None") and "None" not in annotation:
        return f"{annotation} | None"
    return annotation


def _param_type(op: OpDef, param: SigParam, enums: set[str]) -> str:
    if param.target == "span":
        return "Span | None"
    if param.target == "call_attr":
        return "Any"
    if param.target == "operand":
        spec = op.params[param.slot]
        annotation = _KIND_TYPE.get(spec.kind.name, "Any")  # a kind added later: untyped
        if spec.enum is not None:
            enums.add(spec.enum.__name__)
            annotation = f"{spec.enum.__name__} | {annotation}"
        return _optional(annotation, param.default)
    spec = op.keyword(param.slot) if param.target == "attr" else op.type_param(param.slot)
    if spec is None:
        return "Any"
    label = spec.value.label
    if label in _VALUE_TYPE:
        annotation = _VALUE_TYPE[label]
    elif isinstance(getattr(_enums, label, None), enum.EnumMeta):  # an enum_kind attribute
        enums.add(label)
        annotation = label
    else:  # a bespoke converter (a comparison name or code ...)
        annotation = "Any"
    return _optional(annotation, param.default)


def _result_type(op: OpDef) -> str:
    rule = getattr(op.deduce, "__name__", "")
    if rule in _RESULT_OF_RULE:
        return _RESULT_OF_RULE[rule]
    if rule == "rule" and "tpop" in getattr(op.deduce, "__qualname__", ""):
        return "Tile"
    return _NAMESPACE_RESULT.get(op.namespace, "Any")


def _op_signature(op: OpDef, params: tuple[SigParam, ...], enums: set[str]) -> _Signature:
    out = [_Param(p.name, _param_type(op, p, enums), p.default is not REQUIRED, p.keyword_only)
           for p in params]
    if not any(p.target == "span" for p in params):
        out.append(_Param("span", "Span | None", True, True))
    return _Signature(tuple(out), _result_type(op), op.scalar_form is not None)


def _wrapper_signatures(namespace: str, enums: set[str]) -> dict[str, _Signature]:
    """``{wrapper name: signature}`` of the generated 1:1 wrappers, aliases included."""
    out: dict[str, _Signature] = {}
    for op in ops_in(namespace):
        params = wrapper_params(op, "pl")
        if params is None:
            continue
        signature = _op_signature(op, params, enums)
        for name in (wrapper_name(op.short_name), *op.aliases):
            out[name] = signature
    return out


def _star(param: inspect.Parameter) -> str:
    if param.kind is param.VAR_POSITIONAL:
        return "*"
    return "**" if param.kind is param.VAR_KEYWORD else ""


def _loose_signature(function: Callable[..., Any]) -> _Signature:
    """A hand-written function (a router, a helper): its parameters, untyped (``Any``)."""
    params = []
    for param in inspect.signature(function).parameters.values():
        star = _star(param)
        params.append(_Param(param.name, "Any", param.default is not param.empty,
                             param.kind is param.KEYWORD_ONLY, star))
    return _Signature(tuple(params), "Any")


def _combine(tensor_type: str | None, tile_type: str | None) -> str:
    if tensor_type is None or tile_type is None:
        return tensor_type or tile_type or "Any"
    if tensor_type == tile_type:
        return tensor_type
    pair = {tensor_type.replace(" | None", ""), tile_type.replace(" | None", "")}
    if pair == {"Tensor", "Tile"}:
        optional = " | None" if "None" in tensor_type + tile_type else ""
        return _SHAPED_VAR + optional
    return "Any"


def _routed_annotation(sig: _Signature | None, name: str, index: int) -> str | None:
    """The type the routed wrapper gives parameter ``name`` (or, when it names it
    differently, its positional parameter at ``index``: ``pl.exp(input)`` is
    ``pl.tile.exp(tile)``)."""
    if sig is None:
        return None
    for param in sig.params:
        if param.name == name:
            return param.annotation
    positional = [p for p in sig.params if not p.keyword_only and not p.star]
    return positional[index].annotation if index < len(positional) else None


def _mentions_var(annotation: str) -> bool:
    return _SHAPED_VAR in annotation.replace("|", " ").split()


def _unified_signature(name: str, function: Callable[..., Any],
                       paths: dict[str, dict[str, _Signature]],
                       scalar_rhs: frozenset[str]) -> _Signature:
    """A unified ``pl.<name>``: each parameter typed as the wrappers it routes to type it."""
    routed = [paths[ns].get(name) for ns in ("tensor", "tile")]
    if routed == [None, None]:
        return _loose_signature(function)
    with_scalar = name in scalar_rhs or any(sig is not None and sig.scalar_rhs for sig in routed)
    params = []
    for index, param in enumerate(inspect.signature(function).parameters.values()):
        star = _star(param)
        found = [_routed_annotation(sig, param.name, index) for sig in routed]
        annotation = "Any" if star else _combine(*found)
        if param.name == "rhs" and with_scalar and _mentions_var(annotation):
            annotation = f"{_SHAPED_VAR} | {_SCALAR}"  # pl.add(t, 2.0): the scalar form
        if not star and param.default is None:
            annotation = _optional(annotation, None)
        params.append(_Param(param.name, annotation, param.default is not param.empty,
                             param.kind is param.KEYWORD_ONLY, star))
    result = _combine(*[sig.result if sig else None for sig in routed])
    if _mentions_var(result) and not any(_mentions_var(p.annotation) for p in params):
        result = "Tensor | Tile"  # a TypeVar must appear in the parameters
    return _Signature(tuple(params), result)


def _render_function(name: str, signature: _Signature) -> str:
    parts: list[str] = []
    keyword_marker = False
    for param in signature.params:
        if param.star == "*":
            keyword_marker = True
        elif param.keyword_only and not keyword_marker:
            parts.append("*")
            keyword_marker = True
        text = f"{param.star}{param.name}: {param.annotation}"
        if param.default:
            text += " = ..."
        parts.append(text)
    return f"def {name}({', '.join(parts)}) -> {signature.result}: ...\n"


_HEADER = '''"""Type stubs of ``{module}``: generated by ``python -m pypto.language.op.stubgen``
from the op registry entries.  Do not edit by hand."""

from typing import Any, Callable, Sequence, TypeVar

from pypto.ir.dtype import DataType as DataType
from pypto.ir.enums import {enums}
from pypto.ir.span import Span as Span
from pypto.ir.types import Type
from pypto.language.array_types import Array as Array
from pypto.language.typing import Scalar as Scalar, Tensor as Tensor, Tile as Tile

_ScalarLike = Scalar | int | float
_ShapedT = TypeVar("_ShapedT", bound=Tensor | Tile)

'''


def _module_names(module: Any) -> tuple[list[str], dict[str, Any]]:
    return list(module.__all__), {name: getattr(module, name) for name in module.__all__}


# Stubbed module -> what its names are: "unified" (routed pl.* functions), an op
# namespace (1:1 wrappers), or "loose" (hand-written functions, typed Any).
_TARGETS = {
    "pypto.language.op.unified_ops": "unified",
    **{f"pypto.language.op.{ns}_ops": ns for ns in NAMESPACES},
    **{f"pypto.language.distributed.op.{ns}_ops": f"pld.{ns}" for ns in ("system", "tensor", "tile")},
    "pypto.language.distributed.op.unified_ops": "loose",
}


def _full_name(module_name: str) -> str:
    return module_name if module_name.startswith("pypto.") else f"{__package__}.{module_name}"


def stub_text(module_name: str) -> str:
    """The stub of a wrapper module (``tensor_ops``, or a full name from ``_TARGETS``)."""
    module = importlib.import_module(_full_name(module_name))
    kind = _TARGETS[module.__name__]
    enums: set[str] = {"MemorySpace"}
    paths = {ns: _wrapper_signatures(ns, enums) for ns in NAMESPACES}
    if kind.startswith("pld."):
        paths[kind] = _wrapper_signatures(kind, enums)
    names, values = _module_names(module)
    body: list[str] = []
    for name in names:
        value = values[name]
        if kind == "unified":
            if name == "UNIFIED_OPS":
                body.append("UNIFIED_OPS: dict[str, Callable[..., Any]]\n")
            else:
                body.append(_render_function(name, _unified_signature(
                    name, value, paths, frozenset(getattr(module, "_TILE_SCALAR", ())))))
            continue
        if kind in paths and name in paths[kind] \
                and getattr(value, "__module__", "") == module.__name__ \
                and (value.__doc__ or "").startswith("Build a "):
            body.append(_render_function(name, paths[kind][name]))
        elif inspect.isfunction(value):
            body.append(_render_function(name, _loose_signature(value)))
        elif inspect.isclass(value):
            body.append(f"{name}: Any  # {value.__module__}.{value.__qualname__}\n")
        else:
            body.append(f"{name}: {type(value).__name__}\n")
    if kind in paths:
        body.append("PARSER_ENTRIES: dict[str, Callable[..., Any]]\n")
    if "UNIFIED_OPS" not in names and hasattr(module, "UNIFIED_OPS"):  # pld's router table
        body.append("UNIFIED_OPS: dict[str, Callable[..., Any]]\n")
    enum_names = sorted(enums)
    header = _HEADER.format(module=module.__name__,
                            enums=", ".join(f"{e} as {e}" for e in enum_names))
    all_list = "".join(f"    {name!r},\n" for name in names)
    return header + f"__all__ = [\n{all_list}]\n\n" + "".join(body)


def package_stub_text() -> str:
    """The stub of ``pypto.language.op`` itself: its ``__all__`` spelled out."""
    package = importlib.import_module(__package__)
    modules = "".join(f"from . import {ns}_ops as {ns}_ops\n" for ns in NAMESPACES)
    aliases = "".join(f"{ns} = {ns}_ops\n" for ns in NAMESPACES)
    all_list = "".join(f"    {name!r},\n" for name in package.__all__)
    return (f'''"""Type stub of ``{package.__name__}``: generated by ``python -m pypto.language.op.stubgen``.
Do not edit by hand."""

from types import ModuleType
from typing import Any

{modules}from .unified_ops import *
from .unified_ops import UNIFIED_OPS as UNIFIED_OPS

{aliases}NAMESPACES: dict[str, ModuleType]

__all__ = [
{all_list}]
''')


def _stub_path(module_name: str) -> Path:
    module = importlib.import_module(module_name)
    return Path(module.__file__ or "").with_suffix(".pyi")


def _stub_texts() -> dict[Path, str]:
    texts = {_stub_path(name): stub_text(name) for name in _TARGETS}
    texts[_HERE / "__init__.pyi"] = package_stub_text()
    return texts


def _shown(path: Path) -> str:
    return str(path.relative_to(_HERE.parents[2]))


def stale_stubs() -> list[str]:
    """The stub files whose committed text differs from what the registry gives."""
    return [_shown(path) for path, text in _stub_texts().items()
            if not path.is_file() or path.read_text() != text]


def write_stubs() -> list[str]:
    written = []
    for path, text in _stub_texts().items():
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
            written.append(_shown(path))
    return written


def main(argv: list[str] | None = None) -> int:
    return run_stub_command(argv, "python -m pypto.language.op.stubgen", stale_stubs,
                            write_stubs)

if __name__ == "__main__":
    sys.exit(main())

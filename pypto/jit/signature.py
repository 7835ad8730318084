"""From call arguments (or a call site) to the parameter types of one specialization.

``bind_entry`` handles the user's ``specialize/lower/compile(*args, **kw)``: binding,
argument checks against annotations, signature mode (01-language.md §17.5), scalar
values, ``bind_dynamic``.  ``plan_dependency`` does the same for a dependency whose
bare tensor parameters were typed from a call site.  Both give ``ParamPlan``s, which
also carry the parameter's part of the cache key.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from ..ir.dtype import DataType
from ..ir.enums import ParamDirection, TensorLayout
from ..language.parser.diagnostics import ParserSyntaxError, ParserTypeError
from ..language.typing import RUNTIME, DynVar
from ..errors import SourceDiagnostic
from .analysis import NO_DEFAULT, DynamicBind, FunctionFacts, ParamFacts, user_error
from .arg_errors import ArgumentTypeError, ArgumentValueError, argument_error, call_site
from .deps import Namespace
from .inherited_dims import InheritedDim
from .literals import literal_key
from .param_types import (AnnotationInfo, ScalarInfo, TensorInfo, ValueType, attr_chain,
                          dim_key, read_annotation)
from .specs import is_tensor_like, scalar_value_of, tensor_spec_of

__all__ = ["ParamPlan", "bind_entry", "plan_dependency", "read_param_annotations",
           "NOT_SUBSTITUTED", "MissingArgumentError"]

NOT_SUBSTITUTED = object()
_MISSING = object()
_RESERVED_KEYWORDS = frozenset({"config"})  # accepted and ignored offline (§17.4)


class MissingArgumentError(SourceDiagnostic, TypeError):
    """A tensor parameter got no argument, so its type cannot be known.

    A ``TypeError`` like Python's own for a missing argument; it also names the
    parameter and where the user wrote it, so ``pypto check`` can say which entry it
    could not specialise without a call (and point at that parameter), and a script or
    a notebook shows the parameter's line.
    """

    code = "E402"  # findings.JIT_NEEDS_ARGUMENTS

    def __init__(self, message: str, function: str, parameter: str, span: Any,
                 source_lines: Optional[list[str]]) -> None:
        super().__init__(message)
        self.function = function
        self.parameter = parameter
        self.span = span
        self.source_lines = source_lines


@dataclass(frozen=True)
class ParamPlan:
    """One parameter of one specialization.

    ``type`` is the final type (None when the annotation is passed through as
    written); ``rewrite_annotation`` says the annotation is generated from ``type``;
    ``value`` is the literal substituted into the body for a concrete scalar.
    """

    name: str
    direction: ParamDirection
    type: Optional[ValueType]
    rewrite_annotation: bool
    value: Any
    key: Any


def read_param_annotations(facts: FunctionFacts, namespace: Namespace) -> list[AnnotationInfo]:
    """Annotations see the parameters and the namespace, not the body's names."""
    params = set(facts.param_index)
    return [read_annotation(p.annotation, namespace.lookup, params.__contains__)
            for p in facts.params]


# -- the entry -------------------------------------------------------------------------

def bind_entry(facts: FunctionFacts, namespace: Namespace, args: Sequence[Any],
               kwargs: Mapping[str, Any],
               inherited: Sequence[InheritedDim] = ()) -> list[ParamPlan]:
    bound = _bind_arguments(facts, args, kwargs)
    signature_mode = not any(is_tensor_like(v) for v in bound.values())
    annotations = read_param_annotations(facts, namespace)
    plans = []
    for param, annotation in zip(facts.params, annotations):
        value = bound.get(param.name, _MISSING)
        if value is _MISSING and param.default is not NO_DEFAULT:
            value = param.default
        plans.append(_entry_param(facts, param, annotation, value, signature_mode))
    plans = _apply_inherited_dims(_apply_dynamic_binds(facts, namespace, plans), inherited)
    _check_dynamic_sizes(facts, plans, bound)
    return plans


def _bind_arguments(facts: FunctionFacts, args: Sequence[Any],
                    kwargs: Mapping[str, Any]) -> dict[str, Any]:
    # The messages start as PyPTO's do (its binding's TypeError text after the function's
    # name), so a user's ``pytest.raises(TypeError, match=...)`` reads the same.
    names = [p.name for p in facts.params]
    where = jit_function(facts.name)
    if len(args) > len(names):
        raise argument_error(ArgumentTypeError, f"{where}: too many positional arguments "
                             f"(it takes {len(names)}, {len(args)} were given)", facts)
    bound = dict(zip(names, args))
    for key, value in kwargs.items():
        if key in _RESERVED_KEYWORDS:  # never bound to a parameter, even one of that name
            continue
        if key not in facts.param_index:
            raise argument_error(ArgumentTypeError,
                                 f"{where}: got an unexpected keyword argument '{key}'", facts)
        if key in bound:
            raise argument_error(ArgumentTypeError,
                                 f"{where}: multiple values for argument '{key}'", facts,
                                 facts.params[facts.param_index[key]].node)
        bound[key] = value
    return bound


def jit_function(name: str) -> str:
    """How binding errors name the function (PyPTO's wording)."""
    return f"@pl.jit function '{name}'"


def _entry_param(facts: FunctionFacts, param: ParamFacts, annotation: AnnotationInfo,
                 value: Any, signature_mode: bool) -> ParamPlan:
    name = param.name
    if annotation.kind == "tensor":
        return _entry_tensor(facts, param, annotation, value, signature_mode)
    if annotation.kind == "scalar":
        return _entry_scalar(facts, param, annotation, value)
    if param.annotation is None:
        raise user_error(ParserTypeError, f"Parameter '{name}' missing type annotation",
                         facts.info, param.node,
                         hint="Annotate it, e.g. x: pl.Tensor or x: pl.Scalar[pl.INT64]")
    if value is not _MISSING:
        raise argument_error(ArgumentTypeError, f"{facts.name}(): parameter '{name}' is "
                             f"annotated '{ast.unparse(param.annotation)}'; @pl.jit binds "
                             "arguments only to pl.Tensor and pl.Scalar parameters", facts,
                             param.node)
    return ParamPlan(name, annotation.direction, None, False, NOT_SUBSTITUTED, ["other"])


def _entry_tensor(facts: FunctionFacts, param: ParamFacts, annotation: AnnotationInfo,
                  value: Any, signature_mode: bool) -> ParamPlan:
    name = param.name
    direction = annotation.direction
    declared = annotation.type if isinstance(annotation.type, TensorInfo) else None
    if value is _MISSING:
        if annotation.bare or not signature_mode:
            why = ("its annotation is a bare pl.Tensor, so its shape must come from an "
                   "argument") if annotation.bare else "other tensors were passed"
            missing = MissingArgumentError(
                f"{jit_function(facts.name)}: missing a required argument: '{name}' ({why})",
                facts.name, name, facts.info.span(param.node), facts.info.file_lines)
            site = call_site()
            missing.note = f"in the call at {site}" if site is not None else None
            raise missing
        return ParamPlan(name, direction, declared, False, NOT_SUBSTITUTED, _tensor_key(declared))
    if value is RUNTIME:
        raise argument_error(ArgumentTypeError, f"{facts.name}(): pl.RUNTIME applies to "
                             f"scalar parameters, but '{name}' is a tensor", facts, param.node)
    if not is_tensor_like(value):
        raise argument_error(ArgumentTypeError, f"{facts.name}(): parameter '{name}' expects "
                             "a tensor (a NumPy array, a torch tensor or a pypto.jit.TensorSpec), "
                             f"got {type(value).__name__}", facts, param.node)
    spec = tensor_spec_of(value, name)
    if annotation.bare:
        info = TensorInfo(spec.shape, spec.dtype, spec.layout)
        return ParamPlan(name, direction, info, True, NOT_SUBSTITUTED, _tensor_key(info))
    if declared is None:  # an annotation read by the parser only: it decides
        return ParamPlan(name, direction, None, False, NOT_SUBSTITUTED, ["opaque"])
    _check_tensor(facts, param, declared, spec.shape, spec.dtype, spec.layout)
    return ParamPlan(name, direction, declared, False, NOT_SUBSTITUTED, _tensor_key(declared))


def _check_tensor(facts: FunctionFacts, param: ParamFacts, declared: TensorInfo,
                  shape: tuple[int, ...], dtype: DataType, layout: TensorLayout) -> None:
    where = f"{facts.name}(): parameter '{param.name}'"
    if dtype is not declared.dtype:
        raise argument_error(ArgumentTypeError, f"{where} is annotated {declared.describe()} "
                             f"but the argument's dtype is {dtype.name}", facts, param.node)
    if len(shape) != declared.rank:
        raise argument_error(ArgumentValueError, f"{where} is annotated {declared.describe()} "
                             f"(rank {declared.rank}) but the argument has shape {list(shape)} "
                             f"(rank {len(shape)})", facts, param.node)
    for axis, (want, got) in enumerate(zip(declared.dims, shape)):
        if isinstance(want, int) and want != got:
            raise argument_error(ArgumentValueError, f"{where} is annotated "
                                 f"{declared.describe()} but the argument's dimension {axis} "
                                 f"is {got}, not {want}", facts, param.node)
    if layout is not TensorLayout.ND and layout is not declared.layout:
        raise argument_error(ArgumentValueError, f"{where} is annotated with layout "
                             f"{declared.layout.name} but the argument's layout is "
                             f"{layout.name}", facts, param.node)


def _entry_scalar(facts: FunctionFacts, param: ParamFacts, annotation: AnnotationInfo,
                  value: Any) -> ParamPlan:
    name = param.name
    direction = annotation.direction
    declared = annotation.type if isinstance(annotation.type, ScalarInfo) else None
    # ``x: pl.FP32`` reads as ``pl.Scalar[pl.FP32]``; a bare ``pl.Scalar`` takes the
    # dtype of its value (int -> INDEX, float -> FP32, bool -> BOOL).
    written = annotation.dtype_only or annotation.bare
    if value is _MISSING:
        raise argument_error(ArgumentTypeError, f"{jit_function(facts.name)}: missing a "
                             f"required argument: '{name}' (a scalar: pass an int, float or "
                             "bool, or pl.RUNTIME to keep it a runtime parameter)", facts,
                             param.node)
    if value is RUNTIME:
        if declared is None and annotation.bare:
            raise argument_error(ArgumentTypeError, f"{facts.name}(): parameter '{name}' is "
                                 "a bare pl.Scalar, so its dtype comes from its value; "
                                 "pl.RUNTIME has none (annotate it pl.Scalar[dtype])", facts,
                                 param.node)
        return ParamPlan(name, direction, declared, written, NOT_SUBSTITUTED, ["runtime"])
    scalar = scalar_value_of(value)
    if scalar is None:
        got = "a tensor" if is_tensor_like(value) else type(value).__name__
        raise argument_error(ArgumentTypeError, f"{facts.name}(): parameter '{name}' is a "
                             f"scalar; expected an int, float or bool (or pl.RUNTIME), got {got}",
                             facts, param.node)
    if declared is not None:
        scalar = _check_scalar(facts, param, declared.dtype, scalar)
    elif annotation.bare:
        declared = ScalarInfo(scalar_dtype_of(scalar))
    key = ["scalar", literal_key(scalar)]
    if facts.binding_counts.get(name):  # the body rebinds it: keep it a parameter
        return ParamPlan(name, direction, declared, written, NOT_SUBSTITUTED, key)
    return ParamPlan(name, direction, declared, written, scalar, key)


def scalar_dtype_of(value: Any) -> DataType:
    """The dtype a Python scalar has in a DSL body (the parser's reading of a literal)."""
    if isinstance(value, bool):
        return DataType.BOOL
    return DataType.INDEX if isinstance(value, int) else DataType.FP32


def _check_scalar(facts: FunctionFacts, param: ParamFacts, dtype: DataType, value: Any) -> Any:
    where = f"{facts.name}(): parameter '{param.name}' is pl.Scalar[pl.{dtype.name}]"

    def refuse(why: str) -> SourceDiagnostic:
        return argument_error(ArgumentTypeError, f"{where}; {why}", facts, param.node)
    if dtype.is_bool():
        if not isinstance(value, bool):
            raise refuse(f"expected a bool, got {type(value).__name__}")
        return value
    if isinstance(value, bool):
        raise refuse("expected a number, got a bool")
    if dtype.is_int():
        if not isinstance(value, int):
            raise refuse(f"expected an int, got {type(value).__name__}")
        return value
    if dtype.is_float():
        return float(value)
    raise refuse("@pl.jit cannot substitute a Python value for it")


def _tensor_key(info: Optional[TensorInfo]) -> list:
    if info is None:
        return ["opaque"]
    return ["tensor", [dim_key(d) for d in info.dims], info.dtype.name, info.layout.name]


# -- bind_dynamic -------------------------------------------------------------------------

def _apply_dynamic_binds(facts: FunctionFacts, namespace: Namespace,
                         plans: list[ParamPlan]) -> list[ParamPlan]:
    if not facts.dynamic_binds:
        return plans
    by_name = {plan.name: index for index, plan in enumerate(plans)}
    for bind in facts.dynamic_binds:
        index = by_name[bind.param]
        plan = plans[index]
        if not isinstance(plan.type, TensorInfo):
            what = "a scalar" if isinstance(plan.type, ScalarInfo) else \
                "not a tensor whose shape pypto can read"
            raise user_error(ParserSyntaxError, f"bind_dynamic() applies to tensor parameters "
                             f"with a known shape; '{bind.param}' is {what}", facts.info,
                             bind.node)
        info = _bind_axis(facts, namespace, bind, plan.type)
        plans[index] = ParamPlan(plan.name, plan.direction, info, True, plan.value,
                                 _tensor_key(info))
    return plans


def _apply_inherited_dims(plans: list[ParamPlan],
                          inherited: Sequence[InheritedDim]) -> list[ParamPlan]:
    """Dynamic axes from dependencies (``inherited_dims``), on bare tensor parameters whose
    axis is still a number."""
    by_name = {plan.name: index for index, plan in enumerate(plans)}
    for name, axis, dim in inherited:
        index = by_name.get(name)
        if index is None:
            continue
        plan = plans[index]
        if not plan.rewrite_annotation or not isinstance(plan.type, TensorInfo):
            continue
        info = plan.type
        position = axis + info.rank if axis < 0 else axis
        if not 0 <= position < info.rank or not isinstance(info.dims[position], int):
            continue
        dims = list(info.dims)
        dims[position] = dim
        info = TensorInfo(tuple(dims), info.dtype, info.layout)
        plans[index] = ParamPlan(plan.name, plan.direction, info, True, plan.value,
                                 _tensor_key(info))
    return plans


def _bind_axis(facts: FunctionFacts, namespace: Namespace, bind: DynamicBind,
               info: TensorInfo) -> TensorInfo:
    dyn = dynamic_dim_of(facts, namespace, bind)
    axis = bind.axis + info.rank if bind.axis < 0 else bind.axis
    if not 0 <= axis < info.rank:
        raise user_error(ParserSyntaxError, f"bind_dynamic(): axis {bind.axis} is out of range "
                         f"for '{bind.param}' of rank {info.rank}", facts.info, bind.node)
    current = info.dims[axis]
    if isinstance(current, DynVar) and current != dyn:
        raise user_error(ParserSyntaxError, f"bind_dynamic(): axis {bind.axis} of "
                         f"'{bind.param}' is already the dynamic dim '{current.name}'",
                         facts.info, bind.node)
    if not isinstance(current, (int, DynVar)):
        raise user_error(ParserSyntaxError, f"bind_dynamic(): axis {bind.axis} of "
                         f"'{bind.param}' is an expression", facts.info, bind.node)
    dims = list(info.dims)
    dims[axis] = dyn
    return TensorInfo(tuple(dims), info.dtype, info.layout)


def dynamic_dim_of(facts: FunctionFacts, namespace: Namespace, bind: DynamicBind) -> DynVar:
    """The dynamic dim ``x.bind_dynamic(axis, M)`` names."""
    node = bind.dim
    if isinstance(node, ast.Call) and attr_chain(node.func) == ["pl", "dynamic"] \
            and len(node.args) == 1 and not node.keywords \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
            and node.args[0].value.isidentifier():
        return DynVar(node.args[0].value)
    if isinstance(node, ast.Name) and node.id in facts.local_dynamic:
        return facts.local_dynamic[node.id]
    if isinstance(node, ast.Name) and node.id not in facts.local_names:
        value = namespace.get(node.id)
        if isinstance(value, DynVar):
            return value
    raise user_error(ParserSyntaxError, "bind_dynamic(): the second argument must be a "
                     "pl.dynamic(...) dim (a name bound to pl.dynamic(\"M\"), or "
                     "pl.dynamic(\"M\") itself)", facts.info, node)


def _check_dynamic_sizes(facts: FunctionFacts, plans: list[ParamPlan],
                         bound: Mapping[str, Any]) -> None:
    """One dynamic dim has one size per call: ``M`` cannot be 32 for x and 48 for y."""
    seen: dict[str, tuple[int, str]] = {}
    for plan in plans:
        value = bound.get(plan.name)
        if not isinstance(plan.type, TensorInfo) or value is None or not is_tensor_like(value):
            continue
        shape = tensor_spec_of(value, plan.name).shape
        for dim, size in zip(plan.type.dims, shape):
            if not isinstance(dim, DynVar):
                continue
            previous = seen.setdefault(dim.name, (size, plan.name))
            if previous[0] != size:
                raise argument_error(
                    ArgumentValueError, f"{facts.name}(): dynamic dim '{dim.name}' is "
                    f"{previous[0]} for parameter '{previous[1]}' but {size} for "
                    f"'{plan.name}'", facts, facts.params[facts.param_index[plan.name]].node)


# -- dependencies ---------------------------------------------------------------------------

def plan_dependency(facts: FunctionFacts, namespace: Namespace,
                    annotations: list[AnnotationInfo], inferred: Mapping[str, ValueType],
                    inherited: Sequence[InheritedDim] = ()) -> list[ParamPlan]:
    """Plans for a dependency; ``inferred`` types its bare parameters (from the call).

    A dependency's scalars are never substituted: they stay parameters, given at the
    call site (PyPTO's reading)."""
    plans = []
    for param, annotation in zip(facts.params, annotations):
        info = inferred.get(param.name)
        if info is not None:
            key = _tensor_key(info) if isinstance(info, TensorInfo) else ["scalar", info.dtype.name]
            plans.append(ParamPlan(param.name, annotation.direction, info, True,
                                   NOT_SUBSTITUTED, key))
        else:
            plans.append(ParamPlan(param.name, annotation.direction, annotation.type,
                                   annotation.dtype_only, NOT_SUBSTITUTED, ["declared"]))
    return _apply_inherited_dims(_apply_dynamic_binds(facts, namespace, plans), inherited)

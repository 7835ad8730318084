"""Calls: program methods (``self.f``), ops (``pl.add``, ``pl.tensor.add``), external
functions, ``@pl.inline`` splices, ``pl.const``, ``pl.submit``."""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, Any, Callable

from ...errors import InternalError
from ...ir import expr as E
from ...ir import types as T
from ...ir.types import has_dynamic_dims
from ...ir.dtype import DataType
from ...ir.enums import FunctionType, ParamDirection
from ...ir.function import Function
from ...ir.node import Expr, GlobalVar
from ...ir.ops import deduce_call_return_type
from ...ir.scalar_types import scalar_type
from ...ir.type_match import call_mismatch
from ._defects import raise_if_pypto_defect
from .annotations import attr_chain
from ..typing import DynVar
from .closure import MISSING
from .expressions import const_from_python
from .distributed_calls import device_keyword
from .recovery import DependentError
from .diagnostics import (InvalidOperationError, ParserError, ParserSyntaxError, ParserTypeError,
                          UndefinedVariableError, UnsupportedFeatureError)

if TYPE_CHECKING:
    from .function_parser import FunctionParser

__all__ = ["parse_call", "call_unified", "parse_submit", "parse_kwarg_value", "OP_NAMESPACES"]

OP_NAMESPACES = ("tensor", "tile", "system", "array", "prefetch")
PLD_NAMESPACES = ("tensor", "tile", "system")  # pld.tensor.put ...
_DTYPE_NAMES = frozenset(dt.name for dt in DataType.all())
# pl.<name> used as a value in an expression: DSL constructs that are not ops.
_STATEMENT_ONLY = frozenset({
    "range", "parallel", "unroll", "pipeline", "while_", "cond", "yield_", "at", "cluster",
    "spmd", "graph", "scope", "manual_scope", "func_attr", "static_print", "static_assert",
    "split", "cross_core_slot", "submit", "spmd_submit", "dynamic", "function", "program",
    "inline", "jit"})


_UNIFIED: dict | None = None


def _unified_ops() -> dict:
    global _UNIFIED
    if _UNIFIED is None:
        from ..op import UNIFIED_OPS
        _UNIFIED = UNIFIED_OPS
    return _UNIFIED


# -- argument conversion --------------------------------------------------------------

def parse_op_arg(p: "FunctionParser", node: ast.expr) -> Any:
    """Op operands: list/tuple literals stay Python lists (the op makes the MakeTuple)."""
    cls = node.__class__
    if cls is ast.Constant:
        value = node.value  # type: ignore[attr-defined]
        if value.__class__ is int or value.__class__ is float:
            return const_from_python(p, value, node)  # what parse_expr's _constant does
        return p.parse_expr(node)
    if cls is ast.Name and p.names.lookup(node.id) is not None:  # type: ignore[attr-defined]
        return p.parse_expr(node)  # a DSL value: no dotted name to read
    if isinstance(node, (ast.List, ast.Tuple)):
        return [parse_op_arg(p, elt) for elt in node.elts]
    # Positional dtypes and enum members (pl.create_tensor(shape, pl.FP32),
    # pl.move(t, pl.Mem.Mat)) reach the op as Python values, like keyword values.
    chain = attr_chain(node)
    if chain is not None and p.names.lookup(chain[0]) is None:
        if len(chain) >= 2 and chain[-1] in _DTYPE_NAMES and chain[0] == "pl":
            return DataType(chain[-1])
        if p.closure.lookup(chain[0]) is not MISSING:
            value = p.closure.evaluate(node, p.span(node))
            if isinstance(value, (DataType, enum.Enum)):
                return value
    return p.parse_expr(node)


def special_float(p: "FunctionParser", node: ast.expr) -> float | None:
    """``float("nan")``: how the printer spells NaN, which has no literal (inf is ``1e999``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "float" and len(node.args) == 1 and not node.keywords
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            and p.names.lookup("float") is None):
        return None
    bound = p.closure.lookup("float")
    if bound is not float and bound is not MISSING:
        return None  # the user's own `float`
    try:
        value = float(node.args[0].value)
    except ValueError:
        return None
    return value if value != value else None  # NaN only: other floats have literals


def parse_kwarg_value(p: "FunctionParser", node: ast.expr) -> Any:
    """Keyword values: literals and enums/dtypes stay Python values, DSL names are Exprs."""
    if isinstance(node, ast.Constant):
        return node.value
    nan = special_float(p, node)
    if nan is not None:
        return nan
    if isinstance(node, (ast.List, ast.Tuple)):
        return [parse_kwarg_value(p, elt) for elt in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)):
        return -node.operand.value
    if isinstance(node, ast.Dict):
        return _attrs_dict(p, node)
    chain = attr_chain(node)
    if chain is not None and p.names.lookup(chain[0]) is None:
        if len(chain) >= 2 and chain[-1] in _DTYPE_NAMES and chain[0] == "pl":
            return DataType(chain[-1])
        if p.closure.lookup(chain[0]) is not MISSING:
            value = p.closure.evaluate(node, p.span(node))
            if isinstance(value, DynVar):  # valid_shape=[16, N]: the program's N
                return p.program.dyn_var(value, p.span(node))
            return value
    return p.parse_expr(node)


def _attrs_dict(p: "FunctionParser", node: ast.expr) -> dict[str, Any]:
    if not isinstance(node, ast.Dict):
        raise ParserSyntaxError("attrs= must be a dict literal with string keys", p.span(node))
    out: dict[str, Any] = {}
    for key, value in zip(node.keys, node.values):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            raise ParserSyntaxError("attrs= keys must be string literals", p.span(node))
        out[key.value] = parse_kwarg_value(p, value)
    return out


def _split_keywords(p: "FunctionParser", node: ast.Call) -> tuple[dict[str, Any], dict | None]:
    kwargs: dict[str, Any] = {}
    attrs = None
    for kw in node.keywords:
        if kw.arg is None:
            raise UnsupportedFeatureError("**kwargs is not supported in DSL calls", p.span(kw))
        if kw.arg == "attrs":
            attrs = _attrs_dict(p, kw.value)
        else:
            kwargs[kw.arg] = parse_kwarg_value(p, kw.value)
    return kwargs, attrs


# -- error wrapping -------------------------------------------------------------------------

def _op_module(args: list[Any]) -> str:
    for arg in args:
        if isinstance(arg, Expr):
            if isinstance(arg.type, T.TensorType):
                return "pl.tensor"
            if isinstance(arg.type, T.TileType):
                return "pl.tile"
    return "pl"


def _wrap_op_error(p: "FunctionParser", exc: Exception, op_label: str, module: str,
                   args: list[Any], node: ast.AST) -> ParserError:
    message = str(exc)
    hint = None
    if any(isinstance(a, Expr) and isinstance(a.type, T.ScalarType) for a in args) \
            and not any(isinstance(a, Expr) and isinstance(a.type, T.ShapedType) for a in args):
        hint = "For scalar arithmetic use plain Python operators (a + b, a * b, ...)"
    if isinstance(exc, (TypeError, ValueError)):
        if op_label not in message:
            message = f"{module} operation '{op_label}': {message}"
        return InvalidOperationError(message, p.span(node), hint=hint)
    return InvalidOperationError(f"Error in {module} operation '{op_label}': "
                                 f"{type(exc).__name__}: {message}", p.span(node), hint=hint)


def call_unified(p: "FunctionParser", name: str, args: list[Any], kwargs: dict[str, Any],
                 node: ast.AST) -> Expr:
    fn = _unified_ops().get(name)
    if fn is None:
        raise InvalidOperationError(f"Unknown operation 'pl.{name}'", p.span(node))
    return _call_op_function(p, fn, name, args, kwargs, node)


def _call_op_function(p: "FunctionParser", fn: Callable[..., Expr], name: str, args: list[Any],
                      kwargs: dict[str, Any], node: ast.AST) -> Expr:
    try:
        return fn(*args, span=p.span(node), **kwargs)
    except (InternalError, AssertionError, ParserError):
        raise
    except Exception as exc:
        raise_if_pypto_defect(exc, p.span(node), f"pl.{name}(...)")
        raise _wrap_op_error(p, exc, name, _op_module(args), args, node) from None


def _call_namespaced(p: "FunctionParser", namespace: str, name: str, node: ast.Call,
                     family: str = "pl") -> Expr:
    """``pl.<namespace>.<name>(...)``, or ``pld.<namespace>.<name>(...)`` (``family``)."""
    if family == "pld":
        from ..distributed.op import NAMESPACES
        prefix = "pld."
    else:
        from ..op import NAMESPACES
        prefix = ""
    op_name = f"{prefix}{namespace}.{name[:-1] if name.endswith('_') else name}"
    if op_name == "tensor.no_dep":  # a marker, not an op
        from .scopes import mark_no_dep
        return mark_no_dep(p, node, "pl.tensor.no_dep")
    fn = NAMESPACES[namespace].PARSER_ENTRIES.get(name)
    if fn is None:
        raise InvalidOperationError(f"Unknown operation '{family}.{namespace}.{name}': "
                                    f"{op_name} is not a registered op", p.span(node))
    args = [parse_op_arg(p, a) for a in node.args]
    kwargs, attrs = _split_keywords(p, node)
    if op_name == "tensor.dim" and p.options.func_type is FunctionType.Orchestration:
        folded = _fold_dim(p, args)
        if folded is not None:
            return folded
    try:
        call = fn(*args, span=p.span(node), **kwargs)
        return call.replace(attrs=attrs) if attrs else call
    except (InternalError, AssertionError, ParserError):
        raise
    except Exception as exc:
        raise_if_pypto_defect(exc, p.span(node), f"{family}.{namespace}.{name}(...)")
        raise _wrap_op_error(p, exc, op_name, f"{family}.{namespace}", args, node) from None


def _fold_dim(p: "FunctionParser", args: list[Any]) -> Expr | None:
    """``pl.dim(x, k)`` in an Orchestration body folds to x's dynamic dim Var."""
    if len(args) != 2 or not isinstance(args[0], Expr) or not isinstance(args[1], E.ConstInt):
        return None
    t = args[0].type
    if not isinstance(t, T.TensorType) or not 0 <= args[1].value < len(t.shape):
        return None
    dim = t.shape[args[1].value]
    return dim if isinstance(dim, E.Var) else None


# -- the call dispatcher ------------------------------------------------------------------

def parse_call(p: "FunctionParser", node: ast.Call) -> Any:
    func = node.func
    if func.__class__ is ast.Attribute:
        attr = func.attr
        if attr == "yield_":
            raise ParserSyntaxError("pl.yield_() must be a statement (x = pl.yield_(...)), not "
                                    "part of an expression", p.span(node))
        owner = func.value
        if owner.__class__ is ast.Name:
            head = owner.id
            if head == "self" and p.names.lookup("self") is None:
                return _call_method(p, attr, node)
            if head == "pl" and p.names.lookup("pl") is None:
                return _call_pl_name(p, attr, node)
    chain = attr_chain(func)
    if chain is not None and chain[0] == "pl" and p.names.lookup("pl") is None:
        return _call_pl(p, chain, node)
    if chain is not None and chain[0] == "pld" and len(chain) > 1 \
            and p.names.lookup("pld") is None:
        from .distributed_calls import call_pld
        return call_pld(p, chain, node)
    if isinstance(func, ast.Name):
        return _call_name(p, func, node)
    raise UnsupportedFeatureError(f"Unsupported function call '{ast.unparse(func)}'",
                                  p.span(node))


def _call_pl(p: "FunctionParser", chain: list[str], node: ast.Call) -> Any:
    if len(chain) == 3 and chain[1] in OP_NAMESPACES:
        return _call_namespaced(p, chain[1], chain[2], node)
    if len(chain) == 3 and chain[1] in _DTYPE_NAMES and chain[2] == "get_byte":
        return E.ConstInt(DataType(chain[1]).get_byte(), DataType.INDEX, p.span(node))
    if len(chain) != 2:
        raise InvalidOperationError(f"Unknown operation '{'.'.join(chain)}'", p.span(node))
    return _call_pl_name(p, chain[1], node)


def _call_pl_name(p: "FunctionParser", name: str, node: ast.Call) -> Any:
    """``pl.<name>(...)``: a unified op, ``pl.const``, ``pl.no_dep``; the rest refused."""
    if name == "const":
        return _const(p, node)
    if name == "no_dep":
        from .scopes import mark_no_dep
        return mark_no_dep(p, node, "pl.no_dep")
    if name in ("submit", "spmd_submit"):
        raise ParserSyntaxError(f"pl.{name}(...) must be assigned: out, tid = pl.{name}(...)",
                                p.span(node), hint="A submit yields the kernel's results and "
                                                   "its task id; bind them to names")
    if name in _STATEMENT_ONLY:
        raise InvalidOperationError(f"Unknown operation 'pl.{name}'", p.span(node),
                                    hint=f"pl.{name} is a statement-level construct, not a "
                                         "value")
    fn = _unified_ops().get(name)
    if fn is None:
        raise InvalidOperationError(f"Unknown operation 'pl.{name}'", p.span(node))
    args = [parse_op_arg(p, a) for a in node.args]
    if node.keywords:
        kwargs, attrs = _split_keywords(p, node)
        if attrs is not None:
            raise ParserSyntaxError(f"pl.{name}() does not take attrs=; use the namespaced op "
                                    f"(pl.tensor.{name} / pl.tile.{name})", p.span(node))
    else:
        kwargs = {}
    if name == "dim" and p.options.func_type is FunctionType.Orchestration:
        folded = _fold_dim(p, args)
        if folded is not None:
            return folded
    return _call_op_function(p, fn, name, args, kwargs, node)


def _const(p: "FunctionParser", node: ast.Call) -> Expr:
    from .annotations import parse_dtype
    span = p.span(node)
    if len(node.args) != 2 or node.keywords:
        raise ParserSyntaxError("pl.const takes exactly (value, dtype)", span)
    value_node = node.args[0]
    negate = False
    if isinstance(value_node, ast.UnaryOp) and isinstance(value_node.op, ast.USub):
        negate, value_node = True, value_node.operand
    nan = special_float(p, value_node)
    if nan is not None:
        value: Any = nan
    elif isinstance(value_node, ast.Constant) and isinstance(value_node.value, (int, float)) \
            and not isinstance(value_node.value, bool):
        value = -value_node.value if negate else value_node.value
    else:
        raise ParserSyntaxError("pl.const needs a numeric literal value", p.span(node.args[0]))
    dtype = parse_dtype(p, node.args[1])
    if dtype.is_float():
        return E.ConstFloat(float(value), dtype, span)
    if isinstance(value, float):
        raise ParserTypeError(f"pl.const: {value!r} is not an integer but {dtype.name} is an "
                              "integer dtype", span)
    if dtype is DataType.BOOL:
        return E.ConstBool(bool(value), span)
    from .expressions import check_int_fits
    check_int_fits(value, dtype, span, "pl.const value")
    return E.ConstInt(value, dtype, span)


def _call_method(p: "FunctionParser", name: str, node: ast.Call) -> Expr:
    span = p.span(node)
    program = p.program
    if program.call_resolver is not None:
        jit_call = _jit_method_call(p, name, node)
        if jit_call is not None:
            return jit_call
    gvar = program.global_vars.get(name)
    if gvar is None:
        raise UndefinedVariableError(f"Function '{name}' not defined in program", span,
                                     hint=_method_hint(p))
    if name in program.failed:
        raise DependentError(f"method '{name}' failed to parse", span)
    args = [p.parse_expr(a) for a in node.args]
    # (the common ``self.f(a, b)`` has no keywords: nothing to read)
    attrs = _method_keywords(p, name, node, span) if node.keywords else None
    callee = program.functions.get(name)
    if callee is not None and callee.func_type is FunctionType.Inline \
            and not _is_statement_value(p.current_node, node):
        _refuse_nested_inline_call(name, span)
    return make_function_call(p, gvar, callee, program.param_counts.get(name), args, attrs,
                              node, span)


def _jit_method_call(p: "FunctionParser", name: str, node: ast.Call) -> Expr | None:
    """``self.k(...)`` of a jit function ``k``: the call of the method made for it."""
    keywords = [kw for kw in node.keywords if kw.arg not in ("attrs", "device")]
    resolved = _jit_method(p, name, node.args, keywords, node)
    if resolved is None:
        return None
    attrs = next((_attrs_dict(p, kw.value) for kw in node.keywords if kw.arg == "attrs"), None)
    device = device_keyword(p, node)
    if device is not None:
        attrs = {"device": device, **(attrs or {})}
    return make_function_call(p, resolved[0], resolved[1], None, resolved[2], attrs, node)


def _method_keywords(p: "FunctionParser", name: str, node: ast.Call, span: Any) -> dict | None:
    """The attrs of ``self.f(..., device=r, attrs={...})``; any other keyword refused."""
    device = device_keyword(p, node)
    kwargs, attrs = _split_keywords(p, node)
    kwargs.pop("device", None)
    if kwargs:
        raise ParserSyntaxError(f"self.{name}() takes positional arguments only "
                                f"(got {', '.join(kwargs)}=)", span,
                                hint="device=r is the one keyword: it runs the call as rank r")
    if device is not None:
        attrs = {"device": device, **(attrs or {})}
    return attrs


def _refuse_nested_inline_call(name: str, span: Any) -> None:
    raise ParserSyntaxError(
        f"A call of the Inline function '{name}' must be a statement of its own: its "
        "body is spliced where the statement stands, so it cannot sit inside another "
        "expression", span, hint=f"Bind it first: `t = self.{name}(...)`, then use t")


def _is_statement_value(stmt: ast.AST | None, call: ast.Call) -> bool:
    """``x = call``, ``a, b = call``, ``x: T = call``, ``call`` or ``return call``."""
    return isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)) \
        and stmt.value is call


def _jit_method(p: "FunctionParser", name: str, arg_nodes: list[ast.expr],
                keywords: list[ast.keyword], node: ast.Call) -> tuple | None:
    """``self.k(...)`` in a ``@pl.jit`` body, ``k`` a jit function: the method the
    specializer makes for these arguments (``ProgramContext.call_resolver``)."""
    resolver = p.program.call_resolver
    if resolver is None:
        return None
    value = p.closure.lookup(name)
    if getattr(value, "_pypto_jit_kind", None) is None:
        return None
    return resolver(p, name, value, arg_nodes, keywords, node)


def _method_hint(p: "FunctionParser") -> str | None:
    names = sorted(p.program.global_vars)
    return f"Methods of this program: {', '.join(names)}" if names else None


def make_function_call(p: "FunctionParser", gvar: GlobalVar, callee: Function | None,
                       param_count: int | None, args: list[Expr], attrs: dict | None,
                       node: ast.AST, span: Any = None) -> Expr:
    if span is None:
        span = p.span(node)
    expected = len(callee.params) if callee is not None else param_count
    if expected is not None and expected != len(args):
        raise ParserTypeError(f"Function '{gvar.name}' expects {expected} argument(s), got "
                              f"{len(args)}", span)
    if callee is None:
        type_: T.Type = T.UnknownType()
    elif _fits_as_before(p.program, callee, args):
        returns = callee.return_types  # static: deduce_call_return_type substitutes nothing
        type_ = returns[0] if len(returns) == 1 else T.TupleType(list(returns))
    else:
        check_call_args(gvar.name, callee, args, span, lambda: _arg_spans(p, node, len(args)))
        try:
            type_ = deduce_call_return_type(callee.params, args, callee.return_types)
        except (TypeError, ValueError) as exc:
            raise ParserTypeError(f"Call of '{gvar.name}': {exc}", span) from None
        _remember_fit(p.program, callee, args)
    call = E.Call(gvar, args, {}, attrs or {}, type_, span)
    if callee is None:  # the callee is parsed later
        p.program.unchecked_calls.append((call, _arg_spans(p, node, len(args))))
    return call


def _fits_as_before(program: Any, callee: Function, args: list[Expr]) -> bool:
    """Were arguments of these very types (the same objects) already found to fit
    ``callee``, whose signature has only constant dims?  Then the check would pass
    again: it reads nothing but the types (``_remember_fit``)."""
    seen = program.fitting_calls.get((id(callee), *[id(a.type) for a in args]))
    return seen is not None and seen[0] is callee


def _remember_fit(program: Any, callee: Function, args: list[Expr]) -> None:
    """Record a call that passed the argument check, when the check is a function of the
    argument types alone: no parameter or return type has a dynamic dim (a Var), so no
    binding of the call's values is substituted anywhere.  The entry keeps the callee
    and the types alive, so their ids stay theirs."""
    static = program.static_callees.get(id(callee))
    if static is None or static[0] is not callee:
        flag = not any(has_dynamic_dims(p.type) for p in callee.params) \
            and not any(has_dynamic_dims(t) for t in callee.return_types)
        static = program.static_callees[id(callee)] = (callee, flag)
    if static[1]:
        types = [a.type for a in args]
        program.fitting_calls[(id(callee), *[id(t) for t in types])] = (callee, types)


def _arg_spans(p: "FunctionParser", node: ast.AST, count: int) -> list:
    """The spans of a call's last ``count`` argument nodes (a submit's first operand is
    the kernel), which locate a refusal; none when they do not match the arguments."""
    arg_nodes = node.args[len(node.args) - count:] if isinstance(node, ast.Call) else []
    return [p.span(a) for a in arg_nodes] if len(arg_nodes) == count else []


def check_call_args(name: str, callee: Function, args: list[Expr], span: Any,
                    arg_spans: "list | Callable[[], list]") -> None:
    """Each argument must fit its parameter (kind, dtype, static dims; dynamic dims bind).
    ``arg_spans`` (or the function giving them, called only for a refusal) locate the
    arguments."""
    found = call_mismatch(callee.params[:len(args)], args)
    if found is None:
        return
    index, expected, reason = found
    if callable(arg_spans):
        arg_spans = arg_spans()
    where = arg_spans[index] if index < len(arg_spans) else span
    param = callee.params[index]
    raise ParserTypeError(f"Argument {index + 1} of '{name}' does not fit parameter "
                          f"'{param.name_hint}': {reason}", where,
                          hint=f"'{name}' declares {param.name_hint}: {expected}")


def _call_name(p: "FunctionParser", func: ast.Name, node: ast.Call) -> Any:
    from ..decorators import InlineFunction
    span = p.span(node)
    if p.names.lookup(func.id) is not None:
        raise UnsupportedFeatureError(f"'{func.id}' is a DSL value and cannot be called", span)
    nan = special_float(p, node)
    if nan is not None:
        return E.ConstFloat(nan, DataType.FP32, span)
    value = p.closure.lookup(func.id)
    if value is MISSING:
        raise UndefinedVariableError(f"Undefined function '{func.id}'", span)
    if isinstance(value, Function):
        return _call_external(p, value, node)
    if isinstance(value, InlineFunction):
        from .inline_splice import splice_inline
        return splice_inline(p, value, node)
    if value is abs and len(node.args) == 1 and not node.keywords:
        from ...ir import builders as B
        from .expressions import scalar_builder_call
        return scalar_builder_call(p, B.abs_, [p.parse_expr(node.args[0])], node, "abs")
    jit_call = _jit_dependency_call(p, value, node)
    if jit_call is not None:
        return jit_call
    raise UnsupportedFeatureError(f"Unsupported function call '{func.id}'", span,
                                  hint="Inside a DSL body call pl.* ops, self.<method>(...), "
                                       "@pl.function functions or @pl.inline functions")


def _jit_dependency_call(p: "FunctionParser", value: Any, node: ast.Call) -> Expr | None:
    """A ``@pl.jit.*`` function called by name (outside the specializer's rewrite)."""
    kind = getattr(value, "_pypto_jit_kind", None)
    if kind is None:
        return None
    raise UnsupportedFeatureError(
        f"@pl.jit function '{getattr(value, '__name__', '?')}' can only be called from another "
        "@pl.jit function", p.span(node))


def _call_external(p: "FunctionParser", callee: Function, node: ast.Call) -> Expr:
    """A bare-name call of an ``ir.Function`` built elsewhere: it joins the program."""
    span = p.span(node)
    if node.keywords:
        raise ParserSyntaxError(f"Call of function '{callee.name}' takes positional arguments "
                                "only", span)
    program = p.program
    known = program.externals.get(callee.name)
    if known is not None and known is not callee:
        raise ParserSyntaxError(f"Conflicting external functions named '{callee.name}'", span,
                                hint="Two different functions with the same name are called; "
                                     "rename one of them")
    if program.in_program and callee.name in program.global_vars and known is None:
        raise ParserSyntaxError(f"Conflicting external functions: '{callee.name}' is also a "
                                "method of this program", span)
    program.externals[callee.name] = callee
    args = [p.parse_expr(a) for a in node.args]
    return make_function_call(p, GlobalVar(callee.name), callee, None, args, None, node)


# -- pl.submit / pl.spmd_submit ---------------------------------------------------------------

def parse_submit(p: "FunctionParser", node: ast.Call) -> Expr:
    """``out, tid = pl.submit(self.k, *args, deps=[...], ...)`` -> a typed ``ir.Submit``."""
    span = p.span(node)
    chain = attr_chain(node.func) or []
    spmd = chain[-1] == "spmd_submit"
    if not node.args or not (isinstance(node.args[0], ast.Attribute)
                             and isinstance(node.args[0].value, ast.Name)
                             and node.args[0].value.id == "self"):
        raise ParserSyntaxError(f"pl.{chain[-1]} needs a kernel as first argument "
                                "(pl.submit(self.kernel, ...))", span)
    name = node.args[0].attr
    resolved = _jit_method(p, name, node.args[1:], [], node)
    gvar = resolved[0] if resolved is not None else p.program.global_vars.get(name)
    if gvar is None:
        raise UndefinedVariableError(f"Function '{name}' not defined in program",
                                     p.span(node.args[0]))
    if name in p.program.failed:
        raise DependentError(f"method '{name}' failed to parse", span)
    args = resolved[2] if resolved is not None else [p.parse_expr(a) for a in node.args[1:]]
    options: dict[str, Any] = {}
    attrs: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg == "deps":
            if not isinstance(kw.value, (ast.List, ast.Tuple)):
                raise ParserSyntaxError("deps= must be a list of task ids", p.span(kw.value))
            options["deps"] = [p.parse_expr(d) for d in kw.value.elts]
        elif kw.arg in ("core_num", "predicate"):
            options[kw.arg] = p.parse_expr(kw.value)
        elif kw.arg in ("sync_start", "allow_early_resolve"):
            if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool)):
                raise ParserSyntaxError(f"{kw.arg}= must be True or False", p.span(kw.value))
            options[kw.arg] = kw.value.value
        elif kw.arg == "attrs":
            attrs = _attrs_dict(p, kw.value)
        elif kw.arg == "dumps":
            attrs["dump_vars"] = [p.parse_expr(d) for d in getattr(kw.value, "elts", [])]
        else:
            raise ParserSyntaxError(f"Unknown keyword argument '{kw.arg}' in pl.{chain[-1]}()",
                                    p.span(kw))
    if spmd and "core_num" not in options:
        raise ParserSyntaxError("pl.spmd_submit() requires core_num=", span)
    predicate = options.get("predicate")
    if predicate is not None and not (isinstance(predicate.type, T.ScalarType)
                                      and predicate.type.dtype is DataType.BOOL):
        raise ParserTypeError("pl.submit predicate= must be a Bool scalar", span)
    callee = p.program.functions.get(name)
    if callee is not None and callee.func_type is FunctionType.Inline:
        raise ParserSyntaxError(f"pl.{chain[-1]} cannot launch the Inline function '{name}': "
                                "an Inline function is spliced into its caller, it is no task",
                                p.span(node.args[0]),
                                hint=f"Call it directly (`self.{name}(...)`) or make it a kernel")
    if callee is not None:
        call = make_function_call(p, gvar, callee, None, args, None, node)
        results = list(call.type.types) if isinstance(call.type, T.TupleType) and \
            len(callee.return_types) != 1 else ([] if not callee.return_types else [call.type])
    else:
        results = []
    type_ = T.TupleType(results + [scalar_type(DataType.TASK_ID)])
    return E.Submit(gvar, args, options.get("deps", []), type_, span,
                    core_num=options.get("core_num"), sync_start=options.get("sync_start", False),
                    allow_early_resolve=options.get("allow_early_resolve", False),
                    predicate=predicate, attrs=attrs)


__all__ += ["make_function_call", "parse_op_arg", "ParamDirection"]

# Calls go straight here from the parser's expression dispatch.
EXPR_HANDLERS = {ast.Call: parse_call}

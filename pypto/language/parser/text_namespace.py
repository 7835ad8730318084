"""The namespace of DSL text (``pl.parse``): what a name or a dotted chain may mean there.

Text is data, so nothing in it runs.  Its only names are the DSL's namespaces
(``pl``, ``pld``, and ``ir`` once imported), ``abs`` (the printed
scalar abs), the module-level constants and ``pl.dynamic`` dims the text assigns,
and the functions it defines.  Expressions the parser needs as values (dtypes, enum
members, layouts, views, ``pl.static_assert`` conditions, constants) are computed
here from the syntax tree by a small interpreter that knows literals, arithmetic on
numbers, comparisons, attribute chains through the DSL's namespaces and a fixed set
of DSL constructors -- never ``eval``, never a dunder, never another call.
"""

from __future__ import annotations

import ast
import enum
import functools
import importlib
import operator
import types
from typing import Any, Callable, Mapping

from ...ir.dtype import DataType
from ...ir.span import Span
from ..array_types import Array
from ..typing import AnnotationRecord, DynVar, InOut, Out, Scalar, Tensor, Tile, Tuple
from .calls import OP_NAMESPACES
from .closure import MISSING, Closure, fold_binop, is_dunder
from .diagnostics import (ParserError, ParserSyntaxError, ParserTypeError,
                          UndefinedVariableError)
from .recovery import DependentError, FailedEntity

__all__ = ["TextClosure", "DSL_MODULES", "dsl_module", "not_allowed", "is_constant_value",
           "annotation_names"]

# Importable in DSL text, with the name the printer binds each to.
DSL_MODULES: dict[str, str] = {
    "pypto.language": "pl",
    "pypto.language.distributed": "pld",
    "pypto.ir": "ir",
}

_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
}
_NUMBER = (int, float)  # bool is an int
# (and their subclasses: pld.DistributedTensor is a Tensor)
_ANNOTATION_CLASSES = (Tensor, Tile, Scalar, Tuple, InOut, Out, Array)
# Modules the DSL spells under a root (`pl.adir.input`, `pl.tensor.add`); the root's
# other submodules (`pl.parser`, ...) are pypto's implementation, not the DSL.
_NAMESPACES = frozenset({"adir", *OP_NAMESPACES})


@functools.lru_cache(maxsize=None)
def dsl_module(path: str) -> types.ModuleType | None:
    """The DSL module at ``path`` (one of ``DSL_MODULES``), or None if this pypto lacks it."""
    if path not in DSL_MODULES:
        return None
    try:
        return importlib.import_module(path)
    except ImportError:
        return None


@functools.lru_cache(maxsize=None)
def _constructors() -> frozenset:
    """The calls DSL text may contain outside function bodies: ``pl.dynamic`` and the
    views and memory references of type annotations."""
    from ...ir import types as T
    from ..typing import MemRef, dynamic
    return frozenset({dynamic, T.TensorView, T.TileView, T.MemRef, MemRef})


def not_allowed(what: str, span: Span, hint: str | None = None) -> ParserSyntaxError:
    return ParserSyntaxError(
        f"{what} is not allowed in DSL text", span,
        hint=hint or "pl.parse builds the program from the text without running it: the text "
                     "may use pl.* (pld.*, ir.*), literals and arithmetic on them, constants "
                     "and pl.dynamic dims it assigns at module level, and @pl.function / "
                     "@pl.program / @pl.inline definitions")


def is_constant_value(value: Any) -> bool:
    """A value a module-level ``NAME = ...`` of DSL text may bind: inert data only
    (numbers, strings, enum members, dtypes, dims, type aliases, and containers of them)."""
    if value is None or isinstance(value, (int, float, str, enum.Enum, DataType, DynVar)):
        return True
    if isinstance(value, (list, tuple)):
        return all(is_constant_value(item) for item in value)
    if isinstance(value, dict):
        return all(is_constant_value(key) and is_constant_value(item)
                   for key, item in value.items())
    if isinstance(value, AnnotationRecord):
        return is_constant_value(value.args)
    return False


class TextClosure(Closure):
    """The names DSL text can see, and the evaluator of its value expressions."""

    __slots__ = ("span_of", "_annotation_names", "_dim_names")

    def __init__(self, bindings: dict[str, Any], annotation_names: Callable[[], frozenset[str]],
                 span_of: Callable[[ast.AST], Span]) -> None:
        """``annotation_names()``: every plain name in a type annotation of the text
        (``annotation_names``), asked for only when a body reads an unknown name."""
        super().__init__(bindings)
        self.span_of = span_of
        self._annotation_names = annotation_names
        self._dim_names: frozenset[str] | None = None

    def lookup(self, name: str) -> Any:
        value = self.mapping.get(name, MISSING)
        if value is MISSING and name == "abs":
            return abs  # printed for the scalar abs; the parser builds the IR op
        if value.__class__ is FailedEntity:  # its statement failed: already reported
            raise DependentError(f"'{name}' failed to parse (see its error)")
        return value

    def with_inline(self, inline_closure: Mapping[str, Any]) -> "Closure":
        merged = dict(inline_closure)
        merged.update(self.mapping)
        return TextClosure(merged, self._annotation_names, self.span_of)

    def undeclared_dim(self, name: str, known: Mapping[str, Any]) -> bool:
        """A Function printed alone has no ``M = pl.dynamic("M")`` header: a name that
        some shape annotation of the text uses is a dynamic dim in bodies as well."""
        if name in known:
            return True
        if self._dim_names is None:
            self._dim_names = self._annotation_names()
        return name in self._dim_names

    # -- attribute chains ------------------------------------------------------------
    def attribute(self, base: Any, name: str, node: ast.AST, span: Span) -> Any:
        """``base.name`` inside the DSL's namespaces only; ``MISSING`` when absent."""
        if name.startswith("_"):
            raise not_allowed(f"'{_text(node)}' (a name starting with '_')", span)
        if isinstance(base, types.ModuleType):
            if not (_is_dsl_root(base) or _is_dsl_namespace(base)):
                raise not_allowed(f"'{_text(node)}'", span)
            value = vars(base).get(name, MISSING)
            if isinstance(value, types.ModuleType) \
                    and not (_is_dsl_root(base) and name in _NAMESPACES):
                raise not_allowed(f"'{_text(node)}' (a module)", span)
            return value
        if isinstance(base, type) and issubclass(base, enum.Enum):
            return base.__members__.get(name, MISSING)
        # Classes of constants (``pl.DataType.FP32``) and constant holders: read from
        # the class dict, so no property or descriptor runs.
        owner = base if isinstance(base, type) else type(base)
        value = vars(owner).get(name, MISSING)
        if value is MISSING or isinstance(value, (enum.Enum, DataType)):
            return value
        raise not_allowed(f"'{_text(node)}'", span)

    # -- evaluation ------------------------------------------------------------------
    def evaluate(self, node: ast.expr, span: Span, *, in_shape: bool = False) -> Any:
        try:
            return self._value(node, in_shape)
        except RecursionError:
            raise ParserSyntaxError("Expression nested too deeply", span) from None

    def _value(self, node: ast.expr, in_shape: bool) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            value = self.lookup(node.id)
            if value is not MISSING:
                return value
            if is_dunder(node.id):
                raise not_allowed(f"'{node.id}' (a dunder name)", self.span_of(node))
            if in_shape and not node.id.startswith("__"):
                return DynVar(node.id)  # an undeclared dynamic dim
            raise UndefinedVariableError(f"Undefined variable '{node.id}'", self.span_of(node))
        if isinstance(node, ast.Attribute):
            base = self._value(node.value, False)
            value = self.attribute(base, node.attr, node, self.span_of(node))
            if value is MISSING:
                raise ParserTypeError(f"'{_text(node.value)}' has no attribute '{node.attr}'",
                                      self.span_of(node))
            return value
        if isinstance(node, ast.List):
            return [self._value(item, in_shape) for item in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(self._value(item, in_shape) for item in node.elts)
        if isinstance(node, ast.Dict):
            return self._dict(node)
        if isinstance(node, ast.Subscript):
            return self._type_alias(node)
        if isinstance(node, ast.BinOp):
            return self._arithmetic(node, type(node.op), self._value(node.left, False),
                                    self._value(node.right, False))
        if isinstance(node, ast.UnaryOp):
            return self._unary(node, self._value(node.operand, False))
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.BoolOp):
            return self._boolop(node)
        if isinstance(node, ast.Call):
            return self._construct(node, in_shape)
        raise not_allowed(_describe(node), self.span_of(node))

    def _type_alias(self, node: ast.Subscript) -> AnnotationRecord:
        """``pl.Tensor[[64, M], pl.FP32]`` as a value (``T = ...``; ``x: T``): the inert
        record the annotation class would make, built here without calling it."""
        head = self._value(node.value, False)
        if not (isinstance(head, type) and issubclass(head, _ANNOTATION_CLASSES)):
            raise not_allowed(_describe(node), self.span_of(node))
        return AnnotationRecord(head.__name__, self._value(node.slice, True))

    def _dict(self, node: ast.Dict) -> dict:
        out = {}
        for key_node, value_node in zip(node.keys, node.values):
            if key_node is None:
                raise not_allowed("Dict unpacking", self.span_of(value_node))
            key = self._value(key_node, False)
            if not isinstance(key, (int, float, str, enum.Enum)) and key is not None:
                raise not_allowed(f"A {type(key).__name__} dict key", self.span_of(key_node))
            out[key] = self._value(value_node, False)
        return out

    def _numbers(self, node: ast.AST, *values: Any) -> None:
        for value in values:
            if not isinstance(value, _NUMBER):
                raise not_allowed(f"'{_text(node)}' (arithmetic on {type(value).__name__})",
                                  self.span_of(node),
                                  hint="Arithmetic in DSL text outside function bodies works "
                                       "on numbers only")

    def _arithmetic(self, node: ast.AST, op: type, left: Any, right: Any) -> Any:
        self._numbers(node, left, right)
        try:
            return fold_binop(op, left, right)
        except KeyError:
            raise not_allowed(f"The operator in '{_text(node)}'", self.span_of(node)) from None
        except (ArithmeticError, ValueError, TypeError) as exc:  # 1 / 0, 1.5 & 2, ...
            raise ParserSyntaxError(f"{type(exc).__name__}: {exc}", self.span_of(node)) from None

    def _unary(self, node: ast.UnaryOp, value: Any) -> Any:
        if isinstance(node.op, ast.Not):
            return not value
        self._numbers(node, value)
        if isinstance(node.op, ast.USub):
            return -value
        if isinstance(node.op, ast.UAdd):
            return +value
        if type(value) is not int:
            raise not_allowed(f"'{_text(node)}' (~ on {type(value).__name__})",
                              self.span_of(node))
        return ~value

    def _compare(self, node: ast.Compare) -> bool:
        left = self._value(node.left, False)
        for op, right_node in zip(node.ops, node.comparators):
            compare = _COMPARE.get(type(op))
            if compare is None:
                raise not_allowed(f"The comparison in '{_text(node)}'", self.span_of(node))
            right = self._value(right_node, False)
            try:
                if not (_comparable(left) and _comparable(right)):
                    raise TypeError
                holds = compare(left, right)
            except TypeError:  # also `None < 1`, `"a" < 1`
                raise not_allowed(f"'{_text(node)}' (comparing {type(left).__name__} with "
                                  f"{type(right).__name__})", self.span_of(node)) from None
            if not holds:
                return False
            left = right
        return True

    def _boolop(self, node: ast.BoolOp) -> Any:
        is_and = isinstance(node.op, ast.And)
        value: Any = None
        for item in node.values:
            value = self._value(item, False)
            if bool(value) is not is_and:
                return value
        return value

    def _construct(self, node: ast.Call, in_shape: bool) -> Any:
        try:
            func = self._value(node.func, False)
        except DependentError:
            raise
        except ParserError:
            func = MISSING  # `open(...)`, `__import__(...)`: the call is what is refused
        if not any(func is allowed for allowed in _constructors()):
            raise not_allowed(f"The call '{_text(node.func)}(...)'", self.span_of(node),
                              hint="Outside function bodies DSL text may only call "
                                   "pl.dynamic, pl.TensorView, pl.TileView and pl.MemRef")
        if any(isinstance(arg, ast.Starred) for arg in node.args) \
                or any(kw.arg is None for kw in node.keywords):
            raise not_allowed("Argument unpacking", self.span_of(node))
        args = [self._value(arg, in_shape) for arg in node.args]
        kwargs = {kw.arg: self._value(kw.value, in_shape) for kw in node.keywords
                  if kw.arg is not None}  # (``**`` unpacking is refused above)
        try:
            return func(*args, **kwargs)
        except (TypeError, ValueError) as exc:
            raise ParserTypeError(f"Invalid '{_text(node.func)}(...)': {exc}",
                                  self.span_of(node)) from None


def _comparable(value: Any) -> bool:
    return isinstance(value, (int, float, str)) or value is None


def _is_dsl_root(module: types.ModuleType) -> bool:
    return module.__name__ in DSL_MODULES and dsl_module(module.__name__) is module


def _is_dsl_namespace(module: types.ModuleType) -> bool:
    """``pl.tensor``, ``pl.adir``, ...: a module a DSL root holds under a namespace name."""
    for path in DSL_MODULES:
        root = dsl_module(path)
        if root is not None and any(vars(root).get(name) is module for name in _NAMESPACES):
            return True
    return False


def annotation_names(tree: ast.Module) -> frozenset[str]:
    """Every plain name used inside a type annotation of the text."""
    names: set[str] = set()
    for node in ast.walk(tree):
        annotations: list[Any] = []
        if isinstance(node, ast.arg):
            annotations.append(node.annotation)
        elif isinstance(node, ast.FunctionDef):
            annotations.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        for annotation in annotations:
            if annotation is not None:
                names.update(sub.id for sub in ast.walk(annotation) if isinstance(sub, ast.Name))
    return frozenset(names)


def _text(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


_DESCRIPTIONS = {
    ast.JoinedStr: "An f-string", ast.Lambda: "A lambda", ast.NamedExpr: "An assignment expression",
    ast.Subscript: "Subscripting", ast.Set: "A set",
    ast.ListComp: "A comprehension", ast.SetComp: "A comprehension",
    ast.DictComp: "A comprehension", ast.GeneratorExp: "A generator expression",
    ast.IfExp: "A conditional expression", ast.Starred: "Unpacking", ast.Await: "await",
    ast.Yield: "yield", ast.YieldFrom: "yield",
}


def _describe(node: ast.AST) -> str:
    what = _DESCRIPTIONS.get(type(node), f"A {type(node).__name__} expression")
    return f"{what} ('{_text(node)}')"

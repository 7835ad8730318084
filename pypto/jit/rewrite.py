"""Rewrite one ``@pl.jit`` function for one specialization (01-language.md §17.3).

Works on a copy of the user's ``FunctionDef``, which the parser then reads directly
(no generated text: every node keeps the position of the user's node it came from,
so spans and diagnostics point at the user's code):

* parameter annotations: bare ``pl.Tensor`` / ``pl.Scalar`` (and ``bind_dynamic``-ed
  tensors) become full types, ``x: pl.FP32`` becomes ``pl.Scalar[pl.FP32]``; the
  others keep their text, names inlined;
* ``x.bind_dynamic(axis, M)`` statements and ``M = pl.dynamic("M")`` definitions are
  dropped (``M`` names the dynamic dim);
* ``x.shape[k]``, ``x.shape``, ``x.dtype`` become literals (or the dynamic dim's name);
  ``n = x.shape[k]`` / ``a, b = x.shape`` / ``dt = x.dtype`` with single-binding
  targets turn the names themselves into constants;
* concrete scalar parameters are substituted in the body;
* namespace values (ints, floats, bools, dtypes, enums, ``pl.dynamic`` dims, lists
  of them, ``module.attr`` chains) are inlined; ``pl`` under another name is renamed;
* calls of ``@pl.jit`` dependencies stay calls by name: the parser asks the
  ``ProgramBuilder`` for the method matching the argument types it parsed;
* a missing (or bare) return annotation is dropped and inferred from the parsed
  ``return`` values (``Instance.infer_returns``).
"""

from __future__ import annotations

import ast
import copy
import functools
import types
from typing import TYPE_CHECKING, Any, Callable, Optional, cast

from ..language.parser import pyast
from ..errors import InternalError
from ..ir.enums import ParamDirection
from ..language.parser.closure import SAFE_BUILTINS
from ..language.parser.diagnostics import (ParserSyntaxError, ParserTypeError,
                                           UndefinedVariableError)
from ..language.typing import DynVar
from .analysis import user_error
from .ast_utils import Node, locate, self_method
from .kinds import JitKind, emitted_decorator
from .literals import is_literal, literal_ast
from .analysis import SUBMIT_CALLS
from .param_types import (ExprDim, TensorInfo, ValueType, annotation_head, attr_chain,
                          int_literal, parse_string_annotation, read_annotation,
                          type_annotation)
from .signature import NOT_SUBSTITUTED, ParamPlan

if TYPE_CHECKING:
    from .specialize import BuilderBase, Instance

__all__ = ["FunctionRewriter"]

_CREATE_CALLS = (["pl", "create_tensor"], ["pl", "tensor", "create"])
_JIT_HINT = ("A @pl.jit body can use ints, floats, bools, dtypes, pl enums, pl.dynamic dims "
             "and lists of them from its namespace, and call other @pl.jit functions")


# The DSL modules the parser knows by their canonical names, whatever the user calls them.
_DSL_MODULES = {"pypto.language": "pl", "pypto.language.distributed": "pld"}


def _dsl_module_name(value: Any) -> Optional[str]:
    """``"pl"`` / ``"pld"`` when ``value`` is that module."""
    name = getattr(value, "__name__", None) if isinstance(value, types.ModuleType) else None
    return _DSL_MODULES.get(name) if name is not None else None


def _is_bind_dynamic(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
        and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "bind_dynamic"


def _has_bare_tensor(node: ast.expr) -> bool:
    subscripted = {id(sub.value) for sub in ast.walk(node) if isinstance(sub, ast.Subscript)}
    return any(annotation_head(sub) == "Tensor" and id(sub) not in subscripted
               for sub in ast.walk(node) if isinstance(sub, (ast.Name, ast.Attribute)))


class FunctionRewriter(ast.NodeTransformer):
    """Rewrites the body of one instance (a function under one parameter typing)."""

    def __init__(self, builder: "BuilderBase", instance: "Instance") -> None:
        self.builder = builder
        self.instance = instance
        self.facts = instance.facts
        self.info = instance.facts.info
        self.namespace = instance.jit.namespace
        self.params = frozenset(self.facts.param_index)
        self.env: dict[str, ValueType] = {p.name: p.type for p in instance.plans
                                          if p.type is not None}
        self.substitutions: dict[str, Callable[[], ast.expr]] = {}
        for plan in instance.plans:
            if plan.value is not NOT_SUBSTITUTED:
                self.substitutions[plan.name] = functools.partial(literal_ast, plan.value)
        for name, dyn in self.facts.local_dynamic.items():
            self.substitutions[name] = functools.partial(self._dyn_name, dyn)
        self.in_annotation = False

    # -- the function ----------------------------------------------------------------------
    def rewrite(self) -> ast.FunctionDef:
        original = self.facts.node
        node = copy.deepcopy(original)
        arguments = list(node.args.args)
        self_arg = locate(ast.arg(arg="self", annotation=None, type_comment=None), original)
        node.args.args = [self_arg] + [self._param(arg, plan)
                                       for arg, plan in zip(arguments, self.instance.plans)]
        node.args.defaults = []
        node.body = self._block(node.body, anchor=original)
        node.returns = self._returns(node.returns)
        anchor = original.decorator_list[0] if original.decorator_list else original
        decorator = pyast.parse(emitted_decorator(self.instance.jit.kind,
                                                self.instance.jit.options), mode="eval").body
        node.decorator_list = [locate(decorator, anchor)]
        node.name = self.instance.name
        return node

    def _param(self, arg: ast.arg, plan: ParamPlan) -> ast.arg:
        # An inline function is spliced into its callers, so its parameters have no
        # direction: PyPTO writes pl.Out[T] / pl.InOut[T] of an inline function as T.
        spliced = self.instance.jit.kind is JitKind.INLINE
        annotation: Optional[ast.expr]
        if plan.rewrite_annotation:
            if plan.type is None:
                raise InternalError(f"parameter '{plan.name}': an annotation to write "
                                    "without a type")
            self._register_dims(plan.type)
            direction = ParamDirection.In if spliced else plan.direction
            annotation = locate(type_annotation(plan.type, direction), arg.annotation or arg)
        else:
            annotation = self._annotation(arg.annotation)
            if spliced and isinstance(annotation, ast.Subscript) \
                    and annotation_head(annotation.value) in ("Out", "InOut"):
                annotation = annotation.slice
        arg.annotation = annotation
        return arg

    def _annotation(self, node: Optional[ast.expr]) -> Optional[ast.expr]:
        """Inline namespace values into a signature annotation (parameters are in scope)."""
        if node is None:
            return None
        saved, self.in_annotation = self.in_annotation, True
        try:
            return self.visit(parse_string_annotation(node))
        finally:
            self.in_annotation = saved

    def _block(self, statements: list[ast.stmt], anchor: ast.AST) -> list[ast.stmt]:
        result: list[ast.stmt] = []
        for statement in statements:
            produced = self.visit(statement)
            if produced is None:
                continue
            result.extend(produced if isinstance(produced, list) else [produced])
        if not result:
            result = [locate(ast.Pass(), statements[0] if statements else anchor)]
        return result

    def generic_visit(self, node: Node) -> Node:  # (it returns the node it is given)
        had_body = isinstance(node, ast.stmt) and bool(getattr(node, "body", None))
        super().generic_visit(node)
        if had_body and isinstance(node.body, list) and not node.body:  # type: ignore[attr-defined]
            node.body = [locate(ast.Pass(), node)]  # type: ignore[attr-defined]
        return node

    # -- names -------------------------------------------------------------------------------
    def _is_local(self, name: str) -> bool:
        return name in (self.params if self.in_annotation else self.facts.local_names)

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if not isinstance(node.ctx, ast.Load):
            return node
        if not self.in_annotation:
            substitute = self.substitutions.get(node.id)
            if substitute is not None:
                return locate(substitute(), node)
        if self._is_local(node.id):
            return node
        try:
            value = self.namespace.lookup(node.id)
        except KeyError:
            return self._unbound(node, node.id)
        return self._inline(value, node, node.id)

    def _unbound(self, node: ast.expr, name: str) -> ast.expr:
        """Builtins the parser evaluates stay; anything else is undefined.  (The text
        parser would make an unknown name a dynamic dim, hiding the user's typo.)"""
        if name in SAFE_BUILTINS or name in _DSL_MODULES.values():
            return node
        raise user_error(UndefinedVariableError, f"Undefined variable '{name}'", self.info, node)

    def _inline(self, value: Any, node: ast.expr, written: str) -> ast.expr:
        from ..language.typing import AnnotationRecord
        from .decorator import JITFunction
        module = _dsl_module_name(value)
        if module is not None:
            return locate(ast.Name(id=module, ctx=ast.Load()), node)
        if isinstance(value, JITFunction):
            raise user_error(ParserSyntaxError, f"@{value.kind.spelling} function '{written}' can "
                             "only be called by name (or passed to pl.submit)", self.info, node)
        if is_literal(value):
            self._register_value(value)
            return locate(literal_ast(value), node)
        if self.in_annotation and isinstance(value, AnnotationRecord):
            # a type alias (`T = pl.Tensor[...]`): spell it out, then inline its own names
            return self.visit(locate(value.to_ast(), node))
        raise user_error(ParserTypeError, f"Unsupported closure variable type: "
                         f"{type(value).__name__} ('{written}')", self.info, node, hint=_JIT_HINT)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        """``kern(...)`` / ``pl.submit(kern, ...)`` of a ``@pl.jit`` function become
        ``self.kern(...)`` / ``pl.submit(self.kern, ...)``; the parser asks the builder
        for the method (``ProgramContext.call_resolver``)."""
        callee = self._jit_named(node.func, node)
        if callee is not None:
            node.func = self_method(cast(ast.Name, node.func).id, node.func)  # (a Name, then)
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            return node
        if attr_chain(node.func) in SUBMIT_CALLS and node.args:
            first = node.args[0]
            if self._jit_named(first, first) is not None:  # so ``first`` is a Name
                node.func = self.visit(node.func)
                node.args = [self_method(cast(ast.Name, first).id, first)] + \
                    [self.visit(a) for a in node.args[1:]]
                node.keywords = [self.visit(k) for k in node.keywords]
                return node
        return self.generic_visit(node)

    def _jit_named(self, node: ast.expr, site: ast.AST) -> Any:
        """The dependency ``node`` names (the builder decides what is one), or None."""
        if not isinstance(node, ast.Name) or self._is_local(node.id) \
                or node.id in self.substitutions:
            return None
        return self.builder.dependency(self.instance, node.id, site)

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        chain = attr_chain(node)
        if chain is None or not isinstance(node.ctx, ast.Load):
            return self.generic_visit(node)
        root = chain[0]
        if not self.in_annotation and root in self.substitutions:
            return self.generic_visit(node)
        if self._is_local(root):
            if len(chain) == 2 and chain[1] in ("shape", "dtype"):
                known = self.env.get(root)
                if isinstance(known, TensorInfo):
                    return self._tensor_property(known, chain[1], node)
            return node
        try:
            value = self.namespace.lookup(root)
        except KeyError:
            return self._unbound(node, root)
        module = _dsl_module_name(value)
        if module is not None:
            if root != module:
                base = node
                while isinstance(base.value, ast.Attribute):
                    base = base.value
                base.value = locate(ast.Name(id=module, ctx=ast.Load()), base.value)
            return node
        for depth, attr in enumerate(chain[1:], 1):
            try:
                value = getattr(value, attr)
            except AttributeError:
                raise user_error(ParserTypeError, f"'{'.'.join(chain[:depth])}' has no attribute "
                                 f"'{attr}'", self.info, node) from None
        return self._inline(value, node, ".".join(chain))

    def _tensor_property(self, known: TensorInfo, prop: str, node: ast.expr) -> ast.expr:
        if prop == "dtype":
            return locate(literal_ast(known.dtype), node)
        elements = [self._dim_ast(dim) for dim in known.dims]
        return locate(ast.List(elts=elements, ctx=ast.Load()), node)

    def _dim_ast(self, dim: Any) -> ast.expr:
        self._register_dim(dim)
        if isinstance(dim, ExprDim):
            return pyast.parse(dim.text, mode="eval").body
        return literal_ast(dim)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        base = node.value
        if isinstance(node.ctx, ast.Load) and isinstance(base, ast.Attribute) \
                and base.attr == "shape" and isinstance(base.value, ast.Name) \
                and self._is_local(base.value.id) and base.value.id not in self.substitutions:
            known = self.env.get(base.value.id)
            axis = int_literal(node.slice)
            if isinstance(known, TensorInfo) and axis is not None:
                return locate(self._dim_ast(self._dim_at(known, axis, base.value.id, node)), node)
        return self.generic_visit(node)

    def _dim_at(self, known: TensorInfo, axis: int, name: str, node: ast.AST) -> Any:
        index = axis + known.rank if axis < 0 else axis
        if not 0 <= index < known.rank:
            raise user_error(ParserSyntaxError, f"{name}.shape[{axis}] is out of range: '{name}' "
                             f"has rank {known.rank}", self.info, node)
        return known.dims[index]

    # -- statements ----------------------------------------------------------------------------
    def visit_Expr(self, node: ast.Expr) -> Optional[ast.stmt]:
        if _is_bind_dynamic(node):
            return None
        return self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> Any:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id in self.facts.local_dynamic:
            return None  # ``M = pl.dynamic("M")``: M names the dynamic dim from now on
        constant = self._shape_constant(node)
        if constant is not None:
            return constant or None
        original = node.value
        node.value = self.visit(original)
        known = self._type_of(original, node.value)
        node.targets = [self.visit(target) for target in node.targets]
        for target in node.targets:
            if isinstance(target, ast.Name) and known is not None:
                self.env[target.id] = known  # an unknown new value keeps the old reading
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.stmt:
        node.annotation = self.visit(parse_string_annotation(node.annotation))
        if node.value is not None:
            node.value = self.visit(node.value)
        if isinstance(node.target, ast.Name):
            known = read_annotation(node.annotation, self.builder.dyn_lookup,
                                    self.facts.local_names.__contains__).type
            if known is not None:
                self.env.setdefault(node.target.id, known)
        return node

    def _shape_constant(self, node: ast.Assign) -> Optional[list[ast.stmt]]:
        """``n = x.shape[k]`` & co: None when not such an assignment; [] when the names
        became constants; a list of plain assignments when a name is bound again later."""
        if len(node.targets) != 1:
            return None
        target = node.targets[0]
        constant = self._constant_values(node.value)
        if constant is None:
            return None
        pairs: list[tuple[ast.Name, Any]]
        if isinstance(target, ast.Name) and not isinstance(constant, list):
            pairs = [(target, constant)]
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(constant, list):
            names = [elt for elt in target.elts if isinstance(elt, ast.Name)]
            if len(names) != len(target.elts) or len(names) != len(constant):
                return None
            pairs = list(zip(names, constant))
        else:
            return None
        names = [name for name, _ in pairs]
        values = [value for _, value in pairs]
        if all(self.facts.binding_counts.get(n.id) == 1 and n.id not in self.params
               for n in names):
            for name, dim in zip(names, values):
                self.substitutions[name.id] = functools.partial(self._dim_ast, dim)
            return []
        return [locate(ast.Assign(targets=[ast.Name(id=n.id, ctx=ast.Store())],
                                  value=self._dim_ast(d), type_comment=None), n)
                for n, d in zip(names, values)]

    def _constant_values(self, value: ast.expr) -> Any:
        """The dim (``x.shape[k]``), dims (``x.shape``) or dtype (``x.dtype``) an
        expression denotes, for a tensor of known type; None otherwise."""
        subscript_axis = None
        if isinstance(value, ast.Subscript):
            subscript_axis = int_literal(value.slice)
            if subscript_axis is None:
                return None
            value = value.value
        if not (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                and value.attr in ("shape", "dtype") and self._is_local(value.value.id)
                and value.value.id not in self.substitutions):
            return None
        known = self.env.get(value.value.id)
        if not isinstance(known, TensorInfo):
            return None
        if value.attr == "dtype":
            return None if subscript_axis is not None else known.dtype
        if subscript_axis is None:
            return list(known.dims)
        return self._dim_at(known, subscript_axis, value.value.id, value)

    # -- types of values ---------------------------------------------------------------------
    def _type_of(self, original: ast.expr, rewritten: ast.expr) -> Optional[ValueType]:
        """What the specializer knows of a value's type, for ``x.shape`` / ``x.dtype``."""
        if isinstance(original, ast.Name) and self._is_local(original.id):
            return self.env.get(original.id)
        if isinstance(rewritten, ast.Call) and attr_chain(rewritten.func) in _CREATE_CALLS:
            return self._created_tensor(rewritten)
        return None

    def _created_tensor(self, call: ast.Call) -> Optional[TensorInfo]:
        """The type of ``pl.create_tensor([dims], dtype[, layout])`` with literal arguments
        (``dtype=`` / ``layout=`` by keyword too)."""
        arguments: list[Optional[ast.expr]] = list(call.args)
        for keyword in call.keywords:
            position = {"shape": 0, "dtype": 1, "layout": 2}.get(keyword.arg or "")
            if position is None:
                continue
            while len(arguments) <= position:
                arguments.append(None)
            arguments[position] = keyword.value
        if arguments[2:3] == [None]:
            arguments = arguments[:2]
        given = [a for a in arguments if a is not None]
        if not 2 <= len(arguments) <= 3 or len(given) != len(arguments):
            return None
        fake = ast.Subscript(value=ast.Name(id="Tensor", ctx=ast.Load()),
                             slice=ast.Tuple(elts=given, ctx=ast.Load()), ctx=ast.Load())
        known = read_annotation(fake, self.builder.dyn_lookup,
                                self.facts.local_names.__contains__).type
        return known if isinstance(known, TensorInfo) else None

    # -- return annotation -------------------------------------------------------------------------
    def _returns(self, written: Optional[ast.expr]) -> Optional[ast.expr]:
        """A full return annotation wins; none (or a bare ``pl.Tensor``) is inferred from the
        parsed ``return`` values."""
        annotation = None if written is None else parse_string_annotation(written)
        if annotation is not None and not _has_bare_tensor(annotation):
            return self._annotation(annotation)
        self.instance.infer_returns = True
        self.instance.bare_return = annotation
        return None

    # -- dynamic dims ------------------------------------------------------------------------------
    def _register_dims(self, value_type: ValueType) -> None:
        if isinstance(value_type, TensorInfo):
            for dim in value_type.dims:
                self._register_dim(dim)

    def _register_dim(self, dim: Any) -> None:
        if isinstance(dim, DynVar):
            self.builder.register_dyn(dim)
        elif isinstance(dim, ExprDim):
            for dyn in dim.dyn_vars:
                self.builder.register_dyn(dyn)

    def _dyn_name(self, dyn: DynVar) -> ast.expr:
        self.builder.register_dyn(dyn)
        return ast.Name(id=dyn.name, ctx=ast.Load())

    def _register_value(self, value: Any) -> None:
        if isinstance(value, DynVar):
            self.builder.register_dyn(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                self._register_value(item)


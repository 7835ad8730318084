"""Rewrite one ``@pl.jit`` function for one specialization (01-language.md §17.3).

Works on a copy of the user's ``FunctionDef``:

* parameter annotations: bare ``pl.Tensor`` (and ``bind_dynamic``-ed ones) become
  full ``pl.Tensor[[...], dtype]`` types; the others keep their text, names inlined;
* ``x.bind_dynamic(axis, M)`` statements are dropped;
* ``x.shape[k]``, ``x.shape``, ``x.dtype`` become literals (or the dynamic dim's name);
  ``n = x.shape[k]`` / ``a, b = x.shape`` / ``dt = x.dtype`` with single-binding
  targets turn the names themselves into constants;
* concrete scalar parameters are substituted in the body;
* namespace values (ints, floats, bools, dtypes, enums, ``pl.dynamic`` dims, lists
  of them, ``module.attr`` chains) are inlined; ``pl`` under another name is renamed;
* calls of ``@pl.jit`` dependencies become ``self.<method>(...)``, their bare tensor
  parameters typed from the call's arguments;
* a missing (or bare) return annotation is inferred from the returned names.

Every node keeps the position of the user's node it came from, so the source map
can send diagnostics back to the user's code.
"""

from __future__ import annotations

import ast
import copy
import sys
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..errors import InternalError
from ..language.parser.closure import SAFE_BUILTINS
from ..language.parser.diagnostics import (ParserSyntaxError, ParserTypeError,
                                           UndefinedVariableError)
from ..language.typing import DynVar
from .analysis import user_error
from .ast_utils import locate
from .kinds import emitted_decorator
from .literals import is_literal, literal_ast
from .param_types import (ExprDim, TensorInfo, ValueType, annotation_head, attr_chain,
                          int_literal, parse_string_annotation, read_annotation,
                          type_annotation)
from .rewrite_calls import DependencyCalls
from .signature import NOT_SUBSTITUTED, ParamPlan

if TYPE_CHECKING:
    from .specialize import Instance, ProgramBuilder

__all__ = ["FunctionRewriter"]

_CREATE_CALLS = (["pl", "create_tensor"], ["pl", "tensor", "create"])
_JIT_HINT = ("A @pl.jit body can use ints, floats, bools, dtypes, pl enums, pl.dynamic dims "
             "and lists of them from its namespace, and call other @pl.jit functions")


def _pl_module() -> Any:
    return sys.modules["pypto.language"]


def _is_bind_dynamic(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
        and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "bind_dynamic"


def _has_bare_tensor(node: ast.expr) -> bool:
    subscripted = {id(sub.value) for sub in ast.walk(node) if isinstance(sub, ast.Subscript)}
    return any(annotation_head(sub) == "Tensor" and id(sub) not in subscripted
               for sub in ast.walk(node) if isinstance(sub, (ast.Name, ast.Attribute)))


def _portable(value_type: Optional[ValueType]) -> Optional[ValueType]:
    """A callee's return type as the caller may use it: not if its shape is written in
    the callee's own names."""
    if isinstance(value_type, TensorInfo) and any(
            isinstance(dim, ExprDim) and dim.local_names for dim in value_type.dims):
        return None
    return value_type


class FunctionRewriter(DependencyCalls, ast.NodeTransformer):
    """Rewrites the body of one instance (a function under one parameter typing)."""

    def __init__(self, builder: "ProgramBuilder", instance: "Instance") -> None:
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
                self.substitutions[plan.name] = (lambda v=plan.value: literal_ast(v))
        self.call_results: dict[int, "Instance"] = {}
        self.return_candidates: list[list[Optional[ValueType]]] = []
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
        decorator = ast.parse(emitted_decorator(self.instance.jit.kind,
                                                self.instance.jit.options), mode="eval").body
        node.decorator_list = [locate(decorator, anchor)]
        node.name = self.instance.name
        return node

    def _param(self, arg: ast.arg, plan: ParamPlan) -> ast.arg:
        if plan.rewrite_annotation:
            if plan.type is None:
                raise InternalError(f"parameter '{plan.name}': an annotation to write "
                                    "without a type")
            self._register_dims(plan.type)
            annotation = locate(type_annotation(plan.type, plan.direction), arg.annotation or arg)
        else:
            annotation = self._annotation(arg.annotation)
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

    def generic_visit(self, node: ast.AST) -> ast.AST:
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
        if name in SAFE_BUILTINS or name == "pl":
            return node
        raise user_error(UndefinedVariableError, f"Undefined variable '{name}'", self.info, node)

    def _inline(self, value: Any, node: ast.expr, written: str) -> ast.expr:
        from ..language.typing import AnnotationRecord
        from .decorator import JITFunction
        if value is _pl_module():
            return locate(ast.Name(id="pl", ctx=ast.Load()), node)
        if isinstance(value, JITFunction):
            raise user_error(ParserSyntaxError, f"@{value.kind.spelling} function '{written}' can "
                             "only be called by name (or passed to pl.submit)", self.info, node)
        if is_literal(value):
            self._register_value(value)
            return locate(literal_ast(value), node)
        if self.in_annotation and isinstance(value, AnnotationRecord):
            # a type alias (`T = pl.Tensor[...]`): spell it out, then inline its own names
            return self.visit(locate(value.to_ast(), node))  # type: ignore[return-value]
        raise user_error(ParserTypeError, f"Unsupported closure variable type: "
                         f"{type(value).__name__} ('{written}')", self.info, node, hint=_JIT_HINT)

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        chain = attr_chain(node)
        if chain is None or not isinstance(node.ctx, ast.Load):
            return self.generic_visit(node)  # type: ignore[return-value]
        root = chain[0]
        if not self.in_annotation and root in self.substitutions:
            return self.generic_visit(node)  # type: ignore[return-value]
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
        if value is _pl_module():
            if root != "pl":
                base = node
                while isinstance(base.value, ast.Attribute):
                    base = base.value
                base.value = locate(ast.Name(id="pl", ctx=ast.Load()), base.value)
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
            return ast.parse(dim.text, mode="eval").body
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
        return self.generic_visit(node)  # type: ignore[return-value]

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
        return self.generic_visit(node)  # type: ignore[return-value]

    def visit_Assign(self, node: ast.Assign) -> Any:
        constant = self._shape_constant(node)
        if constant is not None:
            return constant or None
        original = node.value
        node.value = self.visit(original)
        types = self._types_of(original, node.value)
        node.targets = [self.visit(target) for target in node.targets]
        for target in node.targets:
            self._bind(target, types)
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

    def visit_Return(self, node: ast.Return) -> ast.stmt:
        if node.value is None:
            self.return_candidates.append([])
            return node
        originals = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        originals = list(originals)
        node.value = self.visit(node.value)
        rewritten = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        if len(rewritten) == len(originals):
            self.return_candidates.append([self._type_of(o, r)
                                           for o, r in zip(originals, rewritten)])
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
        if isinstance(target, ast.Name) and not isinstance(constant, list):
            pairs = [(target, constant)]
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(constant, list) \
                and len(target.elts) == len(constant) \
                and all(isinstance(elt, ast.Name) for elt in target.elts):
            pairs = list(zip(target.elts, constant))
        else:
            return None
        names = [name for name, _ in pairs]
        values = [value for _, value in pairs]
        if all(self.facts.binding_counts.get(n.id) == 1 and n.id not in self.params
               for n in names):
            for name, dim in zip(names, values):
                self.substitutions[name.id] = (lambda d=dim: self._dim_ast(d))
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

    # -- types of values -------------------------------------------------------------------------
    def _bind(self, target: ast.expr, types: list[Optional[ValueType]]) -> None:
        if isinstance(target, ast.Name):
            if len(types) == 1 and types[0] is not None:
                self.env.setdefault(target.id, types[0])
        elif isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == len(types):
            for element, element_type in zip(target.elts, types):
                self._bind(element, [element_type])

    def _types_of(self, original: ast.expr, rewritten: ast.expr) -> list[Optional[ValueType]]:
        instance = self.call_results.get(id(rewritten))
        if instance is not None:
            if instance.return_types is None:
                return [None]
            return [_portable(t) for t in instance.return_types]
        return [self._type_of(original, rewritten)]

    def _type_of(self, original: ast.expr, rewritten: ast.expr) -> Optional[ValueType]:
        if isinstance(original, ast.Name) and self._is_local(original.id):
            return self.env.get(original.id)
        instance = self.call_results.get(id(rewritten))
        if instance is not None:
            returns = instance.return_types
            return _portable(returns[0]) if returns is not None and len(returns) == 1 else None
        if isinstance(rewritten, ast.Call) and attr_chain(rewritten.func) in _CREATE_CALLS:
            return self._created_tensor(rewritten)
        return None

    def _created_tensor(self, call: ast.Call) -> Optional[TensorInfo]:
        """The type of ``pl.create_tensor([dims], dtype[, layout])`` with literal arguments."""
        arguments = list(call.args)
        if not 2 <= len(arguments) <= 3 or call.keywords:
            return None
        fake = ast.Subscript(value=ast.Name(id="Tensor", ctx=ast.Load()),
                             slice=ast.Tuple(elts=arguments, ctx=ast.Load()), ctx=ast.Load())
        known = read_annotation(fake, self.builder.dyn_lookup,
                                self.facts.local_names.__contains__).type
        return known if isinstance(known, TensorInfo) else None

    # -- return annotation -------------------------------------------------------------------------
    def _returns(self, written: Optional[ast.expr]) -> Optional[ast.expr]:
        annotation = None if written is None else parse_string_annotation(written)
        if annotation is not None and not _has_bare_tensor(annotation):
            new = self._annotation(annotation)
            self.instance.return_types = self._declared_returns(new)
            return new
        inferred = next((c for c in self.return_candidates
                         if c and all(t is not None for t in c)), None)
        if inferred is None:
            if annotation is not None:
                raise user_error(ParserTypeError, f"Cannot infer the return type of "
                                 f"'{self.facts.name}' for its bare pl.Tensor return annotation",
                                 self.info, annotation,
                                 hint="Return parameters or values whose type is known, or "
                                      "write the full return type")
            no_values = all(not c for c in self.return_candidates)
            self.instance.return_types = () if no_values else None
            return None
        self.instance.return_types = tuple(inferred)  # type: ignore[arg-type]
        for value_type in inferred:
            self._register_dims(value_type)  # type: ignore[arg-type]
        parts = [type_annotation(t) for t in inferred]  # type: ignore[arg-type]
        if len(parts) == 1:
            built = parts[0]
        else:
            built = ast.Subscript(value=ast.Name(id="tuple", ctx=ast.Load()),
                                  slice=ast.Tuple(elts=parts, ctx=ast.Load()), ctx=ast.Load())
        return locate(built, annotation if annotation is not None else self.facts.node)

    def _declared_returns(self, annotation: ast.expr) -> Optional[tuple]:
        items = [annotation]
        if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) \
                and annotation.value.id == "tuple":
            inner = annotation.slice
            items = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
        found = tuple(read_annotation(item, self.builder.dyn_lookup, self.params.__contains__).type
                      for item in items)
        return found

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

    def _register_value(self, value: Any) -> None:
        if isinstance(value, DynVar):
            self.builder.register_dyn(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                self._register_value(item)


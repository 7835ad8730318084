"""One specialization: the entry and the dependencies it calls, parsed into one
``ir.Program`` (01-language.md §17.3).

Each function is rewritten for its parameter types (``rewrite``), its rebindings are
versioned (``versions``), and the rewritten ``FunctionDef`` -- which keeps the user's
positions -- is parsed directly by the DSL parser against the user's own source, so
every span and diagnostic is in the user's file.  No program text is generated.

A dependency becomes one method per distinct typing of its bare parameters (an
*instance*).  Instances are made on demand: when the parser meets a call of a
``@pl.jit`` function it hands the call to ``ProgramBuilder.resolve`` with the argument
ASTs; the builder parses the arguments, types the callee's bare parameters from their
IR types (any expression the parser types works: parameters, ``pl.create_tensor``
results, slices, views, tensor-op and kernel results, tuple elements), and parses the
callee for that typing before the caller goes on.  Instances are named after the
function (``kern``, ``kern__2``, ... on clashes; the entry keeps its name).
"""

from __future__ import annotations

import abc
import ast
import keyword
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from ..errors import InternalError
from ..ir import expr as E
from ..ir.enums import TensorLayout
from ..ir.function import Function, Program
from ..ir.node import GlobalVar
from ..ir.span import Span
from ..ir.stmt import ReturnStmt
from ..ir.types import ScalarType, TensorType
from ..ir.walk import iter_stmts, var_uses
from ..language.parser.closure import Closure
from ..language.parser.context import ProgramContext
from ..language.parser.diagnostics import ParserError, ParserTypeError
from ..language.parser.function_parser import FunctionParser
from ..language.typing import DynVar
from .analysis import FunctionFacts, user_error
from .codegen import program_class_name
from .dependency_calls import order_arguments
from .deps import Specializable, check_callable
from .inherited_dims import inherited_dynamic_dims
from .kinds import function_options
from .param_types import AnnotationInfo, ExprDim, ScalarInfo, TensorInfo, ValueType
from .rewrite import FunctionRewriter
from .signature import ParamPlan, plan_dependency, read_param_annotations
from .versions import version_rebindings

if TYPE_CHECKING:
    from .decorator import JITFunction

__all__ = ["Instance", "BuilderBase", "ProgramBuilder", "specialize_program", "value_type"]

_INFER_HINT = ("Pass a tensor whose shape the callee can state (its dims are literals or "
               "pl.dynamic dims), or annotate '{param}' with a full pl.Tensor[[...], dtype]")


@dataclass(eq=False)
class Instance:
    """One method of the program: a function under one parameter typing."""

    jit: Specializable
    facts: FunctionFacts
    plans: list[ParamPlan]
    name: str
    node: Optional[ast.FunctionDef] = None  # rewritten and versioned
    function: Optional[Function] = None  # None while it is being parsed
    infer_returns: bool = False
    bare_return: Optional[ast.expr] = None  # a ``-> pl.Tensor`` to infer
    renames: dict[str, list[str]] = field(default_factory=dict)

    @property
    def rewritten(self) -> ast.FunctionDef:
        """``node``, which ``BuilderBase.realize`` sets before anything reads it."""
        if self.node is None:
            raise InternalError(f"@pl.jit: '{self.name}' is read before it is rewritten")
        return self.node


class BuilderBase(abc.ABC):
    """Parses rewritten functions into one program; the parser's ``call_resolver``.

    Subclasses say what a called name means (``dependency``) and which instance a
    call gets (``resolve``).
    """

    def __init__(self, program_name: str) -> None:
        self.instances: list[Instance] = []
        self.dyn_vars: dict[str, DynVar] = {}
        self.context = ProgramContext(name=program_name, in_program=True,
                                      call_resolver=self.resolve)

    def program(self, entry: Instance, span: Span) -> Program:
        """The realized instances, dependencies by name and ``entry`` last."""
        dependencies = sorted((i for i in self.instances if i is not entry), key=lambda i: i.name)
        functions = [i.function for i in dependencies] + [entry.function]
        return Program(functions, self.context.name, span)  # type: ignore[arg-type]

    @abc.abstractmethod
    def dependency(self, instance: Instance, name: str, site: ast.AST) -> Any:
        """The dependency ``name`` means in ``instance``'s body (checked), or None."""

    @abc.abstractmethod
    def resolve(self, parser: FunctionParser, name: str, callee: Any, arg_nodes: list[ast.expr],
                keyword_nodes: list[ast.keyword], call: ast.Call) -> tuple:
        """``(GlobalVar, Function, parsed args)`` for a call of the dependency ``callee``."""

    # -- one instance --------------------------------------------------------------------
    def realize(self, instance: Instance) -> None:
        """Rewrite and parse ``instance``; its dependencies are made while it parses."""
        self.instances.append(instance)
        node = instance.node = FunctionRewriter(self, instance).rewrite()
        instance.renames = version_rebindings(node)
        self.context.global_vars[instance.name] = GlobalVar(instance.name)
        info = instance.facts.info
        parser = FunctionParser(info, Closure(self._closure(instance)), self.context,
                                function_options(instance.jit.kind, instance.jit.options))
        try:
            function = parser.parse_function(node, name=instance.name)
        except ParserError as err:
            if getattr(err, "source_lines", None) is None:
                err.with_source_lines(info.file_lines)
            raise
        if instance.infer_returns:
            function = _with_inferred_returns(function)
            if instance.bare_return is not None and not function.return_types:
                raise user_error(ParserTypeError, f"Cannot infer the return type of "
                                 f"'{instance.facts.name}' for its bare pl.Tensor return "
                                 "annotation: it returns no value", info, instance.bare_return,
                                 hint="Return a value, or drop the annotation")
        instance.function = self.context.functions[instance.name] = function

    def _closure(self, instance: Instance) -> dict[str, Any]:
        """What the rewritten body's remaining free names mean: ``pl``, the dynamic dims
        and the dependencies it calls (everything else is inlined)."""
        import pypto.language as pl
        import pypto.language.distributed as pld
        closure: dict[str, Any] = {"pl": pl, "pld": pld}
        closure.update(self.dyn_vars)
        for name, site in instance.facts.calls.items():
            value = self.dependency(instance, name, site)
            if value is not None:
                closure[name] = value
        return closure

    # -- dynamic dims ------------------------------------------------------------------------
    def register_dyn(self, dyn: DynVar) -> None:
        if dyn.name not in self.dyn_vars and (keyword.iskeyword(dyn.name) or dyn.name == "pl"):
            # The body refers to each dynamic dim by its name.
            raise ValueError(f"pl.dynamic({dyn.name!r}): @pl.jit cannot use '{dyn.name}' as "
                             "the name of a dynamic dim; choose another name")
        self.dyn_vars.setdefault(dyn.name, dyn)

    def dyn_lookup(self, name: str) -> Any:
        """Names left in rewritten annotations are dynamic dims (or DSL names)."""
        return self.dyn_vars[name]


class ProgramBuilder(BuilderBase):
    """The program of one ``JITFunction`` specialization: one instance per distinct
    typing of each dependency, made when the parser meets its call."""

    def __init__(self, entry: "JITFunction", entry_plans: list[ParamPlan]) -> None:
        super().__init__(program_class_name(entry.__name__))
        self.entry = entry
        self.entry_plans = entry_plans
        self._by_key: dict[tuple, Instance] = {}
        self._names: set[str] = set()
        self._annotations: dict[int, list[AnnotationInfo]] = {}

    def build(self) -> Program:
        facts = self.entry.facts()
        entry = Instance(self.entry, facts, self.entry_plans, self.entry.__name__)
        self._names.add(entry.name)
        self._by_key[self._key(self.entry, entry.plans)] = entry
        self.realize(entry)
        return self.program(entry, _program_span(facts))

    def annotations(self, jit: "JITFunction") -> list[AnnotationInfo]:
        found = self._annotations.get(id(jit))
        if found is None:
            found = self._annotations[id(jit)] = read_param_annotations(jit.facts(),
                                                                        jit.namespace)
        return found

    # -- calls of dependencies (the parser's call_resolver) ------------------------------------
    def dependency(self, instance: Instance, name: str, site: ast.AST) -> Any:
        """The ``@pl.jit`` function ``name`` means in ``instance``'s body, checked against
        what its kind may call; None when it is not one."""
        from .decorator import JITFunction
        value = instance.jit.namespace.get(name)
        if not isinstance(value, JITFunction):
            return None
        check_callable(instance.jit, instance.facts, name, value, site)
        return value

    def resolve(self, parser: FunctionParser, name: str, callee: "JITFunction",
                arg_nodes: list[ast.expr], keyword_nodes: list[ast.keyword],
                call: ast.Call) -> tuple[GlobalVar, Function, list[Any]]:
        info = parser.info
        facts = callee.facts()
        ordered = order_arguments(info, name, facts, arg_nodes, keyword_nodes, call)
        args = [parser.parse_expr(node) for node in ordered]
        annotations = self.annotations(callee)
        inferred: dict[str, ValueType] = {}
        for param, annotation, node, arg in zip(facts.params, annotations, ordered, args):
            if annotation.bare:
                inferred[param.name] = self._argument_type(info, name, callee, param.name,
                                                           annotation, node, arg)
        plans = plan_dependency(facts, callee.namespace, annotations, inferred,
                                inherited_dynamic_dims(callee))
        key = self._key(callee, plans)
        instance = self._by_key.get(key)
        if instance is None:
            instance = Instance(callee, facts, plans, self._unique_name(callee.__name__))
            self._by_key[key] = instance
            self.realize(instance)
        elif instance.function is None:
            raise user_error(ParserTypeError, f"@{callee.kind.spelling} function '{name}' calls "
                             "itself (directly or through others); @pl.jit functions cannot "
                             "recurse", info, call)
        return self.context.global_vars[instance.name], instance.function, args  # type: ignore[return-value]

    def _argument_type(self, info: Any, name: str, callee: "JITFunction", param: str,
                       annotation: AnnotationInfo, node: ast.expr, arg: Any) -> ValueType:
        """The type a bare parameter takes from the parsed argument."""
        found = value_type(getattr(arg, "type", None), self.context.dyn_vars, self.dyn_vars)
        problem = None
        if isinstance(found, str):
            problem = found
        elif annotation.kind == "tensor" and not isinstance(found, TensorInfo):
            problem = "it is not a tensor"
        elif annotation.kind == "scalar" and not isinstance(found, ScalarInfo):
            problem = "it is not a scalar"
        if problem is not None:
            raise user_error(ParserTypeError, f"Cannot infer the type of parameter '{param}' of "
                             f"@{callee.kind.spelling} function '{name}' from the argument "
                             f"'{ast.unparse(node)}': {problem}", info, node,
                             hint=_INFER_HINT.format(param=param))
        return found  # type: ignore[return-value]

    @staticmethod
    def _key(jit: "JITFunction", plans: list[ParamPlan]) -> tuple:
        return (id(jit),) + tuple((plan.name, plan.type) for plan in plans)

    def _unique_name(self, base: str) -> str:
        name, suffix = base, 1
        while name in self._names:
            suffix += 1
            name = f"{base}__{suffix}"
        self._names.add(name)
        return name


def value_type(ir_type: Any, program_dims: dict[str, E.Var],
               dyn_dims: dict[str, DynVar]) -> "ValueType | str | None":
    """The specializer's reading of an IR type: a ``TensorInfo``/``ScalarInfo``, a reason
    (str) when its shape is written in the caller's own variables, else None.
    ``program_dims`` are the program's dynamic-dim Vars, ``dyn_dims`` their DynVars."""
    if isinstance(ir_type, ScalarType):
        return ScalarInfo(ir_type.dtype)
    if not isinstance(ir_type, TensorType):
        return None
    dims: list[Any] = []
    for dim in ir_type.shape:
        if isinstance(dim, E.ConstInt):
            dims.append(dim.value)
            continue
        used = var_uses(dim)
        foreign = sorted({v.name_hint for v in used if program_dims.get(v.name_hint) is not v})
        if foreign:
            return f"its shape depends on the caller's {', '.join(repr(n) for n in foreign)}"
        dyns = tuple(dyn_dims.get(v.name_hint) or DynVar(v.name_hint) for v in used)
        dims.append(dyns[0] if isinstance(dim, E.Var) else ExprDim(dim.as_python(), dyns))
    layout = getattr(ir_type.tensor_view, "layout", None)
    return TensorInfo(tuple(dims), ir_type.dtype,
                      layout if isinstance(layout, TensorLayout) else TensorLayout.ND)


def _with_inferred_returns(function: Function) -> Function:
    """``return`` values give the return types (the first ``return`` with values decides;
    a function without one returns nothing)."""
    for stmt in iter_stmts(function.body):
        if isinstance(stmt, ReturnStmt) and stmt.value:
            return function.replace(return_types=[value.type for value in stmt.value])
    return function


def _program_span(facts: FunctionFacts) -> Span:
    """The entry's first decorator, at the column of the ``@``."""
    node = facts.node
    info = facts.info
    first = node.decorator_list[0] if node.decorator_list else node
    return Span(info.filename, first.lineno + info.line_offset, node.col_offset + 1 + info.col_offset)


def specialize_program(entry: "JITFunction", entry_plans: list[ParamPlan]) -> Program:
    """The pre-pass ``ir.Program`` of one specialization."""
    program = ProgramBuilder(entry, entry_plans).build()
    if not isinstance(program, Program):
        raise InternalError("@pl.jit: the specialization is not a Program")
    return program

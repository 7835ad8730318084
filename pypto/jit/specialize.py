"""One specialization: the entry and its dependencies -> one ``@pl.program`` text ->
``pl.parse`` (01-language.md §17.3).

A dependency becomes one method per distinct typing of its bare tensor parameters
(an *instance*); instances are created depth-first as calls are met, named after the
function (``kern``, ``kern__2``, ... on clashes; the entry keeps its name), and
emitted in creation order with the entry last.
"""

from __future__ import annotations

import ast
import keyword
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from ..errors import InternalError
from ..ir._deep import deep_recursion
from ..ir.function import Program
from ..language.parser.diagnostics import ParserError
from ..language.parser.text_parser import parse
from ..language.typing import DynVar
from .analysis import FunctionFacts
from .codegen import attach_comments, build_module, unparse_module
from .param_types import AnnotationInfo, TensorInfo, ValueType
from .rewrite import FunctionRewriter
from .signature import ParamPlan, plan_dependency, read_param_annotations
from .source_map import JitSourceMap

if TYPE_CHECKING:
    from .decorator import JITFunction

__all__ = ["Instance", "ProgramBuilder", "GeneratedProgram", "generate_program",
           "specialize_program"]


@dataclass(eq=False)
class Instance:
    """One method of the generated program: a function under one parameter typing."""

    jit: "JITFunction"
    facts: FunctionFacts
    plans: list[ParamPlan]
    name: str
    node: Optional[ast.FunctionDef] = None
    # None while unknown (e.g. during a recursive call), () for no return value.
    return_types: Optional[tuple[Optional[ValueType], ...]] = None


@dataclass
class GeneratedProgram:
    text: str
    filename: str
    source_map: JitSourceMap
    instances: list[Instance] = field(default_factory=list)


class ProgramBuilder:
    def __init__(self, entry: "JITFunction", entry_plans: list[ParamPlan]) -> None:
        self.entry = entry
        self.entry_plans = entry_plans
        self.instances: list[Instance] = []
        self.dyn_vars: dict[str, DynVar] = {}
        self._by_key: dict[tuple, Instance] = {}
        self._names: set[str] = set()
        self._annotations: dict[int, list[AnnotationInfo]] = {}

    def build(self) -> list[Instance]:
        """All instances, dependencies in creation order, the entry last."""
        facts = self.entry.facts()
        entry = Instance(self.entry, facts, self.entry_plans, self.entry.__name__)
        self._names.add(entry.name)
        self._by_key[self._key(self.entry, entry.plans)] = entry
        entry.node = FunctionRewriter(self, entry).rewrite()
        return [i for i in self.instances if i is not entry] + [entry]

    def annotations(self, jit: "JITFunction") -> list[AnnotationInfo]:
        found = self._annotations.get(id(jit))
        if found is None:
            found = self._annotations[id(jit)] = read_param_annotations(jit.facts(),
                                                                        jit.namespace)
        return found

    def instance_for(self, jit: "JITFunction", inferred: dict[str, TensorInfo]) -> Instance:
        facts = jit.facts()
        plans = plan_dependency(facts, jit.namespace, self.annotations(jit), inferred)
        key = self._key(jit, plans)
        found = self._by_key.get(key)
        if found is not None:
            return found
        instance = Instance(jit, facts, plans, self._unique_name(jit.__name__))
        self._by_key[key] = instance
        self.instances.append(instance)
        instance.node = FunctionRewriter(self, instance).rewrite()
        return instance

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

    # -- dynamic dims ------------------------------------------------------------------------
    def register_dyn(self, dyn: DynVar) -> None:
        if dyn.name not in self.dyn_vars and (keyword.iskeyword(dyn.name) or dyn.name == "pl"):
            # The generated program binds each dynamic dim to a module-level name.
            raise ValueError(f"pl.dynamic({dyn.name!r}): @pl.jit cannot use '{dyn.name}' as "
                             "the name of a dynamic dim; choose another name")
        self.dyn_vars.setdefault(dyn.name, dyn)

    def dyn_lookup(self, name: str) -> Any:
        """Names left in rewritten annotations are dynamic dims (or DSL names)."""
        return self.dyn_vars[name]


def generate_program(entry: "JITFunction", entry_plans: list[ParamPlan]) -> GeneratedProgram:
    with deep_recursion():  # the AST rewrites recurse as deep as the user's code
        return _generate(entry, entry_plans)


def _generate(entry: "JITFunction", entry_plans: list[ParamPlan]) -> GeneratedProgram:
    builder = ProgramBuilder(entry, entry_plans)
    instances = builder.build()
    methods = [instance.node for instance in instances]
    module = build_module(entry.__name__, methods, builder.dyn_vars.values())  # type: ignore[arg-type]
    comments: dict[int, list[str]] = {}
    for instance in instances:
        attach_comments(instance.node, instance.facts.comments, comments)  # type: ignore[arg-type]
    text = unparse_module(module, comments)
    filename = f"<jit:{entry.__name__}>"
    try:
        reparsed = ast.parse(text, filename)
    except SyntaxError as exc:
        raise InternalError(f"@pl.jit generated invalid Python for '{entry.__name__}': "
                            f"{exc}\n{text}") from exc
    program_class = reparsed.body[-1]
    source_map = JitSourceMap(filename, entry.facts().info,
                              program_class.decorator_list[0].lineno)  # type: ignore[attr-defined]
    generated_methods = [node for node in program_class.body  # type: ignore[attr-defined]
                         if isinstance(node, ast.FunctionDef)]
    if len(generated_methods) != len(instances):
        raise InternalError("@pl.jit: generated methods do not match the instances")
    for generated, instance in zip(generated_methods, instances):
        source_map.add_function(generated, instance.node, instance.facts.info)  # type: ignore[arg-type]
    return GeneratedProgram(text, filename, source_map, instances)


def specialize_program(entry: "JITFunction", entry_plans: list[ParamPlan]) -> Program:
    """The pre-pass ``ir.Program`` of one specialization."""
    generated = generate_program(entry, entry_plans)
    try:
        result = parse(generated.text, filename=generated.filename,
                       source_map=generated.source_map)
    except ParserError as err:
        generated.source_map.relocate(err)
        raise
    except SyntaxError as exc:
        raise InternalError(f"@pl.jit generated text that does not compile: {exc}") from exc
    if not isinstance(result, Program):
        raise InternalError(f"@pl.jit: parsing the generated program gave {type(result).__name__}")
    return result

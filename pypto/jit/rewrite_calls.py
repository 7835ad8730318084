"""Calls of ``@pl.jit`` dependencies inside a body being specialised (§17.2, §17.3).

``kern(a, b)`` (and ``pl.submit(kern, a, b)``) becomes ``self.<method>(a, b)``: the
arguments are put in parameter order, the callee's bare tensor parameters are typed
from them, and the ``ProgramBuilder`` supplies the method for that typing.  Mixed into
``FunctionRewriter``, whose state (``namespace``, ``env``, ...) it uses.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from ..language.parser.diagnostics import ParserSyntaxError, ParserTypeError
from .analysis import SUBMIT_CALLS, user_error
from .ast_utils import self_method
from .deps import check_callable
from .param_types import ExprDim, TensorInfo, attr_chain

if TYPE_CHECKING:
    from .decorator import JITFunction
    from .specialize import Instance

__all__ = ["DependencyCalls"]

_MISSING = object()
_INFER_HINT = ("Pass a tensor whose type is known here (a parameter, a pl.create_tensor(...) "
               "result or the result of a @pl.jit call), or annotate '{param}' with a full "
               "pl.Tensor[[...], dtype]")


class DependencyCalls:
    """The call-rewriting part of ``FunctionRewriter``."""

    call_results: dict[int, "Instance"]

    def visit_Call(self, node: ast.Call) -> ast.expr:  # noqa: N802 - NodeTransformer hook
        callee = self._jit_named(node.func)
        if callee is not None:
            return self._dependency_call(node, node.func.id, callee)  # type: ignore[attr-defined]
        if attr_chain(node.func) in SUBMIT_CALLS and node.args:
            kernel = self._jit_named(node.args[0])
            if kernel is not None:
                return self._submit(node, node.args[0].id, kernel)  # type: ignore[attr-defined]
        return self.generic_visit(node)  # type: ignore[attr-defined, no-any-return]

    def _jit_named(self, node: ast.expr) -> Optional["JITFunction"]:
        from .decorator import JITFunction
        if not isinstance(node, ast.Name) or self._is_local(node.id) \
                or node.id in self.substitutions:  # type: ignore[attr-defined]
            return None
        value = self.namespace.get(node.id, _MISSING)  # type: ignore[attr-defined]
        return value if isinstance(value, JITFunction) else None

    def _dependency_call(self, node: ast.Call, name: str, callee: "JITFunction") -> ast.expr:
        check_callable(self.instance.jit, self.facts, name, callee, node)  # type: ignore[attr-defined]
        ordered, passthrough = self._ordered_arguments(node, name, callee, node.args,
                                                       node.keywords)
        instance, arguments = self._instantiate(name, callee, ordered)
        keywords = [self.visit(k) for k in passthrough]  # type: ignore[attr-defined]
        call = ast.Call(func=self_method(instance.name, node.func), args=arguments,
                        keywords=keywords)
        ast.copy_location(call, node)
        self.call_results[id(call)] = instance
        return call

    def _submit(self, node: ast.Call, name: str, callee: "JITFunction") -> ast.expr:
        check_callable(self.instance.jit, self.facts, name, callee, node.args[0])  # type: ignore[attr-defined]
        ordered, _ = self._ordered_arguments(node, name, callee, node.args[1:], [])
        instance, arguments = self._instantiate(name, callee, ordered)
        node.func = self.visit(node.func)  # type: ignore[attr-defined]
        node.args = [self_method(instance.name, node.args[0])] + arguments
        node.keywords = [self.visit(k) for k in node.keywords]  # type: ignore[attr-defined]
        return node

    def _ordered_arguments(self, node: ast.Call, name: str, callee: "JITFunction",
                           args: list[ast.expr], keywords: list[ast.keyword]
                           ) -> tuple[list[ast.expr], list[ast.keyword]]:
        """Arguments in the callee's parameter order; ``attrs=`` is passed through."""
        info = self.info  # type: ignore[attr-defined]
        facts = callee.facts()
        count = len(facts.params)
        if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in keywords):
            raise user_error(ParserSyntaxError, f"Calls of @pl.jit function '{name}' cannot "
                             "unpack arguments (*args / **kwargs)", info, node)
        slots: list[Optional[ast.expr]] = list(args) + [None] * max(0, count - len(args))
        passthrough = []
        for keyword in keywords:
            index = facts.param_index.get(keyword.arg)  # type: ignore[arg-type]
            if keyword.arg == "attrs":
                passthrough.append(keyword)
            elif index is None:
                raise user_error(ParserTypeError, f"Function '{name}' has no parameter "
                                 f"'{keyword.arg}'", info, keyword)
            elif slots[index] is not None:
                raise user_error(ParserTypeError, f"Function '{name}' got multiple values for "
                                 f"parameter '{keyword.arg}'", info, keyword)
            else:
                slots[index] = keyword.value
        if len(args) > count or any(slot is None for slot in slots):
            given = len(args) + sum(1 for k in keywords if k.arg != "attrs")
            raise user_error(ParserTypeError, f"Function '{name}' expects {count} argument(s), "
                             f"got {given}", info, node)
        return [slot for slot in slots if slot is not None], passthrough

    def _instantiate(self, name: str, callee: "JITFunction",
                     ordered: list[ast.expr]) -> tuple["Instance", list[ast.expr]]:
        """The callee's method for these arguments, and the rewritten arguments."""
        annotations = self.builder.annotations(callee)  # type: ignore[attr-defined]
        rewritten = [self.visit(argument) for argument in ordered]  # type: ignore[attr-defined]
        inferred: dict[str, TensorInfo] = {}
        for param, annotation, original, new in zip(callee.facts().params, annotations,
                                                    ordered, rewritten):
            if not annotation.bare:
                continue
            known = self._type_of(original, new)  # type: ignore[attr-defined]
            problem = None
            if not isinstance(known, TensorInfo):
                problem = "from the argument"
            elif any(isinstance(d, ExprDim) and d.local_names for d in known.dims):
                problem = "from the caller-dependent shape of the argument"
            if problem is not None:
                raise user_error(ParserTypeError, f"Cannot infer the type of parameter "
                                 f"'{param.name}' of @{callee.kind.spelling} function '{name}' "
                                 f"{problem} '{ast.unparse(original)}'",
                                 self.info, original,  # type: ignore[attr-defined]
                                 hint=_INFER_HINT.format(param=param.name))
            inferred[param.name] = known  # type: ignore[assignment]
        return self.builder.instance_for(callee, inferred), rewritten  # type: ignore[attr-defined]


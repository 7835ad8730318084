"""Functions and programs as DSL text (02-ir.md §12.2-§12.4)."""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from .. import expr as E
from ..enums import FunctionType, ParamDirection, Role, SplitMode
from ..function import Function, Program
from .exprs import ExprPrinter, SharedTexts
from .names import FREE_VAR_SUFFIX, VarScan, assign_names
from .spelling import (DISTRIBUTED_PREFIX, dict_text, enum_text, quote, sanitize_identifier,
                       shadow_reserved)
from .stmts import StmtPrinter, flatten_body

__all__ = ["render_function", "render_program", "dependency_order"]


def dependency_order(callees: dict[str, Iterable[str]]) -> list[str]:
    """Callees first: depth-first post-order from roots in name order.

    ``callees`` maps each function name (in name order) to the names it calls, in
    call order.  On any call cycle the result is plain name order.  Iterative, so a
    long call chain cannot exhaust the stack.
    """
    names = list(callees)
    in_progress, done = 1, 2
    state: dict[str, int] = {}
    order: list[str] = []
    for root in names:
        if root in state:
            continue
        state[root] = in_progress
        stack = [(root, iter(callees[root]))]
        while stack:
            name, pending = stack[-1]
            for callee in pending:
                if callee not in callees:
                    continue  # an external name: nothing to order
                seen = state.get(callee)
                if seen is None:
                    state[callee] = in_progress
                    stack.append((callee, iter(callees[callee])))
                    break
                if seen == in_progress:
                    return names
            else:
                stack.pop()
                state[name] = done
                order.append(name)
    return order


def _function_names(names: Iterable[str], prefix: str) -> dict[str, str]:
    """Printed ``def`` names: sanitised, and unique if sanitising made two collide.  A
    method named like the module prefix would shadow it for the decorators after it."""
    printed: dict[str, str] = {}
    taken: set[str] = set()
    reserved = frozenset((prefix,))
    for name in names:
        base = text = sanitize_identifier(name, reserved)
        k = 1
        while text in taken:
            text = f"{base}_{k}"
            k += 1
        printed[name] = text
        taken.add(text)
    return printed


class _FunctionPrinter:
    """Prints one function given its naming table."""

    def __init__(self, prefix: str, concise: bool, lines: list[str],
                 callee_text: Callable[[str], str], in_program: bool,
                 explicit_layout: bool = False) -> None:
        self.prefix = prefix
        self.explicit_layout = explicit_layout
        self.concise = concise
        self.lines = lines
        self.callee_text = callee_text
        self.in_program = in_program
        self.shared = SharedTexts()  # what every function printed spells alike
        self._decorators: dict[tuple, str] = {}

    def print(self, func: Function, def_name: str, names: dict[E.Var, str],
              closure_vars: Mapping[E.Var, object], depth: int,
              base_names: Mapping[E.Var, str] | None = None) -> None:
        exprs = ExprPrinter(self.prefix, names, closure_vars, self.callee_text,
                            explicit_layout=self.explicit_layout, base_names=base_names,
                            shared=self.shared)
        stmts = StmtPrinter(exprs, self.concise, self.lines)
        pad = stmts.indent(depth)
        self.lines.append(pad + self._decorator(func))
        self.lines.append(f"{pad}def {def_name}({self._params(func, exprs)})"
                          f"{self._returns(func, exprs)}:")
        extra = self._func_attrs(func)
        if extra:
            attrs_text = dict_text(extra, exprs.values, "function attr")
            stmts.line(depth + 1, f"{self.prefix}.func_attr({attrs_text})")
        body = flatten_body(func.body)
        if func.requires_runtime_binding:
            stmts.line(depth + 1, "...")
            if body:  # not expected with runtime binding; printed so nothing is lost
                stmts.block(body, depth + 1, top_level=True)
        else:
            stmts.block(body, depth + 1, top_level=True)

    def _decorator(self, func: Function) -> str:
        key = (func.func_type, func.level, func.role, func._attrs.get("auto_scope", True) is False)
        text = self._decorators.get(key)
        if text is None:
            text = self._decorators[key] = self._decorator_text(func)
        return text

    def _decorator_text(self, func: Function) -> str:
        prefix = self.prefix
        keywords = []
        if func.func_type is not FunctionType.Opaque:
            keywords.append(f"type={enum_text(func.func_type, prefix)}")
        if func.level is not None:
            keywords.append(f"level={enum_text(func.level, prefix)}")
        if func.role is not None:
            keywords.append(f"role={enum_text(func.role, prefix)}")
        if func._attrs.get("auto_scope", True) is False:
            keywords.append("auto_scope=False")
        if not keywords:
            return f"@{prefix}.function"
        return f"@{prefix}.function({', '.join(keywords)})"

    @staticmethod
    def _func_attrs(func: Function) -> dict:
        """Attrs that go to ``pl.func_attr``: all but a stored ``auto_scope=False``."""
        extra = {}
        for key, value in func._attrs.items():
            if key == "auto_scope" and value is False:
                continue  # a decorator keyword
            if key == "split":
                if isinstance(value, int) and not isinstance(value, bool):
                    value = SplitMode(value)
                if value is SplitMode.NONE:
                    continue
            extra[key] = value
        return extra

    def _params(self, func: Function, exprs: ExprPrinter) -> str:
        items = []
        if self.in_program and func.role is not Role.SubWorker:
            items.append("self")
        for var, direction in zip(func.params, func.param_directions):
            type_text = exprs.type(var.type)
            if direction is ParamDirection.Out:
                type_text = f"{self.prefix}.Out[{type_text}]"
            elif direction is ParamDirection.InOut:
                type_text = f"{self.prefix}.InOut[{type_text}]"
            items.append(f"{exprs.var_name(var)}: {type_text}")
        return ", ".join(items)

    @staticmethod
    def _returns(func: Function, exprs: ExprPrinter) -> str:
        types = func.return_types
        if not types:
            return ""
        if len(types) == 1:
            return f" -> {exprs.type(types[0])}"
        return f" -> tuple[{', '.join(exprs.type(t) for t in types)}]"


def _function_table(scan: VarScan, reserved: frozenset[str], dim_vars: dict[E.Var, None],
                    fixed: dict[E.Var, str], taken: Iterable[str],
                    spelled: dict[str, str] | None = None) -> dict[E.Var, str]:
    """Names of one function; free Vars that are not dynamic dims get ``__FREE_VAR``."""
    names = assign_names(scan.ordered_vars(), reserved, fixed, taken, spelled)
    for var in scan.free_vars():
        if var not in dim_vars:
            names[var] += FREE_VAR_SUFFIX
    return names


def render_function(func: Function, prefix: str, concise: bool,
                    explicit_layout: bool = False) -> list[str]:
    """A Function printed alone: calls are ``f(...)``, no ``self``."""
    scan = VarScan().function(func)
    reserved = shadow_reserved(prefix)
    names = _function_table(scan, reserved, scan.type_vars, {}, ())
    closure_vars = {var: None for var in scan.free_vars() if var in scan.type_vars}
    lines: list[str] = []
    printer = _FunctionPrinter(prefix, concise, lines, sanitize_identifier, in_program=False,
                               explicit_layout=explicit_layout)
    printer.print(func, sanitize_identifier(func.name), names, closure_vars, 0,
                  _base_names([scan]))
    return lines


def _base_names(scans: Iterable[VarScan]) -> dict[E.Var, str]:
    """Printed names of the memref bases no statement defines, unique over the program:
    the parser interns one ``pl.Ptr`` per name and program, so two bases may not share
    one (nor a base change name between functions)."""
    free: dict[E.Var, None] = {}
    for scan in scans:
        free.update(dict.fromkeys(scan.free_bases()))
    return assign_names(free, frozenset())


def render_program(program: Program, prefix: str, concise: bool,
                   explicit_layout: bool = False) -> list[str]:
    functions = program._functions
    scans = {name: VarScan().function(func) for name, func in functions.items()}
    order = dependency_order({name: scan.callees for name, scan in scans.items()})
    reserved = shadow_reserved(prefix)

    # Dynamic dims are shared by every function (one `M = pl.dynamic("M")` line), so
    # they are named once for the program and those names are taken in every function.
    dim_vars: dict[E.Var, None] = {}
    for name in order:
        dim_vars.update(scans[name].type_vars)
    dynamic: dict[E.Var, None] = {}
    for name in order:
        for var in scans[name].free_vars():
            if var in dim_vars:
                dynamic[var] = None
    dynamic_names = assign_names(dynamic, reserved)
    taken = frozenset(dynamic_names.values())

    class_name = sanitize_identifier(program.name or "Program", reserved)
    def_names = _function_names(order, prefix)
    lines = [f"# pypto.program: {class_name}",
             f"import pypto.language as {prefix}" if prefix == "pl"
             else f"from pypto import language as {prefix}",
             ""]
    for text in sorted(taken):
        lines.append(f"{text} = {prefix}.dynamic({quote(text, chr(34))})")
    if taken:
        lines.append("")
    lines.append(f"@{prefix}.program")
    lines.append(f"class {class_name}:")

    def callee_text(name: str) -> str:
        return "self." + (def_names.get(name) or sanitize_identifier(name))

    printer = _FunctionPrinter(prefix, concise, lines, callee_text, in_program=True,
                               explicit_layout=explicit_layout)
    base_names = _base_names(scans[name] for name in order)
    spelled: dict[str, str] = {}  # name hints sanitised once for the whole program
    for name in order:
        scan = scans[name]
        fixed = {var: dynamic_names[var] for var in scan.free_vars() if var in dynamic_names}
        names = _function_table(scan, reserved, dim_vars, fixed, taken, spelled)
        printer.print(functions[name], def_names[name], names, fixed, 1, base_names)
    if not order:
        lines.append("    pass")
    if DISTRIBUTED_PREFIX + "." in "\n".join(lines[3:]):  # (one search, not one per line)
        lines.insert(2, f"import pypto.language.distributed as {DISTRIBUTED_PREFIX}")
    return lines

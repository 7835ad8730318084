"""``Function`` and ``Program``."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .enums import FunctionType, Level, ParamDirection, Role, SplitMode
from .expr import Var, _ordered_dict, _span
from .node import FieldKind, GlobalVar, IRNode, Stmt, as_tuple, check_type
from .span import Span
from .stmt import _body
from .types import Type

__all__ = ["Function", "Program", "DERIVED_LEVEL_ROLE", "is_incore_type", "is_wrapper_type",
           "is_orchestration_like"]

_set = object.__setattr__
_U, _D, _I = FieldKind.USUAL, FieldKind.DEF, FieldKind.IGNORE

# Function types whose level and role are implied (02-ir.md §8.2).
DERIVED_LEVEL_ROLE: dict[FunctionType, tuple[Level, Role]] = {
    FunctionType.Orchestration: (Level.CHIP, Role.Orchestrator),
    FunctionType.Graph: (Level.CHIP, Role.Orchestrator),
    FunctionType.InCore: (Level.CHIP_DIE, Role.SubWorker),
    FunctionType.AIC: (Level.AIC, Role.SubWorker),
    FunctionType.AIV: (Level.AIV, Role.SubWorker),
    FunctionType.Group: (Level.CORE_GROUP, Role.SubWorker),
}


def is_incore_type(func_type: FunctionType) -> bool:
    return func_type in (FunctionType.InCore, FunctionType.AIC, FunctionType.AIV)


def is_wrapper_type(func_type: FunctionType) -> bool:
    return func_type in (FunctionType.Group, FunctionType.Spmd)


def is_orchestration_like(func_type: FunctionType) -> bool:
    return func_type in (FunctionType.Orchestration, FunctionType.Graph)


class Function(IRNode):
    """A function: params (with directions), return types, body, type and level/role."""

    __slots__ = ("name", "params", "param_directions", "return_types", "body", "func_type",
                 "level", "role", "_attrs", "requires_runtime_binding")
    name: str
    params: tuple[Var, ...]
    param_directions: tuple[ParamDirection, ...]
    return_types: tuple[Type, ...]
    body: Stmt
    func_type: FunctionType
    level: Level | None
    role: Role | None
    _attrs: dict[str, Any]
    requires_runtime_binding: bool
    # return_types is a definition site too: a dynamic dim only a return type names
    # (no param's) is bound there, so two parses of the function compare equal.
    _fields = (("name", _I), ("params", _D), ("param_directions", _U), ("func_type", _U),
               ("level", _U), ("role", _U), ("attrs", _U), ("requires_runtime_binding", _U),
               ("return_types", _D), ("body", _U))

    def __init__(self, name: str, params: Iterable[Any], return_types: Iterable[Type],
                 body: Any, span: Span | None = None, type: FunctionType = FunctionType.Opaque,
                 level: Level | None = None, role: Role | None = None,
                 attrs: Mapping[str, Any] | None = None,
                 requires_runtime_binding: bool = False) -> None:
        # Checks inline, messages only on failure: the outliners build one Function
        # per outlined region.
        if name.__class__ is not str:
            check_type("Function", "name", name, str, "str")
        # Enum members are passed as they are (calling the enum costs more than the
        # rest of the checks); only a subclass member is converted.
        if type.__class__ is FunctionType:
            func_type = type
        else:
            check_type("Function", "type", type, FunctionType, "FunctionType")
            func_type = FunctionType(type)
        if level is not None:
            check_type("Function", "level", level, Level, "Level or None")
            level = level if level.__class__ is Level else Level(level)
        if role is not None:
            check_type("Function", "role", role, Role, "Role or None")
            role = role if role.__class__ is Role else Role(role)
        derived = DERIVED_LEVEL_ROLE.get(func_type)
        if derived is not None and (level is not None or role is not None):
            for what, given, implied in (("level", level, derived[0]), ("role", role, derived[1])):
                if given is not None and given != implied:
                    raise ValueError(
                        f"Function '{name}' has func_type={func_type.name} which implies "
                        f"{what}={implied.name}, but explicit {what}={given.name} was provided")
        if derived is not None:
            level, role = derived
        vars_: list[Var] = []
        dirs: list[ParamDirection] = []
        for i, item in enumerate(params):
            if item.__class__ is tuple and len(item) == 2 \
                    and item[1].__class__ is ParamDirection and isinstance(item[0], Var):
                vars_.append(item[0])  # the usual (Var, direction) pair, checked at once
                dirs.append(item[1])
                continue
            if isinstance(item, tuple):
                if len(item) != 2:
                    raise TypeError(f"Function '{name}': params[{i}] must be a Var or a "
                                    f"(Var, ParamDirection) pair, got a tuple of {len(item)}")
                var, direction = item
                if not isinstance(direction, ParamDirection):
                    check_type("Function", f"params[{i}][1]", direction, ParamDirection,
                               "ParamDirection")
            else:
                var, direction = item, ParamDirection.In
            if not isinstance(var, Var):
                check_type("Function", f"params[{i}]", var, Var, "Var")
            vars_.append(var)
            dirs.append(direction if direction.__class__ is ParamDirection
                        else ParamDirection(direction))
        if requires_runtime_binding.__class__ is not bool:
            check_type("Function", "requires_runtime_binding", requires_runtime_binding, bool,
                       "bool")
        _set(self, "name", name)
        _set(self, "params", tuple(vars_))
        _set(self, "param_directions", tuple(dirs))
        _set(self, "return_types", as_tuple("Function", "return_types", return_types, Type, "Type"))
        _set(self, "body", _body("Function", "body", body))
        _set(self, "func_type", func_type)
        _set(self, "level", level)
        _set(self, "role", role)
        _set(self, "_attrs", _ordered_dict("Function", "attrs", attrs))
        _set(self, "requires_runtime_binding", requires_runtime_binding)
        _set(self, "span", _span("Function", span))

    @property
    def attrs(self) -> dict:
        return dict(self._attrs)

    @property
    def split(self) -> SplitMode | None:
        value = self._attrs.get("split")
        if value is None or SplitMode(value) == SplitMode.NONE:
            return None
        return SplitMode(value)


class Program(IRNode):
    """An ordered, name-unique set of functions (stored sorted by name)."""

    __slots__ = ("name", "_functions", "_global_vars")
    name: str
    _functions: dict[str, Function]
    _global_vars: dict[str, GlobalVar] | None
    _fields = (("name", _I), ("functions", _U))

    def __init__(self, functions: Iterable[Function], name: str = "",
                 span: Span | None = None) -> None:
        check_type("Program", "name", name, str, "str")
        funcs = as_tuple("Program", "functions", functions, Function, "Function")
        by_name: dict[str, Function] = {}
        for func in funcs:
            if func.name in by_name:
                raise ValueError(f"Program '{name}': Duplicate function name '{func.name}'")
            by_name[func.name] = func
        ordered = {key: by_name[key] for key in sorted(by_name)}
        _set(self, "name", name)
        _set(self, "_functions", ordered)
        _set(self, "_global_vars", None)  # built on first use: passes rebuild programs often
        _set(self, "span", _span("Program", span))

    @property
    def functions(self) -> dict[str, Function]:
        """Functions keyed by name, in name order (a copy)."""
        return dict(self._functions)

    def get_function(self, name: str) -> Function | None:
        return self._functions.get(name)

    def __getitem__(self, name: str) -> Function:
        try:
            return self._functions[name]
        except KeyError:
            raise KeyError(f"Program '{self.name}' has no function '{name}'") from None

    def __contains__(self, name: object) -> bool:
        return name in self._functions

    def __len__(self) -> int:
        return len(self._functions)

    def get_global_var(self, name: str) -> GlobalVar | None:
        table = self._global_vars
        if table is None:
            table = {key: GlobalVar(key) for key in self._functions}
            _set(self, "_global_vars", table)
        return table.get(name)

    def replace(self, **changes: Any) -> "Program":
        """Rebuilt through the constructor so the GlobalVar table and ordering stay valid."""
        unknown = set(changes) - {"functions", "name", "span"}
        if unknown:
            raise TypeError(f"Program.replace: unknown field '{sorted(unknown)[0]}'")
        functions = changes.get("functions", self._functions.values())
        if isinstance(functions, Mapping):
            functions = functions.values()
        return Program(functions, changes.get("name", self.name), changes.get("span", self.span))

    def show_graph(self, compile: bool | None = None) -> Any:  # noqa: A002
        """A picture (SVG) of this program after the passes: functions, calls, the
        kernels of each Graph function, and which region became which function.

        Drawing sits above the passes (``pypto.viz``), so it is looked up on use.
        A notebook shows the returned picture; ``.save(path)`` writes the SVG.
        """
        import importlib
        return importlib.import_module("pypto.viz").draw_program(self, compile=compile)

    def with_functions(self, functions: Iterable[Function]) -> "Program":
        """A program with the same name and span holding ``functions``."""
        return Program(functions, self.name, self.span)

"""The executor: compiles a program's functions on first use and runs them.

``Executor(program).run(*args, entry=None)`` interprets ``program`` on NumPy
arrays and Python scalars.  Reuse one ``Executor`` to run a program many times
without recompiling; ``pypto.run`` makes a fresh one per call.  An executor runs
one program at a time (it is not thread-safe).
"""

from __future__ import annotations

from typing import Any

from ..ir.depth import nesting_guard
from ..ir.expr import Call, Var
from ..ir.function import Function, Program
from ..ir.node import GlobalVar
from ..ir.ops.registry import Effect, find_op
from ..ir.span import Span
from ..ir.stmt import AssignStmt, ReturnStmt
from ..ir.utils import flatten_to_stmts
from ..ir.walk import iter_stmts
from .binding import ParamBinder
from .compile_stmt import BREAK, CONTINUE, Return, StmtCompiler
from .distributed.launch import finish_launches
from .distributed.ranks import RankScheduler
from .dtypes import np
from .entry import select_entry
from .errors import ExecutionError
from .state import ExecState
from .torch_bridge import TorchArguments
from .values import UNSET, describe_value

__all__ = ["Executor", "CompiledFunction", "MAX_CALL_DEPTH"]

# Calls of program functions may nest this deep; beyond it a program is assumed to
# recurse without bound (each level costs several Python frames).
MAX_CALL_DEPTH = 100  # each nested call takes several Python frames; the limit is never raised


class FunctionCompiler(StmtCompiler):
    """Compiles one function: assigns frame slots to its Vars and builds closures."""

    def __init__(self, executor: "Executor", function: Function) -> None:
        super().__init__()
        self.executor = executor
        self.function_name = function.name
        self._slots: dict[Var, int] = {}

    def slot_of(self, var: Var) -> int:
        slot = self._slots.get(var)
        if slot is None:
            slot = self._slots[var] = len(self._slots)
        return slot

    @property
    def frame_size(self) -> int:
        return len(self._slots)


class CompiledFunction:
    """A function ready to run: ``invoke(args)`` returns its results as a tuple."""

    def __init__(self, executor: "Executor", function: Function) -> None:
        compiler = FunctionCompiler(executor, function)
        self.function = function
        self.executor = executor
        self.binder = ParamBinder(function, compiler.slot_of, compiler.compile_expr)
        self.body = compiler.compile_stmt(function.body)
        self.frame_size = compiler.frame_size
        self._returned_params = _returned_param_indices(function)

    def invoke(self, args: tuple, span: Span | None, at_entry: bool = False) -> tuple:
        function = self.function
        if function.requires_runtime_binding:
            raise ExecutionError.at(f"call of '{function.name}'", span or function.span,
                                    "the function has no body (it is bound at run time on "
                                    "the device) and cannot run on the reference executor",
                                    function.name)
        state = self.executor.state
        if state.call_depth >= MAX_CALL_DEPTH:
            raise ExecutionError.at(f"call of '{function.name}'", span or function.span,
                                    f"more than {MAX_CALL_DEPTH} nested calls (unbounded "
                                    "recursion?)", function.name)
        frame = [UNSET] * self.frame_size
        self.binder.bind(frame, args, span, at_entry)
        state.call_depth += 1
        try:
            signal = self.body(frame)
        except ExecutionError as err:  # the calls that led there, for its note
            if span is not None:
                err.add_call(function.name, span)
            raise
        finally:
            state.call_depth -= 1
        if self.executor.pending_ranks:  # ranks launched here finish before it returns
            finish_launches(self.executor, f"function '{function.name}'", function.span)
        if signal is None:
            return ()
        if type(signal) is Return:
            values = signal.values
        elif type(signal) is tuple:  # a top-level yield is a return
            values = signal
        else:
            word = "break" if signal is BREAK else "continue" if signal is CONTINUE \
                else "signal"
            raise ExecutionError.at(f"function '{function.name}'", function.span,
                                    f"'{word}' escaped every loop", function.name)
        if self.binder.tensor_returns:
            self.binder.check_returns(frame, values)
        return values

    def launch(self, args: tuple, blocks: Any, span: Span | None) -> tuple:
        """Run once per SPMD block (``core_num`` on the call); returns the last results."""
        count = self.executor.block_count(blocks, span, self.function.name)
        state = self.executor.state
        saved = (state.block_idx, state.block_num)
        results: tuple = ()
        try:
            for block in range(count):
                state.block_idx, state.block_num = block, count
                results = self.invoke(args, span)
        finally:
            state.block_idx, state.block_num = saved
        return results

    def results_when_skipped(self, args: tuple) -> tuple:
        """Results of a task that did not run: an argument the callee returns as is
        (a buffer it would have written), else no value."""
        return tuple(UNSET if index is None or index >= len(args) else args[index]
                     for index in self._returned_params)


def _returned_param_indices(function: Function) -> tuple:
    """For each value of the body's final ``return``: the index of the param whose
    buffer it is (through plain assignments and the results of registry-declared
    writers such as ``tile.store``), or ``None``."""
    stmts = flatten_to_stmts(function.body)
    if not stmts or not isinstance(stmts[-1], ReturnStmt):
        return tuple(None for _ in function.return_types)
    positions = {param: i for i, param in enumerate(function.params)}
    definitions: dict[Var, Any] = {}
    for stmt in iter_stmts(function.body):
        if isinstance(stmt, AssignStmt):
            # A Var assigned twice has no single origin.
            definitions[stmt.var] = None if stmt.var in definitions else stmt.value

    def origin(value: Any) -> int | None:
        for _ in range(len(definitions) + 1):
            if not isinstance(value, Var):
                return None
            if value in positions:
                return positions[value]
            value = _written_target(definitions.get(value))
        return None
    return tuple(origin(value) for value in stmts[-1].value)


def _written_target(value: Any) -> Any:
    """``x`` for ``x`` itself or a writer call whose result aliases ``x``; else ``None``."""
    if isinstance(value, Var):
        return value
    if isinstance(value, Call) and not isinstance(value.op, GlobalVar):
        opdef = find_op(value.op.name)
        if opdef is not None:
            for index, spec in enumerate(opdef.params[:len(value.args)]):
                if spec.effect is not Effect.Read:
                    return value.args[index]
    return None


class Executor:
    """Runs the functions of one ``Program`` (or a lone ``Function``) with NumPy."""

    def __init__(self, program: Program | Function, *, world_size: int = 1) -> None:
        if isinstance(program, Function):
            self._lone_function = True
            program = Program([program], program.name, program.span)
        elif isinstance(program, Program):
            self._lone_function = False
        else:
            raise TypeError(f"pypto.run expects an ir.Program or ir.Function, got "
                            f"{type(program).__name__}")
        if isinstance(world_size, bool) or not isinstance(world_size, int) or world_size < 1:
            raise ValueError(f"world_size must be a positive int, got {world_size!r}")
        self.program = program
        # The number of ranks a distributed program runs on (pld.world_size()).
        self.world_size = world_size
        self.pending_ranks = False
        self.state = ExecState(RankScheduler(world_size))
        self._compiled: dict[str, CompiledFunction] = {}

    def entry_name(self, entry: str | Function | None = None) -> str:
        return select_entry(self.program, entry)

    def compiled(self, name: str) -> CompiledFunction:
        found = self._compiled.get(name)
        if found is None:
            with nesting_guard(self.program[name]):
                found = self._compiled[name] = CompiledFunction(self, self.program[name])
        return found

    def callee(self, name: str, span: Span | None, caller: str) -> CompiledFunction:
        found = self._compiled.get(name)
        if found is not None:
            return found
        if self.program.get_function(name) is None:
            hint = (" (a lone Function was given; pass the Program to run calls)"
                    if self._lone_function else "")
            raise ExecutionError.at(f"call of '{name}'", span,
                                    f"function '{name}' is not in the program{hint}", caller)
        return self.compiled(name)

    def block_count(self, value: Any, span: Span | None, function: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ExecutionError.at("core_num", span, f"the SPMD block count must be a "
                                    f"positive integer, got {describe_value(value)}", function)
        return value

    def run(self, *args: Any, entry: str | Function | None = None) -> Any:
        """Run ``entry`` (default: see ``entry.select_entry``) on ``args``.

        Returns the entry's result: one value, a tuple for several, ``None`` for none.
        Torch tensors are accepted and given back (``torch_bridge``).
        """
        name = self.entry_name(entry)
        function = self.compiled(name)
        torch_args = TorchArguments.wrap(args)
        if torch_args is not None:
            args = tuple(torch_args.arrays)
        self.state = ExecState(RankScheduler(self.world_size))
        self.pending_ranks = False
        with np.errstate(all="ignore"):
            try:
                results = function.invoke(tuple(args), None, at_entry=True)
            except RecursionError:  # calls nested deep in statements: the stack ran out
                raise ExecutionError.at(f"call of '{name}'", function.function.span,
                                        "the program's calls and statements nest too deeply "
                                        "for the Python stack (the recursion limit is never "
                                        "raised)", name) from None
            finally:
                self.state.ranks.abort()  # after a failure: no rank thread is left waiting
        result = None if not results else results[0] if len(results) == 1 else results
        if torch_args is not None:
            declared = [getattr(t, "dtype", None) for t in self.program[name].return_types]
            result = torch_args.finish(result, declared)
        return result

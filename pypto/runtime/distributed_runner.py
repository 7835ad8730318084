"""``pypto.runtime.distributed_runner``: running a distributed program (PyPTO's names).

pypto runs every rank on the CPU, in one process (``pypto/runtime/distributed``): the
world size is the number of devices of the program's ``DistributedConfig``.  PyPTO's
device-side names (``DistributedWorker``, ``execute_distributed_compiled``, which reads
generated artifacts) have no CPU meaning and are not provided.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any  # noqa: F401 - PyPTO shows TYPE_CHECKING

from ..ir.distributed_compiled_program import DistributedCompiledProgram
from ..ir.expr import Call
from ..ir.function import Program
from ..ir.node import GlobalVar
from ..ir.visitor import IRVisitor
from .executor import Executor

__all__ = ["DistributedRunHandle", "execute_distributed", "launching_function"]


class _LaunchFinder(IRVisitor):
    def __init__(self) -> None:
        self.found = False

    def visit_call(self, op: Call) -> None:
        if isinstance(op.op, GlobalVar) and "device" in op._attrs:
            self.found = True
        super().visit_call(op)


def launching_function(program: Program) -> str | None:
    """The name of the program's one function holding ``self.f(..., device=r)`` calls."""
    names = []
    for name, function in program.functions.items():
        finder = _LaunchFinder()
        finder(function)
        if finder.found:
            names.append(name)
    return names[0] if len(names) == 1 else None


class DistributedRunHandle:
    """A prepared distributed run: ``run(*args)`` executes the program's entry with one
    rank per configured device; ``Out``/``InOut`` arguments are written in place."""

    def __init__(self, compiled: DistributedCompiledProgram, config: Any = None) -> None:
        if not isinstance(compiled, DistributedCompiledProgram):
            raise TypeError(f"expected a DistributedCompiledProgram, got "
                            f"{type(compiled).__name__}")
        self.compiled = compiled
        self.config = config
        self._executor = Executor(compiled.program,
                                  world_size=compiled.distributed_config.world_size)
        self._finished = False
        self._result: Any = None

    def run(self, *args: Any, entry: Any = None) -> Any:
        """Run ``entry``; by default the one function that launches ranks (``device=``),
        else the executor's default entry.  The CPU run is synchronous: when it returns,
        ``done`` is true and ``result()`` gives the value."""
        if entry is None:
            entry = launching_function(self.compiled.program)
        self._finished = False
        self._result = self._executor.run(*args, entry=entry)
        self._finished = True
        return self._result

    @property
    def done(self) -> bool:
        """Whether a run has finished (PyPTO's dispatch handle polls its device)."""
        return self._finished

    def wait(self, timeout: float | None = None) -> None:
        """Block until the run is done: a CPU run is done when ``run`` returns."""
        if not self._finished:
            raise RuntimeError("DistributedRunHandle.wait: nothing was run; call run(*args)")

    def result(self, timeout: float | None = None) -> Any:
        """The entry's result of the last run."""
        self.wait(timeout)
        return self._result

    def close(self) -> None:
        """Nothing to release on the CPU."""


def execute_distributed(compiled: DistributedCompiledProgram, coerced_args: Any,
                        config: Any = None) -> Any:
    """Run ``compiled`` on ``coerced_args`` (a sequence of arrays and scalars)."""
    return DistributedRunHandle(compiled, config).run(*coerced_args)

"""``pypto.runtime.runner``: PyPTO's ``RunConfig``, ``RunResult`` and ``run``, on the CPU.

PyPTO compiles a program for a device (or its simulator) and runs it there; pypto has
neither, so ``run`` lowers the program through the pass pipeline and executes it on the
reference executor, **whatever** ``RunConfig.platform`` says.  ``Out``/``InOut``
tensors (NumPy arrays or CPU torch tensors) are written in place, so a script's own
golden check (``assert torch.allclose(out, expected)``) works unchanged.

Of ``RunConfig``'s fields pypto reads ``strategy`` (the pass pipeline),
``dump_passes`` with ``save_kernels_dir`` (the IR after each pass, written there) and
``codegen_only`` (compile, do not run) and ``distributed_config`` (one rank per device,
all on the CPU); the device, profiling and tolerance fields are
accepted and have no effect (there is no device, and ``run`` has no golden to compare).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from typing import TYPE_CHECKING, Any, Optional  # noqa: F401 - PyPTO shows TYPE_CHECKING

from .._lazy import optional_reexports
from ..ir.function import Function, Program
from ..passes.pass_manager import OptimizationStrategy, PassDumpLevel  # PassDumpLevel: PyPTO shows it here

__all__ = ["RunConfig", "RunResult", "run", "compile_program", "execute_compiled",
           "lower_program", "strategy_of", "world_size_of"]

# PyPTO's runner module also shows these configuration types of RunConfig's fields.
__getattr__, __dir__ = optional_reexports(globals(), {
    "BackendType": "pypto.backend", "DiagnosticCheckSet": "pypto.passes",
    "DiagnosticPhase": "pypto.passes", "MemoryPlanner": "pypto.passes"})


def _default_backend_type() -> Any:
    try:
        from ..backend import BackendType
    except ImportError:  # pypto.backend comes with PyPTO's module paths
        return None
    return BackendType.Ascend910B


@dataclasses.dataclass
class RunConfig:
    """How to compile and run a program (PyPTO's fields; see the module notes for the
    ones pypto reads)."""

    platform: str = "a2a3sim"
    device_id: int = 0
    rtol: float = 1e-05
    atol: float = 1e-05
    strategy: OptimizationStrategy = dataclasses.field(
        default_factory=lambda: OptimizationStrategy.Default)
    backend_type: Any = dataclasses.field(default_factory=_default_backend_type)
    dump_passes: bool = False
    save_kernels: bool = False
    save_kernels_dir: Optional[str] = None
    codegen_only: bool = False
    enable_chip_swimlane: int = 0
    enable_dump_args: int = 0
    enable_pmu: int = 0
    enable_dep_gen: bool = False
    enable_scope_stats: bool = False
    compile_profiling: bool = False
    diagnostic_phase: Any = None
    disabled_diagnostics: Any = None
    golden_data_dir: Optional[str] = None
    aicpu_thread_num: Optional[int] = None
    ring_task_window: Optional[int] = None
    ring_heap: Optional[int] = None
    ring_dep_pool: Optional[int] = None
    distributed_config: Any = None
    analyze_auto_scopes_for_deps: bool = False
    memory_planner: Any = None
    dump_ptoas_passes: bool = False

    @property
    def enable_l2_swimlane(self) -> int:
        """The older name of ``enable_chip_swimlane``."""
        return self.enable_chip_swimlane

    @enable_l2_swimlane.setter
    def enable_l2_swimlane(self, value: int) -> None:
        self.enable_chip_swimlane = value

    def any_dfx_enabled(self) -> bool:
        """Whether any device diagnostics (swimlanes, argument dumps, PMU, dependency
        graph, scope statistics) were asked for; pypto records none of them."""
        return bool(self.enable_chip_swimlane or self.enable_dump_args or self.enable_pmu
                    or self.enable_dep_gen or self.enable_scope_stats)


@dataclasses.dataclass
class RunResult:
    """The outcome of ``run``: ``passed`` (it ran to the end), the program's name, the
    wall-clock seconds it took on the executor."""

    passed: bool
    test_name: Optional[str] = None
    error: Optional[str] = None
    execution_time: Optional[float] = None
    profile: Any = None


def run(program: Any, *tensors: Any, config: Optional[RunConfig] = None) -> RunResult:
    """Compile ``program`` (an ``ir.Program``/``ir.Function`` or a ``@pl.jit`` function)
    and run it on the CPU executor with ``tensors``; ``Out``/``InOut`` tensors are
    written in place.  Failures raise (``pypto.runtime.ExecutionError``, parser and
    pass errors); they are never only recorded in the result."""
    from .jit_bridge import run_jit
    from .log_config import LOGGER_NAME
    log = logging.getLogger(LOGGER_NAME)
    start = time.perf_counter()
    log.info("running %s on pypto's CPU executor (platform %r is not used)",
             getattr(program, "name", None) or getattr(program, "__name__", "program"),
             getattr(config, "platform", None))
    if not isinstance(program, (Program, Function)) and callable(getattr(program, "compile", None)):
        run_jit(program, *tensors, config=config)
        name = getattr(program, "__name__", None)
    else:
        lowered = _lower(program, config)
        name = lowered.name
        if not getattr(config, "codegen_only", False):
            from .executor import Executor
            Executor(lowered, world_size=world_size_of(config)).run(*tensors)
    elapsed = time.perf_counter() - start
    log.debug("%s finished in %.3f s", name, elapsed)
    return RunResult(True, test_name=name, execution_time=elapsed)


def compile_program(program: Any, work_dir: Any, *, strategy: OptimizationStrategy,
                    backend_type: Any, dump_passes: Any = False, dump_ptoas_passes: bool = False,
                    diagnostic_phase: Any = None, disabled_diagnostics: Any = None,
                    profiling: bool = False, analyze_auto_scopes_for_deps: bool = False,
                    memory_planner: Any = None,
                    enable_pypto_l0c_double_buffer: Optional[bool] = None) -> Any:
    """Compile without running: ``ir.compile`` of ``program`` (an ``ir.Program`` or
    ``ir.Function``) into ``work_dir`` -- the pass pipeline of ``strategy``, the IR after
    each pass under ``work_dir/passes_dump`` with ``dump_passes``, the result saved as
    ``work_dir/program.pir`` (``CompiledProgram.from_dir(work_dir)`` reads it back).
    PyPTO returns nothing; pypto returns the ``CompiledProgram`` as well."""
    from ..passes.compile import compile as compile_
    return compile_(_as_program(program, "compile_program"), str(work_dir), strategy=strategy,
                    dump_passes=dump_passes, backend_type=backend_type,
                    diagnostic_phase=diagnostic_phase,
                    disabled_diagnostics=disabled_diagnostics, memory_planner=memory_planner,
                    enable_pypto_l0c_double_buffer=enable_pypto_l0c_double_buffer,
                    profiling=profiling,
                    analyze_auto_scopes_for_deps=analyze_auto_scopes_for_deps,
                    dump_ptoas_passes=dump_ptoas_passes)


@dataclasses.dataclass(frozen=True)
class _DfxOpts:
    """The device diagnostics ``execute_compiled`` may be asked for (``RunConfig``'s
    fields of the same names); there is no device, so none is recorded."""

    enable_chip_swimlane: int = 0
    enable_dump_args: int = 0
    enable_pmu: int = 0
    enable_dep_gen: bool = False
    enable_scope_stats: bool = False


def execute_compiled(work_dir: Any, args: list, *, platform: str, device_id: int,
                     dfx: _DfxOpts = _DfxOpts(), level: int = 2,
                     aicpu_thread_num: Optional[int] = None,
                     analyze_auto_scopes_for_deps: bool = False) -> None:
    """Run what ``compile_program`` left in ``work_dir`` (its ``program.pir``) on the CPU
    executor with ``args``: tensors (NumPy or torch; ``Out``/``InOut`` ones are written
    in place) and scalars (Python numbers or ``ctypes`` values such as
    ``ctypes.c_int64(4)``).  ``platform``, ``device_id``, ``dfx``, ``level`` and
    ``aicpu_thread_num`` describe the device run and are not used."""
    import ctypes
    from ..passes.compile import CompiledProgram
    from .executor import Executor
    compiled = CompiledProgram.from_dir(str(work_dir))
    values = [a.value if isinstance(a, ctypes._SimpleCData) else a for a in args]
    Executor(compiled.program).run(*values)


def _as_program(program: Any, caller: str) -> Program:
    if isinstance(program, Function):
        program = Program([program], program.name, program.span)
    if not isinstance(program, Program):
        what = ("an ir.Program, an ir.Function or a @pl.jit function" if caller == "run"
                else "an ir.Program or an ir.Function")
        raise TypeError(f"{caller}() expects {what}, got {type(program).__name__}")
    return program


def _lower(program: Any, config: Optional[RunConfig]) -> Program:
    return lower_program(_as_program(program, "run"), config)


def world_size_of(config: Any) -> int:
    """The ranks of a distributed run: one per device of ``config.distributed_config``
    (a ``pypto.ir.distributed_compiled_program.DistributedConfig``); 1 without one."""
    distributed = getattr(config, "distributed_config", None)
    return 1 if distributed is None else int(distributed.world_size)


def strategy_of(config: Any) -> OptimizationStrategy:
    """``config.strategy`` (Default without a config)."""
    strategy = getattr(config, "strategy", None)
    if strategy is None:
        return OptimizationStrategy.Default
    if not isinstance(strategy, OptimizationStrategy):
        raise TypeError(f"RunConfig.strategy must be an OptimizationStrategy, got "
                        f"{type(strategy).__name__}")
    return strategy


def lower_program(program: Program, config: Any = None) -> Program:
    """The pass pipeline of ``config``'s strategy; with ``dump_passes`` the IR after each
    pass is written to ``save_kernels_dir`` (or a fresh ``pypto_dump_*`` directory)."""
    from ..passes.pass_manager import PassManager
    manager = PassManager.get_strategy(strategy_of(config))
    if not getattr(config, "dump_passes", False):
        return manager.run_passes(program)
    output_dir = getattr(config, "save_kernels_dir", None)
    if output_dir is None:
        import tempfile
        output_dir = tempfile.mkdtemp(prefix="pypto_dump_")
    return manager.run_passes(program, dump_ir=True, output_dir=output_dir)

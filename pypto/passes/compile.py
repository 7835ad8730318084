"""PyPTO's ``ir.compile`` without code generation: the default pass pipeline, its
per-pass dumps, and a ``CompiledProgram`` holding the transformed program.

``compile`` parses nothing and generates nothing: it runs ``PassManager``'s default
pipeline on the program inside a ``PassContext`` carrying the given options, writes
the IR after every pass to ``<output_dir>/passes_dump/`` when ``dump_passes`` and an
``output_dir`` are given, and saves the result as ``<output_dir>/program.pir``
(``ir.serialize``) so ``CompiledProgram.from_dir`` can read it back.  The back-end
options (``skip_ptoas``, ``memory_planner``, ``emit_source_loc`` ...) are accepted and
recorded in the context; nothing in pypto reads them.  To run the result, pass
``compiled.program`` to ``pypto.runtime.run`` (the CPU executor).  With a
``distributed_config`` the result is a ``DistributedCompiledProgram`` (callable: it
runs the ranks on the CPU executor).
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any

from ..backend import BackendType
from ..compile_profiling import CompileProfiler
from ..ir.distributed_compiled_program import PROGRAM_FILE, DistributedCompiledProgram
from ..ir.enums import FunctionType, ParamDirection
from ..ir.function import Function, Program
from ..ir.serialize import deserialize_from_file, serialize_to_file
from .context import PassContext, RuntimeKind, VerificationLevel
from .names import base_name
from .diagnostic_checks import DiagnosticCheckSet, DiagnosticPhase, MemoryPlanner
from .pass_manager import OptimizationStrategy, PassDumpLevel, PassManager, coerce_dump_level
from .pipeline import get_default_verification_level

__all__ = ["compile", "CompiledProgram", "ParamInfo", "extract_param_infos"]



@dataclass(frozen=True)
class ParamInfo:
    """One parameter of the entry function."""

    name: str
    direction: ParamDirection
    shape: tuple
    dtype: Any


def _entry(program: Program) -> Function | None:
    """The function a caller runs: ``main`` if there is one, else the one function no
    other function calls (``None`` when that is ambiguous)."""
    functions = list(program.functions.values())
    by_name = {f.name: f for f in functions}
    if "main" in by_name:
        return by_name["main"]
    called = {name for f in functions for name in _callees(f)}
    roots = [f for f in functions if f.name not in called]
    return roots[0] if len(roots) == 1 else None


def _callees(func: Function) -> set[str]:
    from ..ir.expr import Call
    from ..ir.node import GlobalVar
    from ..ir.visitor import IRVisitor

    found: set[str] = set()

    class _Calls(IRVisitor):
        def visit_call(self, op: Call) -> None:
            if isinstance(op.op, GlobalVar):
                found.add(op.op.name)
            super().visit_call(op)

    _Calls().visit_function(func)
    return found


def extract_param_infos(program: Program) -> list[ParamInfo]:
    entry = _entry(program)
    if entry is None:
        return []
    infos = []
    for var, direction in zip(entry.params, entry.param_directions):
        shape = tuple(getattr(var.type, "shape", ()))
        infos.append(ParamInfo(base_name(var.name_hint), direction, shape,
                               getattr(var.type, "dtype", None)))
    return infos


class CompiledProgram:
    """The result of ``ir.compile``: the transformed program and what was asked for."""

    def __init__(self, program: Program, output_dir: str | None, *,
                 backend_type: BackendType = BackendType.Ascend910B,
                 platform: str | None = None, _param_infos: Any = None,
                 _output_indices: Any = None, _return_types: Any = None,
                 _sub_chip_names: Any = None) -> None:
        """The private keywords are PyPTO's: what its compiler already knows about the entry
        (parameters, output positions, return types, sub-chip functions) instead of
        reading it off ``program`` again."""
        if not isinstance(program, Program):
            raise TypeError(f"CompiledProgram expects an ir.Program, got {type(program).__name__}")
        self._program = program
        self._output_dir = output_dir
        self._backend_type = backend_type
        self._platform = platform
        self._params = (list(_param_infos) if _param_infos is not None
                        else extract_param_infos(program))
        self._outputs = None if _output_indices is None else [int(i) for i in _output_indices]
        self._return_types = None if _return_types is None else list(_return_types)
        self._sub_chip_names = [] if _sub_chip_names is None else list(_sub_chip_names)

    program = property(lambda self: self._program)
    output_dir = property(lambda self: self._output_dir)
    backend_type = property(lambda self: self._backend_type)
    platform = property(lambda self: self._platform)

    @property
    def param_names(self) -> list[str]:
        return [p.name for p in self._params]

    @property
    def output_indices(self) -> list[int]:
        """Indices of the entry's ``Out``/``InOut`` parameters."""
        if self._outputs is not None:
            return list(self._outputs)
        return [i for i, p in enumerate(self._params) if p.direction is not ParamDirection.In]

    @property
    def has_return(self) -> bool:
        if self._return_types is not None:
            return bool(self._return_types)
        entry = _entry(self._program)
        return bool(entry is not None and entry.return_types)

    def validate_ir(self, tensors: Any, expected: Any, *, rtol: float = 0.05,
                    atol: float = 0.05) -> bool:
        """Check the compiled IR: re-run the verifiers, then run it on pypto's CPU executor
        with copies of ``tensors`` (they are left as they are) and compare its outputs with
        ``expected`` within ``rtol``/``atol``.  The outputs are the ``Out``/``InOut``
        arguments in ``output_indices`` order, then the entry's returned values.  ``True``,
        or ``ValueError`` naming the first output that differs."""
        from .verifier_registry import verify_program
        verify_program(self._program)
        return _validate_outputs(self._program, self.output_indices, list(tensors),
                                 list(expected), rtol, atol)

    @property
    def orchestration_names(self) -> list[str]:
        return [f.name for f in self._program.functions.values()
                if f.func_type is FunctionType.Orchestration]

    @classmethod
    def from_dir(cls, output_dir: str, *, platform: str | None = None,
                 backend_type: BackendType | None = None) -> "CompiledProgram":
        """The program ``compile`` saved in ``output_dir``."""
        path = os.path.join(output_dir, PROGRAM_FILE)
        if not os.path.exists(path):
            raise FileNotFoundError(f"CompiledProgram.from_dir: no {PROGRAM_FILE} in {output_dir}")
        program = deserialize_from_file(path)
        return cls(program, output_dir, backend_type=backend_type or BackendType.Ascend910B,
                   platform=platform)

    def __repr__(self) -> str:
        return (f"CompiledProgram({self._program.name!r}, output_dir={self._output_dir!r}, "
                f"backend_type={self._backend_type.name})")


def _validate_outputs(program: Program, outputs: list[int], tensors: list, expected: list,
                      rtol: float, atol: float) -> bool:
    # The executor is a layer above the passes: reached by name, as the distributed result does.
    executor = importlib.import_module("pypto.runtime.executor")
    args = [_copy(t) for t in tensors]
    result = executor.Executor(program).run(*args)
    returned = [] if result is None else list(result) if isinstance(result, tuple) else [result]
    produced = [args[i] for i in outputs] + returned
    if len(produced) != len(expected):
        raise ValueError(f"validate_ir: the program produces {len(produced)} output(s) "
                         f"({len(outputs)} Out/InOut argument(s), {len(returned)} returned), "
                         f"but {len(expected)} expected value(s) were given")
    for i, (got, want) in enumerate(zip(produced, expected)):
        mismatch = _output_mismatch(got, want, rtol, atol)
        if mismatch is not None:
            raise ValueError(f"validate_ir: output {i} {mismatch}")
    return True


def _output_mismatch(got: Any, want: Any, rtol: float, atol: float) -> str | None:
    """How an output differs from its expected value (its shape, else its values within
    ``rtol``/``atol``, NaN equal to NaN), as the end of a sentence; ``None`` if it does
    not.  ``validate_ir`` and ``pypto.debug``'s pass-dump check word their errors with it."""
    import numpy as np
    got_a, want_a = _as_array(got), _as_array(want)
    if got_a.shape != want_a.shape:
        return f"has shape {got_a.shape}, expected {want_a.shape}"
    if np.allclose(got_a, want_a, rtol=rtol, atol=atol, equal_nan=True):
        return None
    worst = float(np.max(np.abs(got_a - want_a)))
    return (f"differs from the expected value (largest difference {worst:g}, rtol={rtol}, "
            f"atol={atol})")


def _copy(value: Any) -> Any:
    clone = getattr(value, "clone", None) or getattr(value, "copy", None)  # torch / numpy
    return clone() if callable(clone) else value


def _as_array(value: Any) -> Any:
    import numpy as np
    if hasattr(value, "detach"):  # a torch tensor (bfloat16 has no NumPy twin)
        value = value.detach().cpu()
        value = value.float() if str(value.dtype) == "torch.bfloat16" else value
        value = value.numpy()
    return np.asarray(value, dtype=np.float64) if np.asarray(value).dtype != bool \
        else np.asarray(value)


def compile(program: Program, output_dir: str | None = None,  # noqa: A001 - PyPTO's name
            strategy: OptimizationStrategy = OptimizationStrategy.Default,
            dump_passes: bool | PassDumpLevel = True,
            backend_type: BackendType = BackendType.Ascend910B, skip_ptoas: bool = False,
            verification_level: VerificationLevel | None = None,
            diagnostic_phase: DiagnosticPhase | None = None,
            disabled_diagnostics: DiagnosticCheckSet | None = None,
            memory_planner: MemoryPlanner | None = None,
            enable_pypto_l0c_double_buffer: bool | None = None, profiling: bool = False,
            platform: str | None = None, distributed_config: Any = None,
            analyze_auto_scopes_for_deps: bool = False, emit_source_loc: bool | None = None,
            dump_ptoas_passes: bool = False, runtime: RuntimeKind | None = None
            ) -> CompiledProgram | DistributedCompiledProgram:
    """Run the default pipeline on ``program``; see the module docstring."""
    if not isinstance(program, Program):
        raise TypeError(f"compile expects an ir.Program, got {type(program).__name__}")
    if not isinstance(backend_type, BackendType):
        raise TypeError(f"compile: backend_type must be a pypto.backend.BackendType, got "
                        f"{type(backend_type).__name__}")
    outer = PassContext.current()
    context = PassContext(
        outer.get_instruments() if outer is not None else [],
        verification_level=verification_level or get_default_verification_level(),
        diagnostic_phase=diagnostic_phase or DiagnosticPhase.PRE_PIPELINE,
        disabled_diagnostics=disabled_diagnostics,
        memory_planner=memory_planner or MemoryPlanner.PYPTO,
        enable_pypto_l0c_double_buffer=bool(enable_pypto_l0c_double_buffer),
        runtime=runtime or RuntimeKind.TENSORMAP_AND_RINGBUFFER)
    dumping = output_dir is not None and coerce_dump_level(dump_passes) is not PassDumpLevel.NONE
    manager = PassManager.get_strategy(strategy)
    profiler = CompileProfiler() if profiling else None
    with context:
        if profiler is not None:
            with profiler, profiler.stage("passes"):
                result = _run(manager, program, dumping, output_dir)
        else:
            result = _run(manager, program, dumping, output_dir)
    if output_dir is not None:
        os.makedirs(output_dir, exist_ok=True)
        serialize_to_file(result, os.path.join(output_dir, PROGRAM_FILE))
        if profiler is not None:
            profiler.write_report(os.path.join(output_dir, "report"))
    if distributed_config is not None:  # PyPTO's distributed result, run rank by rank
        return DistributedCompiledProgram(result, output_dir, backend_type=backend_type,
                                          platform=platform,
                                          distributed_config=distributed_config)
    return CompiledProgram(result, output_dir, backend_type=backend_type, platform=platform)


def _run(manager: PassManager, program: Program, dumping: bool, output_dir: str | None) -> Program:
    if dumping:
        return manager.run_passes(program, dump_ir=True,
                                  output_dir=os.path.join(output_dir or "", "passes_dump"))
    return manager.run_passes(program)

"""``pypto.runtime``: a reference executor that runs pypto programs on the CPU with NumPy.

    import numpy as np, pypto
    out = np.zeros((64, 128), np.float32)
    pypto.run(program, x, out)          # before or after the passes

* ``pypto.run(program, *args, entry=None)`` (``execute`` here) interprets a ``Program``
  (or one ``Function``) as it is and returns the entry's result.  Tensors and tiles are
  ``numpy.ndarray``s (CPU torch tensors work too), scalars Python numbers; ``Out``/
  ``InOut`` arguments are written in place.  See ``executor``, ``binding`` and the op
  tables (``op_semantics``) for the semantics, ``dtypes`` for the dtype mapping.
* ``run(program, *tensors, config=None)``, ``RunConfig``, ``RunResult``: PyPTO's
  runner (``runner``): compile through the pass pipeline, then execute on the CPU,
  whatever ``config.platform`` says.  ``TensorSpec``/``ScalarSpec`` describe inputs.
* ``Executor(program)`` runs a program repeatedly without recompiling it.
* ``run_jit(jit_function, *args)`` runs an ``@pl.jit`` function on arrays.
* Failures raise ``ExecutionError`` (a ``pypto.Error``) naming the op and its source
  location.

NumPy is optional for pypto: this package imports it only when a program runs, and
``NumPyUnavailableError`` (an ``ImportError``) says ``pip install pypto[numpy]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..ir.dtype import DataType
from .errors import ExecutionError, NumPyUnavailableError
from .log_config import configure_log, current_level as log_level
from .runner import RunConfig, RunResult, compile_program, execute_compiled, run
from .tensor_spec import ScalarSpec, TensorSpec

if TYPE_CHECKING:
    from ..ir.function import Function, Program
    from .executor import Executor

__all__ = ["run", "RunConfig", "RunResult", "TensorSpec", "ScalarSpec", "compile_program",
           "execute_compiled", "execute", "run_jit",
           "Executor", "ExecutionError", "NumPyUnavailableError", "numpy_dtype", "configure_log",
           "log_level"]


def execute(program: "Program | Function", *args: Any,
            entry: "str | Function | None" = None) -> Any:
    """Interpret ``program`` as it is (before or after the passes) on NumPy arrays and
    Python scalars; return the entry's result (one value, a tuple for several, ``None``
    for none).  This is ``pypto.run``.

    ``entry`` defaults to the program's single Orchestration function, else the
    single function no other calls.
    """
    from .executor import Executor
    return Executor(program).run(*args, entry=entry)


def run_jit(jit_function: Any, *args: Any, **kwargs: Any) -> Any:
    """Specialise an ``@pl.jit`` function for ``args`` and run it with NumPy."""
    from .jit_bridge import run_jit as run_specialised
    return run_specialised(jit_function, *args, **kwargs)


def numpy_dtype(dtype: DataType) -> Any:
    """The ``numpy.dtype`` that stores pypto ``dtype`` (see ``pypto.runtime.dtypes``)."""
    from .dtypes import numpy_dtype as lookup
    return lookup(dtype)


def __getattr__(name: str) -> Any:
    if name == "Executor":  # lazy: importing it imports NumPy
        from .executor import Executor
        return Executor
    raise AttributeError(f"module 'pypto.runtime' has no attribute '{name}'")

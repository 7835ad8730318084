"""Running an ``@pl.jit`` function on NumPy arrays (``JITFunction.__call__``).

The function is compiled for the arguments (``compile(*args, **kw)``: specialised,
lowered through the default pipeline, and cached by specialisation key) and the
lowered program's entry runs on the same arguments.  The executor built for a
compiled program is kept on it, so repeated calls with the same shapes only run.
"""

from __future__ import annotations

import weakref
from typing import Any

from .executor import Executor
from .runner import world_size_of

__all__ = ["run_jit"]

# One executor per compiled program, dropped together with it.
# (per world size: RunConfig.distributed_config's devices are the ranks)
_EXECUTORS: "weakref.WeakKeyDictionary[Any, dict[int, Executor]]" = weakref.WeakKeyDictionary()


def _positional(jit_function: Any, args: tuple, kwargs: dict) -> tuple:
    """``args`` followed by keyword arguments placed by parameter name."""
    values = {key: value for key, value in kwargs.items() if key != "config"}
    if not values:
        return args
    names = list(getattr(jit_function, "param_names", None) or ())
    if not names:
        raise TypeError(f"run_jit: keyword arguments {sorted(values)} need the JIT "
                        "function's param_names")
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise TypeError(f"run_jit: unknown keyword argument(s) {unknown}; parameters are "
                        f"{names}")
    ordered = list(args)
    for name in names[len(args):]:
        if name not in values:
            raise TypeError(f"run_jit: missing argument '{name}'")
        ordered.append(values.pop(name))
    if values:
        raise TypeError(f"run_jit: argument(s) {sorted(values)} given both by position and "
                        "by keyword")
    return tuple(ordered)


def _entry_name(jit_function: Any, program: Any) -> str | None:
    for candidate in (getattr(jit_function, "__name__", None),
                      getattr(jit_function, "name", None)):
        if isinstance(candidate, str) and program.get_function(candidate) is not None:
            return candidate
    return None


def run_jit(jit_function: Any, *args: Any, **kwargs: Any) -> Any:
    """Specialise ``jit_function`` for ``args`` and run it with NumPy; returns the
    entry's result (``Out``/``InOut`` arrays are written in place)."""
    compile_ = getattr(jit_function, "compile", None)
    if not callable(compile_):
        raise TypeError(f"run_jit expects a @pl.jit function (with compile()), got "
                        f"{type(jit_function).__name__}")
    compiled = compile_(*args, **kwargs)
    if getattr(kwargs.get("config"), "codegen_only", False):
        return None  # RunConfig(codegen_only=True): compile, do not run
    world_size = world_size_of(kwargs.get("config"))
    executors = _EXECUTORS.setdefault(compiled, {})
    executor = executors.get(world_size)
    if executor is None:
        executor = executors[world_size] = Executor(compiled.program, world_size=world_size)
    return executor.run(*_positional(jit_function, args, kwargs),
                        entry=_entry_name(jit_function, compiled.program))

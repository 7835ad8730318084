"""Running an ``@pl.jit`` function on NumPy arrays (the hook ``JITFunction.__call__``
can delegate to).

The JIT function is specialised for the arguments (``specialize(*args, **kw)``,
the pre-pass program) and that program's entry is run on the same arguments.
"""

from __future__ import annotations

from typing import Any

from .executor import Executor

__all__ = ["run_jit"]


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
    specialize = getattr(jit_function, "specialize", None)
    if not callable(specialize):
        raise TypeError(f"run_jit expects a @pl.jit function (with specialize()), got "
                        f"{type(jit_function).__name__}")
    program = specialize(*args, **kwargs)
    executor = Executor(program)
    return executor.run(*_positional(jit_function, args, kwargs),
                        entry=_entry_name(jit_function, program))

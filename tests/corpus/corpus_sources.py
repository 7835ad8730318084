"""The programs the corpus check reads: the conformance programs, the examples, the
conformance jit cases, and swap mutants or damaged copies of any of them."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Iterator

import numpy as np

import pypto.runtime as runtime
from pypto import ir

from corpus_args import Unsupported

__all__ = ["PROGRAMS", "EXAMPLES", "JIT_CASES", "AUTO_SCOPE_RULE", "conformance_programs",
           "without_auto_scope", "example_programs", "jit_cases", "mutants", "damaged"]

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PROGRAMS = "/work/shared/reference/conformance/programs.jsonl"
EXAMPLES = os.path.join(REPO, "examples")
JIT_CASES = "/work/shared/reference/conformance/jit/cases"


def conformance_programs() -> Iterator[tuple[str, str]]:
    """(id, text): the input without ``high_precision=`` where the record has that form
    (pypto no longer takes the keyword; the conformance runner retries the same way)."""
    with open(PROGRAMS) as f:
        for line in f:
            rec = json.loads(line)
            yield rec["id"], rec.get("input_without_high_precision", rec["input"])


AUTO_SCOPE_RULE = "requires @pl.function(auto_scope=False)"


def without_auto_scope(text: str) -> str:
    """``text`` with ``auto_scope=False`` on every ``@pl.function``: old printouts place
    ``with pl.scope()`` by hand, which pypto now takes only from such functions."""
    lines = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped == "@pl.function":
            line = line.replace("@pl.function", "@pl.function(auto_scope=False)")
        elif stripped.startswith("@pl.function(") and "auto_scope" not in stripped:
            line = line.replace("@pl.function(", "@pl.function(auto_scope=False, ", 1)
        lines.append(line)
    return "\n".join(lines)


def example_programs() -> Iterator[tuple[str, ir.Program | BaseException]]:
    """(label, program) of every module-level program and jit entry of examples/."""
    from pypto.cli.load import entry_program, load, open_source
    for root, _, files in os.walk(EXAMPLES):
        for name in sorted(files):
            if not name.endswith(".py") or name.startswith("_"):
                continue
            path = os.path.join(root, name)
            label = os.path.relpath(path, REPO)
            try:
                loaded = load(open_source(path))
            except Exception as exc:  # noqa: BLE001
                yield label, exc
                continue
            for entry in loaded.entries:
                if entry.is_jit:
                    continue  # specialised from the script's own calls, below
                try:
                    yield f"{label}:{entry.name}", entry_program(entry)
                except Exception as exc:  # noqa: BLE001
                    yield f"{label}:{entry.name}", exc
            if any(entry.is_jit for entry in loaded.entries):
                yield from _script_specialisations(path, label)




class _ShimTensor(np.ndarray):
    """What the jit cases' ``make_args`` call on a torch tensor, on a NumPy array."""

    def half(self) -> "_ShimTensor":
        return self.astype(np.float16).view(_ShimTensor)

    def float(self) -> "_ShimTensor":
        return self.astype(np.float32).view(_ShimTensor)

    def bfloat16(self) -> "_ShimTensor":
        raise Unsupported("bfloat16 argument (NumPy has no bfloat16)")


def _torch_shim() -> Any:
    """Enough of torch for the jit cases' ``make_args`` (torch is no dependency here)."""
    import types
    rng = np.random.default_rng(0)
    shim = types.ModuleType("torch")
    dtypes = {"float32": np.float32, "float": np.float32, "float16": np.float16,
              "half": np.float16, "int32": np.int32, "int64": np.int64, "bool": np.bool_}
    for name, storage in dtypes.items():
        setattr(shim, name, np.dtype(storage))
    shim.bfloat16 = "bfloat16"

    def dtype_of(dtype: Any) -> Any:
        if dtype == "bfloat16":
            raise Unsupported("bfloat16 argument (NumPy has no bfloat16)")
        return np.float32 if dtype is None else dtype

    def shaped(shape: tuple) -> tuple:
        return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) \
            else shape
    shim.randn = lambda *shape, dtype=None: rng.standard_normal(shaped(shape)).astype(
        dtype_of(dtype)).view(_ShimTensor)
    shim.zeros = lambda *shape, dtype=None: np.zeros(shaped(shape), dtype_of(dtype)).view(
        _ShimTensor)
    shim.ones = lambda *shape, dtype=None: np.ones(shaped(shape), dtype_of(dtype)).view(
        _ShimTensor)
    shim.tensor = lambda data, dtype=None: np.array(data, dtype_of(dtype)).view(_ShimTensor)
    return shim


def jit_cases() -> Iterator[tuple[str, Any]]:
    """(label, program) of each conformance jit case: its ENTRY specialised for its
    ``make_args()`` (with a NumPy stand-in for torch when torch is not installed)."""
    import importlib.util
    if not os.path.isdir(JIT_CASES):
        return
    saved = sys.modules.get("torch")
    if importlib.util.find_spec("torch") is None:
        sys.modules["torch"] = _torch_shim()
    try:
        for name in sorted(os.listdir(JIT_CASES)):
            if not name.endswith(".py"):
                continue
            label = f"jit/{name[:-3]}"
            try:
                spec = importlib.util.spec_from_file_location(f"jit_case_{name[:-3]}",
                                                              os.path.join(JIT_CASES, name))
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                entry = getattr(module, module.ENTRY)
                args, kwargs = module.make_args(), {}
                if len(args) == 2 and isinstance(args[0], tuple) and isinstance(args[1], dict):
                    args, kwargs = args  # (positional, keyword) arguments
                yield label, entry.specialize(*args, **kwargs)
            except Unsupported as why:
                yield label, why
            except Exception as exc:  # noqa: BLE001 - classified by the checker
                yield label, exc
    finally:
        if saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = saved


def _script_specialisations(path: str, label: str) -> Iterator[tuple[str, Any]]:
    """The programs an example script's ``@pl.jit`` calls specialise: the script runs as
    ``python SCRIPT --numpy`` (its golden checks included) while ``pypto.runtime.run_jit``
    records each entry and its arguments."""
    import contextlib
    import io
    import runpy
    calls: dict[int, tuple[Any, tuple]] = {}
    original = runtime.run_jit

    def recording(jit_function: Any, *args: Any, **kwargs: Any) -> Any:
        calls.setdefault(id(jit_function), (jit_function, args))
        return original(jit_function, *args, **kwargs)

    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [path, "--numpy"]
    sys.path.insert(0, os.path.dirname(path))
    runtime.run_jit = recording
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(path, run_name="__main__")
    except Exception as exc:  # noqa: BLE001 - the script failing is the finding
        yield f"{label} (run)", exc
    finally:
        runtime.run_jit = original
        sys.argv, sys.path[:] = saved_argv, saved_path
    for jit_function, args in calls.values():
        name = f"{label}:{jit_function.__name__}"
        try:
            yield name, jit_function.specialize(*args)
        except Exception as exc:  # noqa: BLE001
            yield name, exc


def mutants(items: list[tuple[str, Any]], per_program: int) -> list[tuple[str, str]]:
    """Up to ``per_program`` distinct swap mutants of each text item (a name read on a
    line becomes another name the same function reads: ``test_semantic_mutations``'
    ``swap``), deterministic per id.  A swap keeps the text valid Python and often a
    valid program, with another meaning: new inputs for the before/after comparison."""
    import random
    sys.path.insert(0, os.path.join(REPO, "tests", "properties"))
    from test_semantic_mutations import mutate
    out = []
    for pid, item in items:
        if not isinstance(item, str):
            continue
        rng = random.Random(pid)
        seen: set[str] = set()
        for _ in range(10 * per_program):
            found = mutate(item, rng)
            if found is not None and found[0] == "swap" and found[1] not in seen:
                seen.add(found[1])
                out.append((f"{pid}~swap{len(seen)}", found[1]))
                if len(seen) == per_program:
                    break
    return out


def damaged(items: list[tuple[str, Any]], per_program: int) -> list[tuple[str, str]]:
    """``per_program`` damaged copies of each text item (``tests/fuzz/fuzzcheck.mutate``:
    lines deleted, duplicated, swapped or re-indented, tokens inserted or deleted, names
    and numbers changed), deterministic per id (and ``PYPTO_FUZZ_SEED``, which salts it): each must end in a clean diagnostic or
    a compile that passes the same checks."""
    import random
    sys.path.insert(0, os.path.join(REPO, "tests", "fuzz"))
    from fuzzcheck import mutate
    out = []
    for pid, item in items:
        if isinstance(item, str):
            rng = random.Random(f"damage:{pid}{os.environ.get('PYPTO_FUZZ_SEED', '')}")
            out += [(f"{pid}~damage{k}", mutate(item, rng)) for k in range(per_program)]
    return out

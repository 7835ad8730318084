"""The compile cache (01-language.md §17.6)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

import pypto
import pypto.language as pl
from pypto import passes
from pypto.jit import CacheInfo, CompiledProgram, TensorSpec

from _jit_helpers import PYTHON, f32, subprocess_env

N = pl.dynamic("N")


def make_entry():
    @pl.jit.opaque
    def entry(x: pl.Tensor[[N, 8], pl.FP32], y: pl.Out[pl.Tensor], n: pl.Scalar[pl.INDEX],
              z: pl.Tensor):
        for i in pl.range(n):
            y = pl.add(y, y)
        return y
    return entry


def test_a_hit_returns_the_same_object_and_is_counted():
    entry = make_entry()
    assert entry.cache_info() == CacheInfo(0, 0, 0)
    first = entry.compile(f32(4, 8), f32(4), 2, f32(2))
    assert isinstance(first, CompiledProgram) and first.name == "entry"
    assert first.program.get_function("entry") is not None
    assert entry.compile(f32(4, 8), f32(4), 2, f32(2)) is first
    assert entry.compile(TensorSpec((4, 8), "float32"), TensorSpec([4], pl.FP32), n=2,
                         z=f32(2)) is first
    assert entry.cache_info() == CacheInfo(hits=2, misses=1, size=1)
    entry.cache_clear()
    assert entry.cache_info() == CacheInfo(0, 0, 0)


def test_dynamic_dims_share_one_entry_other_changes_miss():
    entry = make_entry()
    first = entry.compile(f32(4, 8), f32(4), 2, f32(2))
    assert entry.compile(f32(64, 8), f32(4), 2, f32(2)) is first  # N is dynamic: None in the key
    different = [
        entry.compile(f32(4, 8), f32(5), 2, f32(2)),  # a static shape
        entry.compile(f32(4, 8), f32(4), 3, f32(2)),  # a scalar value
        entry.compile(f32(4, 8), f32(4), pl.RUNTIME, f32(2)),  # a runtime scalar
        entry.compile(f32(4, 8), f32(4), 2, TensorSpec((2,), pl.FP32, pl.NZ)),  # a layout
        entry.compile(f32(4, 8), f32(4).astype("float16"), 2, f32(2)),  # a dtype
    ]
    assert len({id(c) for c in [first] + different}) == 6
    assert entry.cache_info() == CacheInfo(hits=1, misses=6, size=6)


def test_lower_and_specialize_do_not_touch_the_cache():
    entry = make_entry()
    entry.lower(f32(4, 8), f32(4), 2, f32(2))
    entry.specialize(f32(4, 8), f32(4), 2, f32(2))
    assert entry.cache_info() == CacheInfo(0, 0, 0)


def test_the_pass_configuration_and_version_are_part_of_the_key(monkeypatch):
    entry = make_entry()
    first = entry.compile(f32(4, 8), f32(4), 2, f32(2))
    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        unverified = entry.compile(f32(4, 8), f32(4), 2, f32(2))
    assert unverified is not first
    monkeypatch.setattr(pypto, "__version__", "999.0")
    assert entry.compile(f32(4, 8), f32(4), 2, f32(2)) is not first
    monkeypatch.undo()
    assert entry.compile(f32(4, 8), f32(4), 2, f32(2)) is first


def test_a_changed_global_misses():
    namespace = {"pl": pl, "WIDTH": 4}
    source = ("@pl.jit\n"
              "def entry(x: pl.Tensor):\n"
              "    y = pl.full([WIDTH], pl.FP32, 0.0)\n"
              "    return x\n")
    filename = "<jit-cache-globals>"
    import linecache
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        exec(compile(source, filename, "exec"), namespace)
        entry = namespace["entry"]
        first = entry.compile(f32(2))
        assert entry.compile(f32(2)) is first
        namespace["WIDTH"] = 8
        second = entry.compile(f32(2))
        assert second is not first
        assert "pl.tensor.full([8]" in second.program.as_python()
    finally:
        linecache.cache.pop(filename, None)


KERNEL_V1 = """\
import pypto.language as pl


@pl.jit.incore
def kern(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(a, [0, 0], [4, 4])
    pl.store(t, [0, 0], out)
    return out
"""

KERNEL_V2 = KERNEL_V1.replace("pl.store(t,", "pl.store(pl.add(t, t),")

ENTRY = """\
import pypto.language as pl
from jit_cache_kernel import kern


@pl.jit
def entry(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    y = kern(x, y)
    return y
"""


@pytest.fixture
def cache_modules(tmp_path, monkeypatch):
    (tmp_path / "jit_cache_kernel.py").write_text(KERNEL_V1)
    (tmp_path / "jit_cache_entry.py").write_text(ENTRY)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("jit_cache_kernel", "jit_cache_entry"):
        sys.modules.pop(name, None)


def test_editing_a_dependencys_source_misses(cache_modules):
    module = importlib.import_module("jit_cache_entry")
    first = module.entry.compile(f32(4, 4), f32(4, 4))
    assert module.entry.compile(f32(4, 4), f32(4, 4)) is first
    kernel_file = cache_modules / "jit_cache_kernel.py"
    kernel_file.write_text(KERNEL_V2)
    stat = kernel_file.stat()
    os.utime(kernel_file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    second = module.entry.compile(f32(4, 4), f32(4, 4))
    assert second is not first
    assert "pl.tile.add(" in second.program.as_python()
    assert "pl.tile.add(" not in first.program.as_python()
    assert module.entry.cache_info() == CacheInfo(hits=1, misses=2, size=2)


def test_a_redefined_dependency_misses(cache_modules):
    module = importlib.import_module("jit_cache_entry")
    first = module.entry.compile(f32(4, 4), f32(4, 4))
    namespace: dict = {}
    filename = str(cache_modules / "jit_cache_kernel_v2.py")
    (cache_modules / "jit_cache_kernel_v2.py").write_text(KERNEL_V2)
    exec(compile(KERNEL_V2, filename, "exec"), namespace)
    module.kern = namespace["kern"]  # what re-running a notebook cell does
    second = module.entry.compile(f32(4, 4), f32(4, 4))
    assert second is not first and "pl.tile.add(" in second.program.as_python()


KEY_SCRIPT = """\
import sys
sys.path.insert(0, {folder!r})
import numpy as np
import jit_cache_entry
compiled = jit_cache_entry.entry.compile(np.zeros((4, 4), np.float32),
                                         np.zeros((4, 4), np.float32))
print(compiled.key)
"""


def test_keys_are_stable_across_processes(cache_modules):
    module = importlib.import_module("jit_cache_entry")
    key = module.entry.compile(f32(4, 4), f32(4, 4)).key
    script = KEY_SCRIPT.format(folder=str(cache_modules))
    env = subprocess_env(cache_modules, PYTHONHASHSEED="random")
    level = passes.PassContext.current().get_verification_level().name.lower()
    env["PYPTO_VERIFY_LEVEL"] = level
    keys = set()
    for _ in range(2):
        result = subprocess.run([PYTHON, "-c", script], capture_output=True, text=True,
                                env=env, cwd=cache_modules, timeout=120)
        assert result.returncode == 0, result.stderr
        keys.add(result.stdout.strip())
    assert keys == {key}
    assert len(key) == 64 and int(key, 16) >= 0


# -- PyPTO's key (pypto.jit.cache) ----------------------------------------------------------

from pypto.jit import cache as jit_cache  # noqa: E402

KEY_ARGS = dict(source_hash="h", param_names=["x", "n"], tensor_shapes={"x": [8, 4]},
                tensor_dtypes={"x": pl.FP32}, dynamic_dims={"x": [0]}, scalar_values={"n": 2})


def key(**changes):
    return jit_cache.make_cache_key(**{**KEY_ARGS, **changes})


def test_make_cache_key_keeps_dynamic_sizes_out_and_everything_else_in():
    assert key() == key(tensor_shapes={"x": [64, 4]})  # a dynamic dim's size
    assert key() == key(dynamic_dims=[("x", 0)])  # dynamic axes as pairs
    assert key(dynamic_dims={}) != key(dynamic_dims={}, tensor_shapes={"x": [64, 4]})
    changed = [key(source_hash="other"), key(param_names=["x", "m"]),
               key(tensor_shapes={"x": [8, 5]}), key(tensor_dtypes={"x": pl.FP16}),
               key(scalar_values={"n": 3}), key(scalar_values={"n": 2.0}),
               key(platform="a5sim"), key(strategy=pypto.ir.OptimizationStrategy.Default),
               key(tensor_layouts={"x": pl.NZ}), key(runtime=passes.RuntimeKind.HOST_BUILD_GRAPH)]
    assert len({key()} | set(changed)) == len(changed) + 1
    infos = key()[2:4]
    assert infos == ((jit_cache.TensorCacheInfo("x", (None, 4), "FP32", None),),
                     (jit_cache.ScalarCacheInfo("n", 2),))


def test_compute_source_hash_depends_on_every_source_and_their_order():
    base = jit_cache.compute_source_hash(["a", "b"])
    assert base == jit_cache.compute_source_hash(["a", "b"])
    assert len({base, jit_cache.compute_source_hash(["b", "a"]),
                jit_cache.compute_source_hash(["ab"]), jit_cache.compute_source_hash(["a"])}) == 4


def test_the_l2_cache_stores_a_directory_per_key(tmp_path, monkeypatch):
    monkeypatch.setenv("PYPTO_JIT_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    (out / "sub" / "program.pto").write_text("text")
    assert jit_cache.l2_lookup(key()) is None
    stored = jit_cache.l2_store(key(), out)
    assert jit_cache.l2_lookup(key()) == stored
    assert (stored / "sub" / "program.pto").read_text() == "text"
    (out / "sub" / "program.pto").write_text("changed")
    assert jit_cache.l2_store(key(), out) == stored  # the first copy stays
    assert (stored / "sub" / "program.pto").read_text() == "text"
    assert jit_cache.l2_lookup(key(scalar_values={"n": 3})) is None


def test_calls_reuse_the_compiled_program_and_the_counter_shows_it():
    import numpy as np

    @pl.jit.incore
    def double(a: pl.Tensor, o: pl.Out[pl.Tensor]):
        o = pl.store(pl.add(pl.load(a, [0, 0], [4, 4]), pl.load(a, [0, 0], [4, 4])), [0, 0], o)
        return o

    @pl.jit
    def run_double(a: pl.Tensor, o: pl.Out[pl.Tensor]):
        o = double(a, o)
        return o

    for value in (1.0, 2.0, 3.0):  # new data, same shapes: compiled once
        a = np.full((4, 4), value, np.float32)
        o = np.zeros((4, 4), np.float32)
        run_double(a, o)
        np.testing.assert_array_equal(o, a * 2)
    assert run_double.cache_info() == CacheInfo(hits=2, misses=1, size=1)
    run_double(np.ones((4, 8), np.float32), np.zeros((4, 8), np.float32))  # a new shape
    assert run_double.cache_info() == CacheInfo(hits=2, misses=2, size=2)

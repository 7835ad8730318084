"""Run-time failures raise ``pypto.runtime.ExecutionError`` naming the op (or
argument) and the program's source location; NumPy is optional."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.runtime import ExecutionError

THIS_FILE = os.path.abspath(__file__)
M = pl.dynamic("M")
N = pl.dynamic("N")


def marker_line(marker: str) -> int:
    """The line of this file carrying the comment ``marker``."""
    with open(THIS_FILE, encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            if text.rstrip().endswith(marker):
                return number
    raise AssertionError(marker)


@pl.program
class Windows:
    @pl.function
    def main(self, x: pl.Tensor[[64, 128], pl.FP32], row: pl.Scalar[pl.INDEX],
             col: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]
             ) -> pl.Tensor[[64, 128], pl.FP32]:
        t = pl.load(x, [row, 0], [32, 32])  # LOAD
        pl.store(t, [0, col], out)  # STORE
        return out


def run_windows(row: int, col: int) -> None:
    pypto.run(Windows, np.zeros((64, 128), np.float32), row, col,
              np.zeros((64, 128), np.float32))


def test_out_of_bounds_load_names_the_op_the_source_line_and_the_extents():
    with pytest.raises(ExecutionError) as info:
        run_windows(64, 0)
    error = info.value
    assert str(error).startswith(f"tile.load at {THIS_FILE}:{marker_line('# LOAD')}:")
    assert str(error).endswith(": offsets [64, 0] + shape [32, 32] exceed tensor shape "
                               "[64, 128]")
    assert error.what == "tile.load" and error.function == "main"
    assert error.span.begin_line == marker_line("# LOAD")
    assert error.detail == "offsets [64, 0] + shape [32, 32] exceed tensor shape [64, 128]"
    assert isinstance(error, pypto.Error)


def test_out_of_bounds_store_and_negative_offsets():
    with pytest.raises(ExecutionError) as info:
        run_windows(0, 112)
    assert str(info.value).startswith(f"tile.store at {THIS_FILE}:{marker_line('# STORE')}:")
    assert str(info.value).endswith("offsets [0, 112] + shape [32, 32] exceed tensor shape "
                                    "[64, 128]")
    with pytest.raises(ExecutionError, match=r"tile.load at .*: offsets \[-1, 0\] are negative"):
        run_windows(-1, 0)


@pl.program
class Views:
    @pl.function
    def main(self, x: pl.Tensor[[M, N], pl.FP32], i: pl.Scalar[pl.INDEX]
             ) -> pl.Scalar[pl.FP32]:
        s = pl.tensor.slice(x, [2, 2], [i, 0])
        target = pl.create_tensor([4, 4], pl.FP32)
        whole = pl.tensor.assemble(target, s, [i, i])
        return pl.tensor.read(whole, [i, i]) + pl.tensor.read(x, [i, i])


def test_out_of_bounds_slice_assemble_and_read():
    with pytest.raises(ExecutionError, match=r"tensor.slice at .*: offsets \[3, 0\] \+ shape "
                                             r"\[2, 2\] exceed source shape \[4, 4\]"):
        pypto.run(Views, np.zeros((4, 4), np.float32), 3)
    with pytest.raises(ExecutionError, match=r"tensor.assemble at .*: offsets \[3, 3\] \+ "
                                             r"source shape \[2, 2\] exceed target shape "
                                             r"\[4, 4\]"):
        pypto.run(Views, np.zeros((5, 4), np.float32), 3)
    with pytest.raises(ExecutionError, match=r"tensor.read at .*: offset \[2, 2\] is outside "
                                             r"source shape \[2, 2\]"):
        pypto.run(reader, np.zeros((2, 2), np.float32), 2)


@pl.function
def reader(x: pl.Tensor[[M, N], pl.FP32], i: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.FP32]:
    return pl.tensor.read(x, [i, i])


def raw_op_function(op_name: str, shapes: list, kwargs: dict | None = None) -> ir.Function:
    """``return <op>(params)`` with the call built raw, so no deduction rejects the shapes
    (as IR from another producer could be)."""
    span = ir.Span("raw.py", 5, 12)
    params = [ir.Var(f"p{i}", ir.TensorType(shape, ir.DataType.FP32), span)
              for i, shape in enumerate(shapes)]
    call = ir.Call(ir.get_op(op_name), params, kwargs or {}, params[0].type, span)
    return ir.Function("f", params, [call.type], [ir.ReturnStmt([call], span)], span)


def test_shape_mismatch_in_elementwise_and_matmul():
    add = raw_op_function("tensor.add", [[4, 8], [3, 8]])
    with pytest.raises(ExecutionError) as info:
        pypto.run(add, np.zeros((4, 8), np.float32), np.zeros((3, 8), np.float32))
    assert str(info.value) == ("tensor.add at raw.py:5:12: shapes [4, 8] (lhs) and [3, 8] (rhs) "
                               "are not broadcastable")
    matmul = raw_op_function("tensor.matmul", [[4, 2], [4, 8]])
    with pytest.raises(ExecutionError, match=r"tensor.matmul at raw.py:5:12: inner dims differ: "
                                             r"lhs \[4, 2\] x rhs \[4, 8\]"):
        pypto.run(matmul, np.zeros((4, 2), np.float32), np.zeros((4, 8), np.float32))


def test_reshape_with_a_different_element_count():
    @pl.function
    def reshaper(x: pl.Tensor[[M], pl.FP32]) -> pl.Tensor[[4, 4], pl.FP32]:
        return pl.reshape(x, [4, 4])

    with pytest.raises(ExecutionError, match=r"tensor.reshape at .*: cannot reshape \[15\] "
                                             r"\(15 elements\) to \[4, 4\] \(16 elements\)"):
        pypto.run(reshaper, np.zeros(15, np.float32))


def test_integer_tensor_division_by_zero():
    @pl.function
    def divider(x: pl.Tensor[[4], pl.INT32], y: pl.Tensor[[4], pl.INT32]
                ) -> pl.Tensor[[4], pl.INT32]:
        return pl.div(x, y)

    with pytest.raises(ExecutionError, match="tensor.div at .*: integer division by zero"):
        pypto.run(divider, np.ones(4, np.int32), np.array([1, 2, 0, 4], np.int32))


@pl.program
class Signature:
    @pl.function
    def main(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INT8],
             flag: pl.Scalar[pl.BOOL]) -> pl.Scalar[pl.INDEX]:
        return pl.tensor.dim(x, 0)


@pytest.mark.parametrize("args, message", [
    ((np.zeros((64, 128), np.float32), 1), r"call of 'main' at .*: function 'main' takes 3 "
                                           r"argument\(s\) \(x, n, flag\), got 2"),
    ((np.zeros((64, 128), np.float32), 1, True, 0), r"takes 3 argument\(s\) .*got 4"),
    ((np.zeros((32, 128), np.float32), 1, True),
     r"argument 'x' of 'main' at .*: expected shape pl.Tensor\[\[64, 128\], pl.FP32\], got "
     r"\[32, 128\]"),
    ((np.zeros((64, 128), np.float64), 1, True),
     r"argument 'x' of 'main' .*expected dtype pl.FP32 \(numpy float32\), got numpy float64"),
    ((np.zeros(64, np.float32), 1, True), r"expected rank 2, got shape \[64\]"),
    (([[0.0]], 1, True), r"argument 'x' .*expected a numpy.ndarray .*got list"),
    ((np.zeros((64, 128), np.float32), 300, True),
     r"argument 'n' .*value 300 is out of range for pl.INT8"),
    ((np.zeros((64, 128), np.float32), 1.5, True),
     r"argument 'n' .*expected an integer for pl.INT8, got float 1.5"),
    ((np.zeros((64, 128), np.float32), 1, 1), r"argument 'flag' .*expected a bool"),
])
def test_argument_errors(args, message):
    with pytest.raises(ExecutionError, match=message):
        pypto.run(Signature, *args)


def test_valid_arguments_accept_numpy_scalars():
    assert pypto.run(Signature, np.zeros((64, 128), np.float32), np.int8(3), np.bool_(True)) \
        == 64


def test_arguments_of_internal_calls_are_checked_at_the_call_site():
    span = ir.Span("calls.py", 12, 8)
    small = ir.Var("s", ir.TensorType([4], ir.DataType.FP32), span)
    callee = ir.Function("callee", [small], [], ir.SeqStmts([]), span)
    big = ir.Var("b", ir.TensorType([8], ir.DataType.FP32), span)
    call = ir.Call(ir.GlobalVar("callee"), [big], span)
    caller = ir.Function("caller", [big], [], [ir.EvalStmt(call, span)], span)
    with pytest.raises(ExecutionError, match=r"argument 's' of 'callee' at calls.py:12:8: "
                                             r"expected shape"):
        pypto.run(ir.Program([callee, caller], "P"), np.zeros(8, np.float32), entry="caller")


def test_a_non_positive_block_count():
    @pl.function
    def blocks(n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[4], pl.INT32]]
               ) -> pl.Tensor[[4], pl.INT32]:
        with pl.spmd(n):
            with pl.at(level=pl.Level.CORE_GROUP):
                pl.tensor.write(out, [0], pl.cast(pl.tile.get_block_idx(), pl.INT32))
        return out

    out = np.zeros(4, np.int32)
    pypto.run(blocks, 3, out)
    assert out[0] == 2
    with pytest.raises(ExecutionError, match="core_num at .*: the SPMD block count must be a "
                                             "positive integer, got int 0"):
        pypto.run(blocks, 0, out)


def test_a_block_count_computed_inside_its_cluster_names_the_count_and_its_line():
    # Conformance 0644: the cluster launches its blocks before its body runs (as
    # OutlineClusterScopes makes it), so the count must be known on entry.
    @pl.program
    class Inside:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[64], pl.FP32], o: pl.Out[pl.Tensor[[64], pl.FP32]]
              ) -> pl.Tensor[[64], pl.FP32]:
            t = pl.load(x, [0], [64])
            o = pl.store(t, [0], o)
            return o

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[64], pl.FP32], o: pl.Out[pl.Tensor[[64], pl.FP32]],
                 n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
            with pl.cluster():
                inner = n * 2  # COUNT
                with pl.spmd(inner):  # SPMD
                    o = self.k(x, o)
            return o

    with pytest.raises(ExecutionError) as info:
        pypto.run(Inside, np.ones(64, np.float32), np.zeros(64, np.float32), 2)
    error = info.value
    assert error.what == "pl.spmd block count"
    assert error.span.begin_line == marker_line("# SPMD")
    assert error.detail == (f"it reads 'inner', which is computed inside the enclosing "
                            f"pl.cluster() (line {marker_line('# COUNT')}); the cluster "
                            "launches its blocks before its body runs, so compute the count "
                            "before `with pl.cluster():`")


def test_an_op_without_semantics_fails_when_executed():
    span = ir.Span("ops.py", 1, 2)
    call = ir.Call(ir.Op("tensor.fancy"), [], span)
    function = ir.Function("f", [], [], [ir.EvalStmt(call, span)], span)
    with pytest.raises(ExecutionError, match="tensor.fancy at ops.py:1:2: this op has no NumPy "
                                             "semantics"):
        pypto.run(function)


def test_run_rejects_non_programs():
    with pytest.raises(TypeError, match="expects an ir.Program or ir.Function, got str"):
        pypto.run("main")


def test_pypto_works_without_numpy_and_run_says_how_to_install_it():
    script = textwrap.dedent("""
        import sys
        sys.modules["numpy"] = None  # any `import numpy` now fails
        import pypto
        import pypto.language as pl
        from pypto import ir, passes
        from pypto.runtime import NumPyUnavailableError

        @pl.function
        def f(x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
            return x + 1

        passes.convert_to_ssa()(ir.Program([f], "P"))
        try:
            pypto.run(f, 1)
        except NumPyUnavailableError as exc:
            assert isinstance(exc, ImportError) and isinstance(exc, pypto.Error)
            print("MESSAGE:", exc)
        else:
            raise SystemExit("pypto.run worked without numpy")
    """)
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                               cwd=os.path.dirname(os.path.dirname(os.path.dirname(THIS_FILE))))
    assert completed.returncode == 0, completed.stderr
    assert "MESSAGE: pypto.run executes programs with NumPy" in completed.stdout
    assert "pip install pypto[numpy]" in completed.stdout


def test_importing_pypto_does_not_import_numpy():
    script = "import sys, pypto, pypto.runtime; print('numpy' in sys.modules)"
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                               cwd=os.path.dirname(os.path.dirname(os.path.dirname(THIS_FILE))))
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "False"


class _YieldTheTensor(ir.IRMutator):
    """Hand-built ill-typed IR: the loop's float carry is handed the tensor ``x``."""

    def __init__(self, x: ir.Var) -> None:
        super().__init__()
        self.x = x

    def visit_yield_stmt(self, stmt):
        return stmt.replace(value=(self.x,))


def test_a_scalar_operator_on_a_tensor_is_an_execution_error_not_a_struct_error():
    # Found by the corpus check (a swap mutant of 0758, before the parser refused such a
    # yield): `t + 1.0` on a float carry holding an array leaked struct.error.
    @pl.program
    class Carry:
        @pl.function
        def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Scalar[pl.FP32]:
            total: pl.Scalar[pl.FP32] = 0.0
            for i, (t,) in pl.range(2, init_values=(total,)):
                t2: pl.Scalar[pl.FP32] = t + 1.0  # ADD
                r = pl.yield_(t2)
            return r

    broken = _YieldTheTensor(Carry.get_function("main").params[0])(Carry)
    with pytest.raises(ExecutionError) as info:
        pypto.run(broken, np.zeros(4, np.float32))
    error = info.value
    assert error.what == "Add (+)" and error.span.begin_line == marker_line("# ADD")
    assert error.detail == ("cannot apply to ndarray float32[4] and float 1.0: expected a number, "
                            "got ndarray")

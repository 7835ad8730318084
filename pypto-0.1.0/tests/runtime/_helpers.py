"""Shared helpers of the executor tests: one-op functions built as IR, and the
before/after-pipeline comparison used by the semantics-preservation tests."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import pypto
from pypto import ir

DT = ir.DataType
SPAN = ir.Span("ops_test.py", 7, 3)

NUMPY_TO_PYPTO = {
    np.dtype(np.float32): DT.FP32, np.dtype(np.float16): DT.FP16, np.dtype(np.int8): DT.INT8,
    np.dtype(np.int16): DT.INT16, np.dtype(np.int32): DT.INT32, np.dtype(np.int64): DT.INT64,
    np.dtype(np.uint8): DT.UINT8, np.dtype(np.uint16): DT.UINT16, np.dtype(np.uint32): DT.UINT32,
    np.dtype(np.bool_): DT.BOOL,
}


class Tile:
    """Marks an array operand that the one-op function receives as a Tile param."""

    def __init__(self, array: np.ndarray, dtype: ir.DataType | None = None) -> None:
        self.array = array
        self.dtype = dtype


class Out:
    """Marks an array operand passed as an ``Out`` Tensor param (written in place)."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array


class Scalar:
    """A scalar operand passed as a param of ``dtype`` (plain numbers become constants)."""

    def __init__(self, value: Any, dtype: ir.DataType) -> None:
        self.value = value
        self.dtype = dtype


def _constant(value: Any) -> ir.Expr:
    if isinstance(value, bool):
        return ir.ConstBool(value, SPAN)
    if isinstance(value, int):
        return ir.ConstInt(value, DT.INDEX, SPAN)
    return ir.ConstFloat(value, DT.FP32, SPAN)


def op_function(op_name: str, operands: list, kwargs: dict | None = None,
                dtype: ir.DataType | None = None, attrs: dict | None = None,
                type_args: dict | None = None) -> tuple[ir.Function, list]:
    """``def f(<array/scalar params>): r = <op>(operands); return r`` and its arguments.

    ndarray -> Tensor param, ``Out`` -> Out Tensor param, ``Tile`` -> Tile param,
    ``Scalar`` -> scalar param,
    list -> index tuple of constants, None -> an omitted operand, other numbers -> constants.  ``dtype``
    overrides the pypto dtype of every array param (e.g. BF16 stored as float32); ``attrs`` and
    ``type_args`` go to ``create_op_call``.  An op without a value is a statement of a
    function returning nothing.
    """
    params, ir_args, values = [], [], []
    for index, operand in enumerate(operands):
        if isinstance(operand, (np.ndarray, Tile, Out)):
            array = operand if isinstance(operand, np.ndarray) else operand.array
            elem = (operand.dtype if isinstance(operand, Tile) and operand.dtype else
                    dtype or NUMPY_TO_PYPTO[array.dtype])
            kind = ir.TileType if isinstance(operand, Tile) else ir.TensorType
            var = ir.Var(f"a{index}", kind(list(array.shape), elem), SPAN)
            direction = ir.ParamDirection.Out if isinstance(operand, Out) else \
                ir.ParamDirection.In
            params.append((var, direction))
            ir_args.append(var)
            values.append(array)
        elif isinstance(operand, Scalar):
            var = ir.Var(f"s{index}", ir.ScalarType(operand.dtype), SPAN)
            params.append(var)
            ir_args.append(var)
            values.append(operand.value)
        elif isinstance(operand, (list, tuple)):
            ir_args.append(ir.MakeTuple([_constant(v) for v in operand], SPAN))
        elif operand is None:  # an omitted optional operand (the op's entry fills it)
            ir_args.append(None)
        else:
            ir_args.append(_constant(operand))
    call = ir.create_op_call(op_name, ir_args, kwargs, span=SPAN, attrs=attrs,
                             type_args=type_args)
    if isinstance(call.type, ir.UnknownType):  # an op without a value: a statement
        body = [ir.EvalStmt(call, SPAN), ir.ReturnStmt([], SPAN)]
        return ir.Function("f", params, [], body, SPAN), values
    result = ir.Var("r", call.type, SPAN)
    body = [ir.AssignStmt(result, call, SPAN), ir.ReturnStmt([result], SPAN)]
    return ir.Function("f", params, [call.type], body, SPAN), values


def run_op(op_name: str, operands: list, kwargs: dict | None = None,
           dtype: ir.DataType | None = None, **extra: Any) -> Any:
    function, values = op_function(op_name, operands, kwargs, dtype, **extra)
    return pypto.run(function, *values)


def default_pipeline(program: ir.Program) -> ir.Program:
    return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)


def _copy(value: Any) -> Any:
    return value.copy() if isinstance(value, np.ndarray) else value


def _assert_same(label: str, before: Any, after: Any) -> None:
    if isinstance(before, tuple):
        assert isinstance(after, tuple) and len(after) == len(before), label
        for i, (b, a) in enumerate(zip(before, after)):
            _assert_same(f"{label}[{i}]", b, a)
    elif isinstance(before, np.ndarray):
        assert isinstance(after, np.ndarray), label
        assert before.dtype == after.dtype, label
        np.testing.assert_array_equal(after, before, err_msg=label)
    else:
        assert after == before, f"{label}: {after!r} != {before!r}"


def assert_same_results(before: ir.Program, after: ir.Program, make_args: Callable[[], list],
                        trials: int = 3) -> list:
    """Run ``before`` and ``after`` on identical fresh inputs ``trials`` times; the results
    and every argument array (in-place writes) must be identical.  Returns the last
    results of ``before`` for extra checks."""
    results = None
    for _ in range(trials):
        args = make_args()
        before_args = [_copy(a) for a in args]
        after_args = [_copy(a) for a in args]
        results = pypto.run(before, *before_args)
        _assert_same("result", results, pypto.run(after, *after_args))
        for i, (b, a) in enumerate(zip(before_args, after_args)):
            _assert_same(f"argument {i}", b, a)
    return results


def part_oracle(combine: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """NumPy meaning of ``part_*``: the result covers both operands; where both have an
    element they are combined, elsewhere the one that has it is taken."""
    def oracle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.zeros((max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])), a.dtype)
        out[:b.shape[0], :b.shape[1]] = b
        out[:a.shape[0], :a.shape[1]] = a
        n, m = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
        out[:n, :m] = combine(a[:n, :m], b[:n, :m])
        return out
    return oracle


def check_result(result: Any, declared: ir.Type, oracle: Callable[..., Any] | None,
                 values: list) -> None:
    """``result`` has the declared shape and storage dtype and, with an oracle, its
    values (``oracle(*values)``, relative tolerance 2e-3)."""
    from pypto.runtime.dtypes import numpy_dtype
    if isinstance(declared, ir.ShapedType):
        assert list(result.shape) == [d.value for d in declared.shape]
        assert result.dtype == numpy_dtype(declared.dtype)
    if oracle is not None:
        np.testing.assert_allclose(np.asarray(result, dtype=np.float64),
                                   np.asarray(oracle(*values), dtype=np.float64), rtol=2e-3)

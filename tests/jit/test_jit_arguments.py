"""Binding arguments: checks against annotations, signature mode, scalars (§17.4, §17.5)."""

from __future__ import annotations

import numpy as np
import pytest

import pypto.language as pl
from pypto import DataType, ir
from pypto.jit import TensorSpec
from pypto.language.parser.diagnostics import ParserTypeError

from _jit_helpers import f32, marker_position

N = pl.dynamic("N")


@pl.jit
def scaled(x: pl.Tensor[[16, N], pl.FP32], out: pl.Out[pl.Tensor], n: pl.Scalar[pl.INT64],
           alpha: pl.Scalar[pl.FP32], flag: pl.Scalar[pl.BOOL]):
    return out


def params_of(program: ir.Program, name: str) -> list[ir.Var]:
    return list(program.get_function(name).params)


@pytest.mark.parametrize("call, error, message", [
    (lambda: scaled.specialize(f32(16, 4)),
     TypeError, "@pl.jit function 'scaled': missing a required argument: 'out' (its "
                "annotation is a bare pl.Tensor, so its shape must come from an argument)"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), 1, 1.0),
     TypeError, "@pl.jit function 'scaled': missing a required argument: 'flag' (a scalar: "
                "pass an int, float or bool, or pl.RUNTIME to keep it a runtime parameter)"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), 1, 1.0, True, 5),
     TypeError, "@pl.jit function 'scaled': too many positional arguments (it takes 5, 6 "
                "were given)"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), 1, 1.0, True, beta=2),
     TypeError, "@pl.jit function 'scaled': got an unexpected keyword argument 'beta'"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), 1, 1.0, True, n=2),
     TypeError, "@pl.jit function 'scaled': multiple values for argument 'n'"),
    (lambda: scaled.specialize("x", f32(2), 1, 1.0, True),
     TypeError, "scaled(): parameter 'x' expects a tensor (a NumPy array, a torch tensor or a "
                "pypto.jit.TensorSpec), got str"),
    (lambda: scaled.specialize(f32(16, 4), [1, 2], 1, 1.0, True),
     TypeError, "scaled(): parameter 'out' expects a tensor (a NumPy array, a torch tensor or a "
                "pypto.jit.TensorSpec), got list"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), f32(1), 1.0, True),
     TypeError, "scaled(): parameter 'n' is a scalar; expected an int, float or bool (or "
                "pl.RUNTIME), got a tensor"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), "1", 1.0, True),
     TypeError, "scaled(): parameter 'n' is a scalar; expected an int, float or bool (or "
                "pl.RUNTIME), got str"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), 1.5, 1.0, True),
     TypeError, "scaled(): parameter 'n' is pl.Scalar[pl.INT64]; expected an int, got float"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), True, 1.0, True),
     TypeError, "scaled(): parameter 'n' is pl.Scalar[pl.INT64]; expected a number, got a bool"),
    (lambda: scaled.specialize(f32(16, 4), f32(2), 1, 1.0, 1),
     TypeError, "scaled(): parameter 'flag' is pl.Scalar[pl.BOOL]; expected a bool, got int"),
    (lambda: scaled.specialize(pl.RUNTIME, f32(2), 1, 1.0, True),
     TypeError, "scaled(): pl.RUNTIME applies to scalar parameters, but 'x' is a tensor"),
    (lambda: scaled.specialize(np.zeros((16, 4), np.int32), f32(2), 1, 1.0, True),
     TypeError, "scaled(): parameter 'x' is annotated pl.Tensor[[16, N], pl.FP32] but the "
                "argument's dtype is INT32"),
    (lambda: scaled.specialize(f32(16), f32(2), 1, 1.0, True),
     ValueError, "scaled(): parameter 'x' is annotated pl.Tensor[[16, N], pl.FP32] (rank 2) "
                 "but the argument has shape [16] (rank 1)"),
    (lambda: scaled.specialize(f32(8, 4), f32(2), 1, 1.0, True),
     ValueError, "scaled(): parameter 'x' is annotated pl.Tensor[[16, N], pl.FP32] but the "
                 "argument's dimension 0 is 8, not 16"),
    (lambda: scaled.specialize(TensorSpec((16, 4), pl.FP32, pl.NZ), f32(2), 1, 1.0, True),
     ValueError, "scaled(): parameter 'x' is annotated with layout ND but the argument's "
                 "layout is NZ"),
])
def test_bad_arguments_name_the_parameter(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_dynamic_dims_take_any_size_and_config_is_ignored():
    program = scaled.specialize(f32(16, 7), f32(3), 2, 0.5, False, config={"anything": 1})
    x, out, n, alpha, flag = params_of(program, "scaled")
    static, dim = x.type.shape
    assert isinstance(static, ir.ConstInt) and static.value == 16
    assert isinstance(dim, ir.Var) and dim.name_hint == "N"
    assert out.type == ir.TensorType([3], DataType.FP32)
    assert (n.type, alpha.type, flag.type) == (ir.ScalarType(DataType.INT64),
                                               ir.ScalarType(DataType.FP32),
                                               ir.ScalarType(DataType.BOOL))


def test_one_dynamic_dim_has_one_size_per_call():
    @pl.jit
    def pair(a: pl.Tensor[[N], pl.FP32], b: pl.Tensor[[N], pl.FP32]):
        return a

    with pytest.raises(ValueError) as info:
        pair.specialize(f32(4), f32(5))
    assert str(info.value) == "pair(): dynamic dim 'N' is 4 for parameter 'a' but 5 for 'b'"


def test_unannotated_parameter_is_the_parsers_error_at_the_users_line():
    @pl.jit
    def bare(x):  # @bare-param
        return x

    with pytest.raises(ParserTypeError, match="Parameter 'x' missing type annotation") as info:
        bare.specialize(f32(2))
    assert (info.value.span["line"], info.value.span["column"]) == marker_position("bare-param",
                                                                                   "x)")


def test_an_argument_for_an_annotation_jit_cannot_bind_is_rejected():
    @pl.jit.incore
    def tiled(t: pl.Tile[[8, 8], pl.FP32]):
        return t

    with pytest.raises(TypeError) as info:
        tiled.specialize(f32(8, 8))
    assert str(info.value) == ("tiled(): parameter 't' is annotated 'pl.Tile[[8, 8], pl.FP32]'; "
                               "@pl.jit binds arguments only to pl.Tensor and pl.Scalar "
                               "parameters")


# -- signature mode ------------------------------------------------------------------------------

@pl.jit
def fixed(x: pl.Tensor[[8, 8], pl.FP16], y: pl.Out[pl.Tensor[[8, 8], pl.FP16]],
          n: pl.Scalar[pl.INT64] = 4, m: pl.Scalar[pl.INDEX] = pl.RUNTIME):
    for i in pl.range(n):
        y = pl.add(x, x)
    for j in pl.range(m):
        y = pl.add(y, x)
    return y


def test_signature_mode_takes_shapes_from_annotations_and_scalars_from_defaults():
    compiled = fixed.compile()
    assert compiled.name == "fixed"
    program = fixed.specialize()
    x, y, n, m = params_of(program, "fixed")
    assert x.type == ir.TensorType([8, 8], DataType.FP16)
    text = program.as_python()
    assert "for i in pl.range(4):" in text  # the default 4 is substituted...
    assert "for j in pl.range(m):" in text  # ...pl.RUNTIME keeps m a parameter
    assert "n: pl.Scalar[pl.INT64]" in text  # the parameter stays, with its annotation


def test_signature_mode_scalars_from_keywords_and_runtime():
    text = fixed.specialize(n=pl.RUNTIME, m=2).as_python()
    assert "for i in pl.range(n):" in text and "for j in pl.range(2):" in text


def test_signature_mode_needs_complete_annotations():
    @pl.jit
    def half(x: pl.Tensor[[8], pl.FP32], y: pl.Tensor):
        return x

    with pytest.raises(TypeError) as info:
        half.compile()
    assert str(info.value) == ("@pl.jit function 'half': missing a required argument: 'y' "
                               "(its annotation is a bare pl.Tensor, so its shape must come "
                               "from an argument)")


def test_a_missing_tensor_outside_signature_mode_is_an_error():
    with pytest.raises(TypeError) as info:
        fixed.specialize(f32(8, 8).astype(np.float16))
    assert str(info.value) == ("@pl.jit function 'fixed': missing a required argument: 'y' "
                               "(other tensors were passed)")


def test_float_scalar_accepts_an_int_and_numpy_scalars_are_unwrapped():
    text = scaled.specialize(f32(16, 2), f32(2), np.int64(3), 2, np.bool_(True)).as_python()
    assert "pl.Scalar[pl.FP32]" in text
    program = scaled.specialize(f32(16, 2), f32(2), 3, 2.0, True)
    ir.assert_structural_equal(program, scaled.specialize(f32(16, 2), f32(2), np.int64(3), 2,
                                                          np.bool_(True)))


# -- PyPTO's scalar spellings (issue 13 point 4) -------------------------------------------

def test_dtype_only_scalar_annotations_read_as_pl_scalar_and_are_substituted():
    @pl.jit
    def scale_shift(x: pl.Tensor, y: pl.Out[pl.Tensor], alpha: pl.FP32, rows: pl.INDEX):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [rows, 8])
            pl.store(pl.mul(t, alpha), [0, 0], y)
        return y

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.Orchestration)
        def scale_shift(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
                        alpha: pl.Scalar[pl.FP32],
                        rows: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4, 8], pl.FP32]:
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [4, 8])
                pl.store(pl.mul(t, 0.75), [0, 0], y)
            return y

    ir.assert_structural_equal(scale_shift.specialize(f32(4, 8), f32(4, 8), 0.75, 4), Expected)
    x = np.ones((4, 8), np.float32)
    y = np.zeros((4, 8), np.float32)
    scale_shift(x, y, 0.75, 4)
    np.testing.assert_array_equal(y, np.full((4, 8), 0.75, np.float32))


@pytest.mark.parametrize("value, dtype", [(3, DataType.INDEX), (2.5, DataType.FP32),
                                          (True, DataType.BOOL)])
def test_a_bare_pl_scalar_takes_the_dtype_of_its_value(value, dtype):
    @pl.jit
    def entry(x: pl.Tensor, k: pl.Scalar):
        return x

    param = entry.specialize(f32(2), value)["entry"].params[1]
    assert param.type == ir.ScalarType(dtype)


def test_a_bare_pl_scalar_cannot_stay_a_runtime_parameter():
    @pl.jit
    def entry(x: pl.Tensor, k: pl.Scalar):
        return x

    with pytest.raises(TypeError, match=r"parameter 'k' is a bare pl.Scalar, so its dtype comes "
                                        r"from its value; pl.RUNTIME has none"):
        entry.specialize(f32(2), pl.RUNTIME)


@pl.jit.incore
def add_scalar(a: pl.Tensor, k: pl.Scalar, o: pl.Out[pl.Tensor]):
    o = pl.store(pl.add(pl.load(a, [0, 0], [4, 4]), k), [0, 0], o)
    return o


def test_a_dependency_scalar_stays_a_parameter_typed_by_the_call():
    @pl.jit
    def entry(a: pl.Tensor, o: pl.Out[pl.Tensor], n: pl.INDEX):
        o = add_scalar(a, 1.5, o)
        return o

    kernel = entry.specialize(f32(4, 4), f32(4, 4), 2)["add_scalar"]
    assert kernel.params[1].type == ir.ScalarType(DataType.FP32)
    a = np.ones((4, 4), np.float32)
    o = np.zeros((4, 4), np.float32)
    entry(a, o, 2)
    np.testing.assert_array_equal(o, np.full((4, 4), 2.5, np.float32))

"""DSL constructs PyPTO accepts (issue 13 point 4): each parses, prints, reads back
equal and, where it computes, runs on the executor; each misuse is a diagnostic at
the user's line."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import (InvalidOperationError, ParserSyntaxError,
                                               ParserTypeError)

from _eager_annotations import DynamicTileView, DynamicView
from _parser_helpers import (INDEX, SPAN, assert_roundtrip, expect_error, expect_text_error,
                              stmts)

def _const(value: int) -> ir.ConstInt:
    return ir.ConstInt(value, INDEX, SPAN)


# -- out[:] = e on any rank ---------------------------------------------------------------

@pl.program
class FullStore:
    @pl.function
    def main(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]
             ) -> pl.Tensor[[4, 8], pl.FP32]:
        out[:] = pl.add(x, x)
        return out


@pl.program
class FullStore3D:
    @pl.function
    def main(self, x: pl.Tensor[[2, 4, 8], pl.FP32],
             out: pl.Out[pl.Tensor[[2, 4, 8], pl.FP32]]) -> pl.Tensor[[2, 4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out[:] = pl.mul(x, 3.0)
        return out


def test_full_store_on_rank_2_assembles_at_the_origin():
    func = FullStore.get_function("main")
    x, out = func.params
    assign = stmts(func)[0]
    assert assign.var is out
    ir.assert_structural_equal(assign.value,
                               pl.assemble(out, pl.add(x, x), [_const(0), _const(0)]))
    assert_roundtrip(FullStore)


def test_full_store_on_rank_3_inside_a_kernel_region_roundtrips():
    assert "pl.tensor.assemble(out, pl.tensor.muls(x, 3.0), [0, 0, 0])" in \
        ir.python_print(FullStore3D)
    assert_roundtrip(FullStore3D)


def test_full_store_runs():
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    out = np.zeros((4, 8), np.float32)
    pypto.run(FullStore, x, out)
    np.testing.assert_array_equal(out, x + x)
    x3 = np.arange(64, dtype=np.float32).reshape(2, 4, 8)
    out3 = np.zeros((2, 4, 8), np.float32)
    pypto.run(FullStore3D, x3, out3)
    np.testing.assert_array_equal(out3, x3 * 3)


def test_partial_store_fills_the_missing_axes_with_zero():
    @pl.function
    def f(a: pl.Tensor[[8, 4, 2], pl.FP32], b: pl.Tensor[[2, 4, 2], pl.FP32],
          i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 4, 2], pl.FP32]:
        a[i:i + 2] = b
        return a

    a, b, i = f.params
    ir.assert_structural_equal(stmts(f)[0].value, pl.assemble(a, b, [i, _const(0), _const(0)]))


def test_store_with_too_many_indices():
    with expect_error(ParserSyntaxError, "Too many indices (3) for a rank-2 value", "too-many",
                      "out["):
        @pl.function
        def f(x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
            out[:, :, :] = x  # @too-many
            return out


def test_full_store_of_a_mismatched_shape_is_the_assemble_error():
    with expect_error(InvalidOperationError, "tensor.assemble", "mismatch", "out[:]"):
        @pl.function
        def f(x: pl.Tensor[[4, 8, 2], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
            out[:] = x  # @mismatch
            return out


# -- pl.read / pl.write with one scalar offset ------------------------------------------

@pl.program
class ReadNext:
    @pl.function
    def main(self, t: pl.Tensor[[8], pl.INT32], out: pl.Out[pl.Tensor[[8], pl.INT32]],
             i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8], pl.INT32]:
        v = pl.read(t, i + 1)
        out = pl.write(out, i, v)
        return out


def test_read_with_a_scalar_offset_is_a_one_index_read():
    func = ReadNext.get_function("main")
    t, out, i = func.params
    read, write = stmts(func)[:2]
    ir.assert_structural_equal(read.value, pl.tensor.read(t, [i + 1]))
    ir.assert_structural_equal(write.value, pl.tensor.write(out, [i], read.var))
    assert_roundtrip(ReadNext)


def test_read_with_a_scalar_offset_runs():
    t = np.arange(10, 18, dtype=np.int32)
    out = np.zeros(8, np.int32)
    pypto.run(ReadNext, t, out, 3)
    assert out[3] == 14 and out.sum() == 14


def test_read_with_one_offset_from_a_rank_2_tensor():
    with expect_error(InvalidOperationError, "offset has 1 item(s) but the source has rank 2",
                      "rank2", "pl.read"):
        @pl.function
        def f(t: pl.Tensor[[4, 8], pl.INT32], i: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INT32]:
            v = pl.read(t, i + 1)  # @rank2
            return v


# -- pl.create_tensor ---------------------------------------------------------------------

@pl.program
class Creates:
    @pl.function
    def main(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        a = pl.create_tensor([4, 8], pl.FP32)
        b = pl.create_tensor([4, 8], dtype=pl.FP32)
        c = pl.create_tensor(shape=[4, 8], dtype=pl.FP16)
        a = pl.assemble(a, x, [0, 0])
        return a


def test_create_tensor_positional_and_keyword_dtype():
    a, b, c = (s.var for s in stmts(Creates.get_function("main"))[:3])
    assert a.type == b.type == ir.TensorType([4, 8], ir.DataType.FP32)
    assert c.type == ir.TensorType([4, 8], ir.DataType.FP16)
    assert_roundtrip(Creates)
    x = np.ones((4, 8), np.float32)
    np.testing.assert_array_equal(pypto.run(Creates, x), x)


def test_create_tensor_without_a_dtype():
    with expect_error(InvalidOperationError, "missing 1 required positional argument: 'dtype'",
                      "no-dtype", "pl.create_tensor"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            a = pl.create_tensor([4])  # @no-dtype
            return a


# -- pl.TensorView(valid_shape=[16, N]) with a dynamic N ------------------------------------

def test_tensor_view_with_a_dynamic_valid_shape():
    (x,) = DynamicView.get_function("main").params
    dim = x.type.shape[1]
    assert isinstance(dim, ir.Var) and dim.name_hint == "N"
    assert x.type.tensor_view.valid_shape[1] is dim  # the program's one N, not a copy
    assert "pl.TensorView(valid_shape=[16, N])" in ir.python_print(DynamicView)
    assert_roundtrip(DynamicView)


def test_tensor_view_with_a_dynamic_valid_shape_runs():
    x = np.arange(48, dtype=np.float32).reshape(16, 3)
    np.testing.assert_array_equal(pypto.run(DynamicView, x), x + x)


def test_tile_view_and_load_with_a_dynamic_valid_shape():
    x, out = DynamicTileView.get_function("main").params
    n = x.type.shape[1]
    load = stmts(DynamicTileView.get_function("main"))[0]
    assert load.var.type.tile_view.valid_shape[1] is n
    ir.assert_structural_equal(load.value.args[3], ir.MakeTuple([_const(16), n], SPAN))
    assert_roundtrip(DynamicTileView)


def test_tensor_view_with_a_bad_valid_shape_entry():
    with expect_error(ParserTypeError, "A shape dimension must be an integer scalar, got '2.5'",
                      "bad-view", "2.5"):
        @pl.function
        def f(x: pl.Tensor[[16, 4], pl.FP32,
                           pl.TensorView(valid_shape=[16, 2.5])]):  # @bad-view
            return


# -- slice extents that simplify ----------------------------------------------------------

@pl.program
class Windows:
    @pl.function
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], k0: pl.Scalar[pl.INDEX],
             n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = x[:, k0:k0 + 16]
        b = x[:, k0 * 2 + 8:k0 * 2 + 24]
        c = x[:, k0:k0 + n]
        d = x[:, k0 + 16 - k0:32]
        return a


def test_slice_extents_reduce_to_their_static_part():
    func = Windows.get_function("main")
    x, k0, n = func.params
    a, b, c, d = (s.var for s in stmts(func)[:4])
    assert a.type == ir.TensorType([16, 16], ir.DataType.FP32)
    assert b.type == ir.TensorType([16, 16], ir.DataType.FP32)
    assert c.type.shape[1] is n
    assert d.type == ir.TensorType([16, 16], ir.DataType.FP32)
    assert "pl.tensor.slice(x, [16, 16], [0, k0])" in ir.python_print(Windows)
    assert_roundtrip(Windows)


def test_slice_extents_that_do_not_reduce_stay_a_difference():
    @pl.function
    def f(x: pl.Tensor[[64], pl.FP32], i: pl.Scalar[pl.INDEX], j: pl.Scalar[pl.INDEX]
          ) -> pl.Tensor[[64], pl.FP32]:
        y = x[i:j + i * 2]
        return x

    x, i, j = f.params
    ir.assert_structural_equal(stmts(f)[0].var.type.shape[0], j + i * 2 - i)


def test_simplified_slice_runs():
    x = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    np.testing.assert_array_equal(pypto.run(Windows, x, 8, 4), x[:, 8:24])



# -- pl.func_attr values ------------------------------------------------------------------

def test_func_attr_takes_pyptos_value_kinds():
    @pl.function
    def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "slot_num": 2, "ratio": -0.5,
                      "name": "k", "dtype": pl.BF16, "flag": False, "dims": [4, 1],
                      "dirs": [pl.adir.input, pl.adir.output], "none": []})
        return x

    assert f.attrs == {"split": ir.SplitMode.UP_DOWN, "slot_num": 2, "ratio": -0.5, "name": "k",
                       "dtype": ir.DataType.BF16, "flag": False, "dims": [4, 1],
                       "dirs": [ir.ArgDirection.Input, ir.ArgDirection.Output], "none": []}
    assert_roundtrip(f)


@pytest.mark.parametrize("value, marker", [
    ("['a', 'b']", "strings"), ("[1, 2.0]", "mixed"), ("[True]", "bools"),
    ("[[1], [2]]", "nested"), ("[pl.adir.input, 1]", "adir-int")])
def test_func_attr_lists_hold_one_supported_kind(value, marker):
    expect_text_error(f"""\
import pypto.language as pl

@pl.function
def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
    pl.func_attr({{"k": 1, "tags": {value}}})  # @{marker}
    return x
""", ParserSyntaxError, "attrs['tags'] on call to 'pl.func_attr': list elements are mixed or "
                        "of an unsupported kind", marker, value)


def test_func_attr_list_of_dsl_variables_is_refused():
    with expect_error(ParserSyntaxError, "'x' is a DSL variable; function attributes hold "
                                         "constants", "names", "x]"):
        @pl.function
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            pl.func_attr({"deps": [x]})  # @names
            return x


# -- @pl.jit parameters annotated with a bare dtype ------------------------------------------

@pl.jit
def scaled_rows(x: pl.Tensor, s: pl.FP32, n: pl.INDEX, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.range(n):
            t = pl.load(x, [i * 4, 0], [4, 8])
            out = pl.store(pl.mul(t, s), [i * 4, 0], out)
    return out


def test_jit_parameters_annotated_fp32_and_index_are_scalars():
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    out = np.zeros_like(x)
    program = scaled_rows.specialize(x, 2.5, 2, out)
    _, s, n, _ = program.get_function("scaled_rows").params
    assert s.type == ir.ScalarType(ir.DataType.FP32) and n.type == ir.ScalarType(INDEX)
    assert_roundtrip(program)
    scaled_rows(x, 2.5, 2, out)
    np.testing.assert_array_equal(out, 2.5 * x)


def test_jit_index_parameter_given_a_float():
    x = np.zeros((8, 8), np.float32)
    with pytest.raises(TypeError, match=r"parameter 'n' is pl.Scalar\[pl.INDEX\]; expected an "
                                        r"int, got float"):
        scaled_rows(x, 2.5, 2.5, x)


# -- pl.scope / pl.manual_scope as PyPTO spells them --------------------------------------

def test_scope_constructs_are_classes_with_pyptos_signatures():
    import inspect
    assert inspect.isclass(pl.scope) and inspect.isclass(pl.manual_scope)
    assert list(inspect.signature(pl.scope).parameters) == ["mode"]
    assert inspect.signature(pl.scope).parameters["mode"].default is pl.ScopeMode.AUTO
    assert list(inspect.signature(pl.manual_scope).parameters) == []
    assert pl.scope(pl.ScopeMode.MANUAL).mode is pl.ScopeMode.MANUAL
    assert pl.manual_scope().mode is pl.ScopeMode.MANUAL
    with pytest.raises(RuntimeError, match=r"pl.scope\(\) only has a meaning inside"):
        with pl.scope():
            pass
    with pytest.raises(TypeError, match="mode must be a pl.ScopeMode"):
        pl.scope("manual")


@pl.program
class Scoped:
    @pl.function(auto_scope=False)
    def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        with pl.scope():
            y = pl.add(x, x)
        with pl.scope(pl.ScopeMode.MANUAL):
            z = pl.add(y, x)
        with pl.manual_scope():
            w = pl.add(z, x)
        return w

    @pl.function
    def auto(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        with pl.manual_scope():
            y = pl.mul(x, x)
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            z = pl.add(y, x)
        with pl.at(level=pl.Level.CORE_GROUP):
            with pl.scope():  # kernel code: not the auto-scoped orchestration body
                w = pl.add(z, x)
        return w


def test_scope_forms_and_the_auto_scope_rule():
    a, b, c = stmts(Scoped.get_function("main"))[:3]
    assert [s.manual for s in (a, b, c)] == [False, True, True]
    assert_roundtrip(Scoped)
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(pypto.run(Scoped, x, entry="main"), 4 * x)


def test_hand_placed_auto_scope_needs_auto_scope_false():
    with expect_error(ParserSyntaxError, "a hand-placed AUTO 'with pl.scope()' requires "
                                         "@pl.function(auto_scope=False)", "auto", "with"):
        @pl.function(type=pl.FunctionType.Orchestration)
        def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            with pl.scope(mode=pl.ScopeMode.AUTO):  # @auto
                y = pl.add(x, x)
            return y


def test_hand_placed_auto_scope_in_a_jit_body():
    @pl.jit
    def doubled(x: pl.Tensor, out: pl.Out[pl.Tensor]):
        with pl.scope():  # @jit-auto
            out[:] = pl.add(x, x)
        return out

    x = np.ones((4, 8), np.float32)
    with expect_error(ParserSyntaxError, "requires @pl.function(auto_scope=False)", "jit-auto",
                      "with"):
        doubled.specialize(x, np.zeros_like(x))

    @pl.jit(auto_scope=False)
    def doubled_in_scope(x: pl.Tensor, out: pl.Out[pl.Tensor]):
        with pl.scope():
            with pl.at(level=pl.Level.CORE_GROUP):
                out[:] = pl.add(x, x)
        return out

    out = np.zeros_like(x)
    doubled_in_scope(x, out)
    np.testing.assert_array_equal(out, 2 * x)


# -- pl.graph inside pl.at --------------------------------------------------------------------

@pytest.mark.parametrize("level", ["HOST", "CHIP", "GLOBAL", "CORE_GROUP"])
def test_graph_inside_any_pl_at_is_a_parse_error(level):
    fragment = ("out of scope (graph x distributed)" if level != "CORE_GROUP"
                else "cannot be nested inside `pl.at`")
    expect_text_error(f"""\
import pypto.language as pl

@pl.function
def f(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
    with pl.at(level=pl.Level.{level}):
        y = pl.add(x, x)
        with pl.graph("g"):  # @graph
            y = pl.add(y, x)
    return y
""", ParserSyntaxError, fragment, "graph", "with pl.graph")

"""Specialization rewrites (01-language.md §17.3), checked against hand-written programs."""

from __future__ import annotations

import types

import pytest

import pypto.language as pl
import pypto.language as dsl  # another name for pl: jit bodies may use it
from pypto import ir
from pypto.jit import TensorSpec
from pypto.language.parser.diagnostics import ParserSyntaxError, ParserTypeError

from _jit_helpers import f32, marker_position

M = pl.dynamic("M")
ROWS = 16
COLS = 64
LAYERS = 4
SCALE = 0.5
USE_SCALE = True
HALF = pl.FP16
SHAPE = [ROWS, COLS]
CONFIG = types.SimpleNamespace(rows=8, dtype=pl.FP16)


def test_bare_tensors_take_the_argument_types_and_globals_are_inlined():
    @pl.jit
    def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
        for i in pl.range(LAYERS):
            with pl.graph("accumulate_band"):
                base = i * ROWS
                with pl.at(level=pl.Level.CORE_GROUP):
                    band = pl.load(w, [base, 0], [ROWS, COLS])
                    cur = pl.load(acc, [0, 0], [ROWS, COLS])
                    pl.store(pl.add(cur, band), [0, 0], acc)
        return acc

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, w: pl.Tensor[[64, 64], pl.FP32],
                  acc: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
            for i in pl.range(4):
                with pl.graph("accumulate_band"):
                    base = i * 16
                    with pl.at(level=pl.Level.CORE_GROUP):
                        band = pl.load(w, [base, 0], [16, 64])
                        cur = pl.load(acc, [0, 0], [16, 64])
                        pl.store(pl.add(cur, band), [0, 0], acc)
            return acc

    program = entry.specialize(f32(64, 64), f32(16, 64))
    assert program.name == "_jit_entry"
    ir.assert_structural_equal(program, Expected)


def test_bind_dynamic_shape_and_dtype_become_literals_or_the_dim_name():
    @pl.jit
    def entry(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        x.bind_dynamic(0, M)
        rows, cols = x.shape
        kind = x.dtype
        tmp = pl.create_tensor([rows, cols], kind)
        width = x.shape[-1]
        y = pl.add(y, pl.cast(pl.full([1, width], kind, 0.0), pl.FP32))
        return y

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, x: pl.Tensor[[M, 32], pl.FP16],
                  y: pl.Out[pl.Tensor[[4, 32], pl.FP32]]) -> pl.Tensor[[4, 32], pl.FP32]:
            tmp = pl.create_tensor([M, 32], pl.FP16)
            y_v1 = pl.add(y, pl.cast(pl.full([1, 32], pl.FP16, 0.0), pl.FP32))
            return y_v1

    program = entry.specialize(TensorSpec((8, 32), pl.FP16), f32(4, 32))
    ir.assert_structural_equal(program, Expected)
    assert 'M = pl.dynamic("M")' in program.as_python()


def test_bind_dynamic_accepts_an_inline_dynamic_call():
    @pl.jit
    def entry(x: pl.Tensor):
        x.bind_dynamic(1, pl.dynamic("K"))
        return x

    param = entry.specialize(f32(2, 3)).get_function("entry").params[0]
    assert isinstance(param.type.shape[1], ir.Var) and param.type.shape[1].name_hint == "K"


def test_shape_names_bound_twice_stay_dsl_assignments():
    @pl.jit
    def entry(x: pl.Tensor, n: pl.Scalar[pl.INDEX]):
        rows = x.shape[0]
        for i in pl.range(n):
            rows = rows + 1
        return x

    text = entry.specialize(f32(6, 2), pl.RUNTIME).as_python()
    assert "rows: pl.Scalar[pl.INDEX] = 6" in text


def test_scalar_values_are_substituted_and_the_parameters_kept():
    @pl.jit
    def entry(x: pl.Tensor, n: pl.Scalar[pl.INT64], alpha: pl.Scalar[pl.FP32]):
        for i in pl.range(n):
            x = pl.mul(x, alpha)
        return x

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, x: pl.Tensor[[8], pl.FP32], n: pl.Scalar[pl.INT64],
                  alpha: pl.Scalar[pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
            for i in pl.range(3):
                x = pl.mul(x, 2.0)
            return x

    ir.assert_structural_equal(entry.specialize(f32(8), 3, 2), Expected)


def test_a_rebound_scalar_parameter_is_not_substituted():
    @pl.jit
    def entry(x: pl.Tensor, n: pl.Scalar[pl.INDEX]):
        n = n + 1
        for i in pl.range(n):
            x = pl.add(x, x)
        return x

    text = entry.specialize(f32(8), 3).as_python()
    assert "n_v1: pl.Scalar[pl.INDEX] = n + 1" in text and "for i in pl.range(n_v1):" in text


def test_namespace_values_of_every_supported_kind_are_inlined():
    local_rows = 2  # a closure cell

    @pl.jit
    def entry(x: pl.Tensor[SHAPE, HALF]):
        y = pl.create_tensor([CONFIG.rows, local_rows], CONFIG.dtype)
        z = dsl.mul(x, SCALE)
        if USE_SCALE:
            z = pl.add(z, z)
        t = pl.full([ROWS // 2, 1], pl.FP32, -SCALE)
        return z

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, x: pl.Tensor[[16, 64], pl.FP16]) -> pl.Tensor[[16, 64], pl.FP16]:
            y = pl.create_tensor([8, 2], pl.FP16)
            z = pl.mul(x, 0.5)
            if True:
                z = pl.add(z, z)
            t = pl.full([8, 1], pl.FP32, -0.5)
            return z

    ir.assert_structural_equal(entry.specialize(TensorSpec((16, 64), pl.FP16)), Expected)


def test_an_unsupported_namespace_value_is_an_error_at_the_users_line():
    helper = object()

    @pl.jit
    def entry(x: pl.Tensor):
        y = pl.add(x, helper)  # @unsupported
        return y

    with pytest.raises(ParserTypeError) as info:
        entry.specialize(f32(4))
    err = info.value
    assert err.message == "Unsupported closure variable type: object ('helper')"
    assert (err.span["line"], err.span["column"]) == marker_position("unsupported", "helper")


def test_return_types_are_inferred_from_returned_parameters():
    @pl.jit.incore
    def both(a: pl.Tensor, b: pl.Out[pl.Tensor]) -> pl.Tensor:
        return b

    @pl.jit.incore
    def two(a: pl.Tensor, b: pl.Out[pl.Tensor], k: pl.Scalar[pl.INDEX]):
        return b, a

    assert both.specialize(f32(2), f32(3)).get_function("both").return_types == \
        (ir.TensorType([3], ir.DataType.FP32),)
    assert two.specialize(f32(2), f32(3), pl.RUNTIME).get_function("two").return_types == \
        (ir.TensorType([3], ir.DataType.FP32), ir.TensorType([2], ir.DataType.FP32))


def test_a_bare_return_annotation_takes_the_type_of_the_returned_value():
    @pl.jit
    def entry(x: pl.Tensor) -> pl.Tensor:
        return pl.add(x, x)

    assert entry.specialize(f32(4))["entry"].return_types == (ir.TensorType([4], ir.DataType.FP32),)


def test_a_bare_return_annotation_without_a_returned_value_is_an_error():
    @pl.jit
    def entry(x: pl.Tensor) -> pl.Tensor:  # @bare-return
        y = pl.add(x, x)

    with pytest.raises(ParserTypeError) as info:
        entry.specialize(f32(4))
    assert info.value.message == ("Cannot infer the return type of 'entry' for its bare "
                                  "pl.Tensor return annotation: it returns no value")
    line, column = marker_position("bare-return", "pl.Tensor:")
    assert (info.value.span["line"], info.value.span["column"]) == (line, column)


def test_user_comments_are_kept():
    @pl.jit
    def entry(x: pl.Tensor):
        # double it
        y = pl.add(x, x)
        x.bind_dynamic(0, M)
        # and return it
        return y

    text = entry.specialize(f32(4)).as_python()
    assert "        # double it\n        y: " in text
    assert "        # and return it\n        return y" in text


@pytest.mark.parametrize("body, message, token", [
    ("y.bind_dynamic(0, M)", "bind_dynamic() applies to tensor parameters; 'y' is not a "
                             "parameter", "y.bind"),
    ("x.bind_dynamic(2, M)", "bind_dynamic(): axis 2 is out of range for 'x' of rank 2",
     "x.bind"),
    ("x.bind_dynamic(0, 5)", "bind_dynamic(): the second argument must be a pl.dynamic(...) dim "
                             "(a name bound to pl.dynamic(\"M\"), or pl.dynamic(\"M\") itself)",
     "5"),
    ("x.bind_dynamic(k, M)", "x.bind_dynamic(): the axis must be an integer literal", "k"),
    ("n.bind_dynamic(0, M)", "bind_dynamic() applies to tensor parameters with a known shape; "
                             "'n' is a scalar", "n.bind"),
    ("z = x.bind_dynamic(0, M)", "x.bind_dynamic(axis, M) must be a statement of its own",
     "x.bind"),
    ("z = x.shape[2]", "x.shape[2] is out of range: 'x' has rank 2", "x.shape"),
])
def test_specialization_errors_point_at_the_users_code(tmp_path, monkeypatch, body, message,
                                                       token):
    source = ("import pypto.language as pl\n"
              "M = pl.dynamic('M')\n"
              "k = 0\n"
              "@pl.jit\n"
              "def entry(x: pl.Tensor, n: pl.Scalar[pl.INDEX]):\n"
              "    y = x\n"
              f"    {body}\n"
              "    return x\n")
    path = tmp_path / "jit_errors_module.py"
    path.write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    module = importlib.import_module("jit_errors_module")
    try:
        with pytest.raises(ParserSyntaxError) as info:
            module.entry.specialize(f32(2, 3), 1)
    finally:
        import sys
        sys.modules.pop("jit_errors_module", None)
    err = info.value
    assert err.message == message
    line = source.splitlines()[6]
    assert (err.span["filename"], err.span["line"], err.span["column"]) == \
        (str(path), 7, line.index(token) + 1)
    assert err.source_lines == source.splitlines()


@pl.jit.incore
def passthrough(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    return out


def test_expression_dims_are_kept_with_their_names_inlined():
    import numpy as np
    width = np.int64(4)  # NumPy scalars stand for the number they hold

    @pl.jit
    def entry(x: pl.Tensor[[M * 2, width], pl.FP32]):
        rows = x.shape[0]
        t = pl.create_tensor([rows, x.shape[1]], pl.FP32)
        t = passthrough(x, t)
        return x

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore)
        def passthrough(self, a: pl.Tensor[[M * 2, 4], pl.FP32],
                        out: pl.Out[pl.Tensor[[M * 2, 4], pl.FP32]]
                        ) -> pl.Tensor[[M * 2, 4], pl.FP32]:
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, x: pl.Tensor[[M * 2, 4], pl.FP32]) -> pl.Tensor[[M * 2, 4], pl.FP32]:
            t = pl.create_tensor([M * 2, 4], pl.FP32)
            t_v1 = self.passthrough(x, t)
            return x

    ir.assert_structural_equal(entry.specialize(), Expected)


def test_a_shape_using_the_callers_names_cannot_type_a_dependency():
    @pl.jit
    def entry(n: pl.Scalar[pl.INDEX], z: pl.Tensor[[n, 4], pl.FP32]):
        k = z.shape[0]
        z = passthrough(z, z)  # @caller-shape
        return z

    with pytest.raises(ParserTypeError) as info:
        entry.specialize(n=pl.RUNTIME)
    assert info.value.message == ("Cannot infer the type of parameter 'a' of @pl.jit.incore "
                                  "function 'passthrough' from the argument 'z': its shape "
                                  "depends on the caller's 'n'")
    assert (info.value.span["line"], info.value.span["column"]) == \
        marker_position("caller-shape", "z, z")


def test_a_dynamic_dim_named_like_a_keyword_is_rejected():
    bad = pl.dynamic("lambda")

    @pl.jit
    def entry(x: pl.Tensor):
        x.bind_dynamic(0, bad)
        return x

    with pytest.raises(ValueError) as info:
        entry.specialize(f32(3))
    assert str(info.value) == ("pl.dynamic('lambda'): @pl.jit cannot use 'lambda' as the name "
                               "of a dynamic dim; choose another name")


Matrix = pl.Tensor[[ROWS, COLS], pl.FP32]
DynRows = pl.Tensor[[M, COLS], pl.FP32]


def test_type_aliases_in_annotations_read_as_the_spelled_out_type():
    @pl.jit
    def aliased(x: Matrix, out: pl.Out[DynRows]):
        t = pl.load(x, [0, 0], [8, COLS])
        pl.store(t, [0, 0], out)
        return out

    @pl.jit
    def spelled(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[M, COLS], pl.FP32]]):
        t = pl.load(x, [0, 0], [8, COLS])
        pl.store(t, [0, 0], out)
        return out

    args = (f32(ROWS, COLS), f32(ROWS, COLS))
    ir.assert_structural_equal(aliased.specialize(*args)["aliased"],
                               spelled.specialize(*args)["spelled"])
    assert "M = pl.dynamic(\"M\")" in aliased.specialize(*args).as_python()


FP32 = ir.DataType.FP32


def _returning(form):
    """A dependency of ``form`` returning an Out parameter, a created tensor, a scalar
    and a tuple of them, each called from an entry of the matching kind."""
    @form
    def out_param(a: pl.Tensor, o: pl.Out[pl.Tensor]):
        return o

    @form
    def created(a: pl.Tensor, o: pl.Out[pl.Tensor]):
        t = pl.create_tensor([2, 4], dtype=pl.FP16)
        return t

    @form
    def scalar(a: pl.Tensor, o: pl.Out[pl.Tensor], k: pl.Scalar[pl.INDEX]):
        return k + 1

    @form
    def several(a: pl.Tensor, o: pl.Out[pl.Tensor], k: pl.Scalar[pl.INDEX]):
        return o, a, k

    @form
    def declared(a: pl.Tensor, o: pl.Out[pl.Tensor]) -> pl.Tensor[[8], pl.FP32]:
        return a

    return out_param, created, scalar, several, declared


@pytest.mark.parametrize("form", [pl.jit, pl.jit.host, pl.jit.incore, pl.jit.inline,
                                  pl.jit.opaque, pl.jit.graph],
                         ids=["jit", "host", "incore", "inline", "opaque", "graph"])
def test_return_types_are_inferred_for_every_form_and_a_declared_one_wins(form):
    out_param, created, scalar, several, declared = _returning(form)
    args = (f32(8), f32(3))
    returns = {f.__name__: f.specialize(*args, *([pl.RUNTIME] if "k" in f.param_names else []))
               [f.__name__].return_types for f in (out_param, created, scalar, several, declared)}
    index = ir.ScalarType(ir.DataType.INDEX)
    assert returns == {
        "out_param": (ir.TensorType([3], FP32),),
        "created": (ir.TensorType([2, 4], ir.DataType.FP16),),
        "scalar": (index,),
        "several": (ir.TensorType([3], FP32), ir.TensorType([8], FP32), index),
        "declared": (ir.TensorType([8], FP32),),
    }

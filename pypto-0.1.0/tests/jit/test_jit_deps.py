"""Dependencies: discovery through globals, closures and aliased imports, naming, kind
rules, per-typing instances (01-language.md §17.2)."""

from __future__ import annotations

import importlib
import sys
import textwrap

import numpy as np
import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserSyntaxError, ParserTypeError

from _jit_helpers import f32, marker_position


@pl.jit.incore
def copy_tile(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(a, [0, 0], [8, 8])
    pl.store(t, [0, 0], out)
    return out


@pl.jit
def through_globals(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    y = copy_tile(x, y)
    return y


@pl.program
class ExpectedCopy:
    @pl.function(type=pl.FunctionType.InCore)
    def copy_tile(self, a: pl.Tensor[[8, 8], pl.FP32],
                  out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t = pl.load(a, [0, 0], [8, 8])
        pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def through_globals(self, x: pl.Tensor[[8, 8], pl.FP32],
                        y: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        y_v1 = self.copy_tile(x, y)  # a rebinding is a new version, as in PyPTO
        return y_v1


def test_a_dependency_through_globals_becomes_a_method():
    program = through_globals.specialize(f32(8, 8), f32(8, 8))
    ir.assert_structural_equal(program, ExpectedCopy)
    assert list(program.functions) == ["copy_tile", "through_globals"]


def test_dependencies_through_closures_and_keyword_arguments():
    @pl.jit.incore
    def local_copy(a: pl.Tensor, out: pl.Out[pl.Tensor]):
        t = pl.load(a, [0, 0], [8, 8])
        pl.store(t, [0, 0], out)
        return out

    @pl.jit
    def through_globals(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        y = local_copy(out=y, a=x)
        return y

    program = through_globals.specialize(f32(8, 8), f32(8, 8))
    assert list(program.functions) == ["local_copy", "through_globals"]
    renamed = ExpectedCopy.as_python().replace("copy_tile", "local_copy")
    ir.assert_structural_equal(program, pl.parse(renamed))


def test_a_dependency_defined_after_its_caller_is_found():
    @pl.jit
    def caller(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        y = later(x, y)
        return y

    @pl.jit.opaque
    def later(a: pl.Tensor, out: pl.Out[pl.Tensor]):
        return out

    assert list(caller.specialize(f32(2), f32(2)).functions) == ["caller", "later"]


@pytest.fixture
def kernel_modules(tmp_path, monkeypatch):
    """Two modules each defining a different ``kern``, and an entry module importing
    both under aliases."""
    files = {
        "jit_kern_load.py": """
            import pypto.language as pl

            @pl.jit.incore
            def kern(a: pl.Tensor, out: pl.Out[pl.Tensor]):
                t = pl.load(a, [0, 0], [4, 4])
                pl.store(t, [0, 0], out)
                return out
            """,
        "jit_kern_add.py": """
            import pypto.language as pl

            @pl.jit.incore
            def kern(a: pl.Tensor, out: pl.Out[pl.Tensor]):
                t = pl.load(a, [0, 0], [4, 4])
                pl.store(pl.add(t, t), [0, 0], out)
                return out
            """,
        "jit_entry_mod.py": """
            import pypto.language as pl
            from jit_kern_load import kern as load_kernel
            from jit_kern_add import kern as add_kernel

            @pl.jit
            def kern(x: pl.Tensor, y: pl.Out[pl.Tensor]):
                y = load_kernel(x, y)
                y = add_kernel(x, y)
                y = load_kernel(x, y)
                return y
            """,
    }
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in files:
        sys.modules.pop(name[:-3], None)


def test_aliased_imports_and_clashing_names(kernel_modules):
    module = importlib.import_module("jit_entry_mod")
    program = module.kern.specialize(f32(4, 4), f32(4, 4))
    # The entry keeps its name; the two distinct `kern`s become kern__2 and kern__3.
    assert list(program.functions) == ["kern", "kern__2", "kern__3"]
    text = program.as_python()
    assert "y_v1: pl.Tensor[[4, 4], pl.FP32] = self.kern__2(x, y)" in text
    assert "y_v2: pl.Tensor[[4, 4], pl.FP32] = self.kern__3(x, y_v1)" in text
    assert text.count("self.kern__2(") == 2
    add_kernel = program.get_function("kern__3")
    assert "tile.add" in add_kernel.as_python()
    assert add_kernel.span.filename == str(kernel_modules / "jit_kern_add.py")


def test_one_dependency_typed_two_ways_gives_two_methods():
    @pl.jit
    def twice(x: pl.Tensor, y: pl.Out[pl.Tensor], z: pl.Tensor, w: pl.Out[pl.Tensor]):
        y = copy_tile(x, y)
        w = copy_tile(z, w)
        y = copy_tile(x, y)
        return y

    program = twice.specialize(f32(8, 8), f32(8, 8), f32(16, 16), f32(16, 16))
    assert list(program.functions) == ["copy_tile", "copy_tile__2", "twice"]
    second = program.get_function("copy_tile__2")
    assert second.params[0].type == ir.TensorType([16, 16], ir.DataType.FP32)


def test_argument_types_flow_through_create_tensor_and_call_results():
    @pl.jit
    def chain(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        tmp = pl.create_tensor([8, 8], pl.FP32)
        tmp = copy_tile(x, tmp)
        y = copy_tile(tmp, y)
        return y

    program = chain.specialize(f32(8, 8), f32(8, 8))
    assert list(program.functions) == ["chain", "copy_tile"]


def test_bare_parameters_take_the_parsed_type_of_any_argument_expression():
    @pl.jit
    def typed_by_the_parser(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        doubled = pl.add(x, x)
        top = pl.slice(y, [8, 8], [0, 0])
        top = copy_tile(doubled, top)
        return y

    program = typed_by_the_parser.specialize(f32(8, 8), f32(16, 8))
    kernel = program.get_function("copy_tile")
    assert [p.type for p in kernel.params] == [ir.TensorType([8, 8], ir.DataType.FP32)] * 2


def test_an_argument_that_is_not_a_tensor_for_a_bare_tensor_is_an_error():
    @pl.jit
    def scalar_for_tensor(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        n = 3
        y = copy_tile(n, y)  # @scalar-arg
        return y

    with pytest.raises(ParserTypeError) as info:
        scalar_for_tensor.specialize(f32(8, 8), f32(8, 8))
    err = info.value
    assert err.message == ("Cannot infer the type of parameter 'a' of @pl.jit.incore function "
                           "'copy_tile' from the argument 'n': it is not a tensor")
    assert (err.span["line"], err.span["column"]) == marker_position("scalar-arg", "n,")


def test_a_plain_jit_never_picks_up_another_plain_jit():
    @pl.jit
    def caller(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        y = through_globals(x, y)  # @plain-call
        return y

    with pytest.raises(ParserSyntaxError) as info:
        caller.specialize(f32(8, 8), f32(8, 8))
    err = info.value
    assert err.message == ("'through_globals' is a @pl.jit function, which a @pl.jit function "
                           "cannot call")
    assert (err.span["line"], err.span["column"]) == marker_position("plain-call",
                                                                     "through_globals")


def test_a_host_entry_calls_orchestration_functions():
    @pl.jit.host
    def driver(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        y = through_globals(x, y)
        return y

    program = driver.specialize(f32(8, 8), f32(8, 8))
    assert list(program.functions) == ["copy_tile", "driver", "through_globals"]
    assert program.get_function("through_globals").func_type is ir.FunctionType.Orchestration


def test_transitive_dependencies_and_submit():
    @pl.jit.graph
    def stage(a: pl.Tensor, out: pl.InOut[pl.Tensor]):
        out, tid = pl.submit(copy_tile, a, out)
        return out

    @pl.jit
    def entry(x: pl.Tensor, y: pl.InOut[pl.Tensor]):
        y = stage(x, y)
        return y

    program = entry.specialize(f32(8, 8), f32(8, 8))
    assert list(program.functions) == ["copy_tile", "entry", "stage"]
    assert "= pl.submit(self.copy_tile, a, out)\n" in program.as_python()


@pytest.mark.parametrize("call, message", [
    ("copy_tile(x)", "Function 'copy_tile' expects 2 argument(s), got 1"),
    ("copy_tile(x, y, x)", "Function 'copy_tile' expects 2 argument(s), got 3"),
    ("copy_tile(x, bogus=y)", "Function 'copy_tile' has no parameter 'bogus'"),
    ("copy_tile(x, a=y)", "Function 'copy_tile' got multiple values for parameter 'a'"),
])
def test_bad_dependency_calls(tmp_path, monkeypatch, call, message):
    (tmp_path / "jit_bad_calls.py").write_text(textwrap.dedent(f"""
        import pypto.language as pl
        from test_jit_deps import copy_tile

        @pl.jit
        def entry(x: pl.Tensor, y: pl.Out[pl.Tensor]):
            y = {call}
            return y
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        module = importlib.import_module("jit_bad_calls")
        with pytest.raises(ParserTypeError) as info:
            module.entry.specialize(f32(8, 8), f32(8, 8))
    finally:
        sys.modules.pop("jit_bad_calls", None)
    assert info.value.message == message
    assert info.value.span["line"] == 7


def test_referring_to_a_jit_function_without_calling_it_is_an_error():
    @pl.jit
    def entry(x: pl.Tensor):
        y = pl.add(x, copy_tile)
        return y

    with pytest.raises(ParserSyntaxError, match="@pl.jit.incore function 'copy_tile' can only "
                                                "be called by name"):
        entry.specialize(f32(8, 8))


@pl.jit.inline
def halve(a: pl.Tensor, r: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.mul(pl.load(a, [0, 0], [8, 8]), 0.5), [0, 0], r)
    return r


def test_inline_dependencies_take_their_parameters_without_a_direction():
    @pl.jit
    def entry(a: pl.Tensor, r: pl.Out[pl.Tensor]):
        r = halve(a, r)
        return r

    program = entry.specialize(f32(8, 8), f32(8, 8))
    assert program["halve"].param_directions == (ir.ParamDirection.In, ir.ParamDirection.In)
    assert program["entry"].param_directions[1] is ir.ParamDirection.Out
    a = np.full((8, 8), 3.0, np.float32)
    r = np.zeros((8, 8), np.float32)
    entry(a, r)
    np.testing.assert_array_equal(r, a * 0.5)


@pl.jit.incore
def first_rows_neg(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    N = pl.dynamic("N")
    src.bind_dynamic(0, N)
    dst.bind_dynamic(0, N)
    pl.store(pl.neg(pl.load(src, [0, 0], [4, 8])), [0, 0], dst)
    return dst


def test_a_callee_binding_an_axis_dynamic_makes_the_callers_parameter_dynamic():
    @pl.jit
    def entry(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
        dst = first_rows_neg(src, dst)
        return dst

    @pl.jit
    def outer(x: pl.Tensor, y: pl.Out[pl.Tensor]):  # transitively, through `entry`'s kernel
        y = first_rows_neg(src=x, dst=y)
        return y

    N = pl.dynamic("N")

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore)
        def first_rows_neg(self, src: pl.Tensor[[N, 8], pl.FP32],
                           dst: pl.Out[pl.Tensor[[N, 8], pl.FP32]]) -> pl.Tensor[[N, 8], pl.FP32]:
            pl.store(pl.neg(pl.load(src, [0, 0], [4, 8])), [0, 0], dst)
            return dst

        @pl.function(type=pl.FunctionType.Orchestration)
        def entry(self, src: pl.Tensor[[N, 8], pl.FP32],
                  dst: pl.Out[pl.Tensor[[N, 8], pl.FP32]]) -> pl.Tensor[[N, 8], pl.FP32]:
            dst_v1 = self.first_rows_neg(src, dst)
            return dst_v1

    ir.assert_structural_equal(entry.specialize(f32(16, 8), f32(16, 8)), Expected)
    outer_params = outer.specialize(f32(16, 8), f32(16, 8))["outer"].params
    assert all(isinstance(p.type.shape[0], ir.Var) for p in outer_params)
    src = np.arange(128, dtype=np.float32).reshape(16, 8)
    dst = np.zeros((16, 8), np.float32)
    entry(src, dst)
    np.testing.assert_array_equal(dst[:4], -src[:4])

"""``pl.no_dep`` / ``pl.tensor.no_dep``, ``pl.DynVar(*args, **kwargs)``,
``pl.TensorView(layout=None)``, ``comm_ctx.Expr`` and ``pl.__all__``'s modules."""

from __future__ import annotations

import inspect

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import ParserError


@pl.program
class NoDep:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16], pl.FP32], b: pl.Tensor[[16], pl.FP32],
             c: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[c]):
            d = pl.add(pl.no_dep(a), pl.tensor.no_dep(b))
            e = pl.add(d, pl.no_dep(a))
            f = pl.add(e, c)
        return f


@pl.program
class Listed:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16], pl.FP32], b: pl.Tensor[[16], pl.FP32],
             c: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[c, a, b]):
            d = pl.add(a, b)
            e = pl.add(d, a)
            f = pl.add(e, c)
        return f


def _scope(program):
    body = program.get_function("main").body
    return next(s for s in body.stmts if isinstance(s, ir.InCoreScopeStmt))


def test_no_dep_marks_join_the_region_no_dep_args_once_each():
    ir.assert_structural_equal(NoDep, Listed)
    names = [v.name_hint for v in _scope(NoDep).attrs["arg_direction_overrides_vars"]]
    assert names == ["c", "a", "b"]


def test_no_dep_round_trips_through_the_printer():
    text = NoDep.as_python()
    assert "no_dep_args=[c, a, b]" in text and "pl.no_dep" not in text
    ir.assert_structural_equal(pl.parse(text), NoDep)


def test_no_dep_outlines_like_no_dep_args():
    from pypto import passes
    outlined = passes.outline_incore_scopes()(passes.convert_to_ssa()(NoDep))
    expected = passes.outline_incore_scopes()(passes.convert_to_ssa()(Listed))
    ir.assert_structural_equal(outlined, expected)


def test_no_dep_outside_pl_at_is_a_parse_error():
    with pytest.raises(ParserError, match=r"pl.no_dep\(t\) is only meaningful inside") as info:
        @pl.function
        def f(a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
            b = pl.add(a, pl.no_dep(a))
            return b
    assert info.value.span["line"] == inspect.currentframe().f_lineno - 2  # the b = ... line


def test_no_dep_needs_one_tensor_variable():
    with pytest.raises(ParserError, match=r"pl.no_dep\(\) expects a tensor variable"):
        @pl.function(type=pl.FunctionType.Orchestration)
        def f(a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
            with pl.at(level=pl.Level.CORE_GROUP):
                b = pl.add(a, pl.no_dep(pl.add(a, a)))
            return b
    with pytest.raises(ParserError, match=r"pl.tensor.no_dep\(\) takes exactly one tensor"):
        @pl.function(type=pl.FunctionType.Orchestration)
        def g(a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
            with pl.at(level=pl.Level.CORE_GROUP):
                b = pl.add(a, pl.tensor.no_dep(a, a))
            return b


def test_no_dep_as_python_is_the_tensor():
    t = ir.Var("t", ir.TensorType([4], ir.DataType.FP32))
    assert pl.no_dep(t) is t and pl.tensor.no_dep(t) is t
    assert list(inspect.signature(pl.no_dep).parameters) == ["tensor", "span"]
    with pytest.raises(TypeError, match="pl.no_dep: 'tensor' must be a Tensor, got int"):
        pl.no_dep(3)


def test_dyn_var_takes_pypto_style_arguments():
    assert pl.DynVar("M") == pl.dynamic("M") == pl.DynVar(name="M")
    v = ir.Var("K", ir.ScalarType(ir.DataType.INDEX))
    wrapped = pl.DynVar(expr=v)
    assert wrapped.name == "K" and wrapped.unwrap() is v
    kinds = [p.kind for p in inspect.signature(pl.DynVar).parameters.values()]
    assert kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]
    with pytest.raises(TypeError, match="pl.DynVar takes a name"):
        pl.DynVar("M", size=3)
    with pytest.raises(TypeError, match=r"pl.DynVar\(expr=...\) expects a scalar ir.Var"):
        pl.DynVar(expr=3)
    with pytest.raises(ValueError, match="needs an identifier name"):
        pl.DynVar("1x")


def test_tensor_view_layout_none_means_nd_and_prints_unchanged():
    assert inspect.signature(pl.TensorView).parameters["layout"].default is None
    assert pl.TensorView().layout is ir.TensorLayout.ND
    assert pl.TensorView(layout=None) == pl.TensorView(layout=ir.TensorLayout.ND)

    @pl.function
    def f(x: pl.Tensor[[4, 4], pl.FP32, pl.TensorView(stride=[4, 1], layout=None)]
          ) -> pl.Tensor[[4, 4], pl.FP32]:
        return x

    assert f.params[0].type.tensor_view.layout is ir.TensorLayout.ND
    ir.assert_structural_equal(pl.parse(f.as_python()), f)


def test_comm_ctx_module_names_the_ir_expr():
    from pypto.language.distributed.typing import comm_ctx
    assert comm_ctx.Expr is ir.Expr


def test_pl_all_lists_the_optimizations_and_parser_modules():
    namespace: dict = {}
    exec("from pypto.language import *", namespace)
    assert namespace["optimizations"] is pl.optimizations
    assert namespace["parser"] is pl.parser and namespace["no_dep"] is pl.no_dep


def test_module_level_names_of_pypto_paths():
    import sys

    import pypto.language.typing as typing_pkg
    from pypto.language import dsl_api
    from pypto.language.parser import ast_parser, decorator
    from pypto.language.parser.diagnostics import exceptions

    assert typing_pkg.Array is pl.Array and typing_pkg.AsyncEvent is pl.AsyncEvent
    assert {"Array", "Ptr", "PrefetchAsyncContext"} <= set(dir(typing_pkg))
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        typing_pkg.Nope  # noqa: B018
    assert sys.modules["pypto.language.typing.dynamic"].Scalar is pl.Scalar
    assert sys.modules["pypto.language.typing.memref"].PtrType is ir.PtrType
    assert dsl_api.split_aiv is pl.split_aiv and dsl_api.SplitAivContext is type(
        pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN))
    assert ast_parser.ir is ir and exceptions.ir is ir and ast_parser.ir_op is ir.op
    assert ast_parser.python_print is ir.python_print
    with ast_parser.IRBuilder().function("f") as f:
        pass
    assert f.get_result().name == "f"
    with decorator.CompileProfiler() as prof:
        assert decorator.get_active_profiler() is prof
    assert decorator.get_active_profiler() is None


def test_renderer_and_decorator_error_and_parser_names():
    from pypto.language.parser import ast_parser, decorator
    from pypto.language.parser.diagnostics import exceptions, renderer
    assert renderer.ParserError is exceptions.ParserError is ParserError
    assert renderer.SSAViolationError is exceptions.SSAViolationError
    assert {"ParserError", "SSAViolationError", "ErrorRenderer"} <= set(dir(renderer))
    with pytest.raises(AttributeError, match="has no attribute 'Missing'"):
        renderer.Missing  # noqa: B018
    assert decorator.ASTParser is ast_parser.ASTParser

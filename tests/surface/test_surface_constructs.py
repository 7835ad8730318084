"""PyPTO's signatures for the statement-level DSL constructs, ``pypto.language.dsl_api``,
``pypto.language.optimizations`` and ``pypto.language.scope``."""

from __future__ import annotations

import inspect
import textwrap

import pytest

import pypto.language as pl
from pypto import ir
from pypto.language import dsl_api, optimizations


def _params(fn):
    return [(p.name, p.kind.name, p.default) for p in inspect.signature(fn).parameters.values()]


def test_constructs_have_pyptos_parameters():
    empty = inspect.Parameter.empty
    assert _params(pl.at)[:2] == [("level", "POSITIONAL_OR_KEYWORD", empty),
                                  ("role", "POSITIONAL_OR_KEYWORD", None)]
    assert ("windowize", "KEYWORD_ONLY", False) in _params(pl.at)
    assert _params(pl.pipeline) == [("args", "VAR_POSITIONAL", empty),
                                    ("stage", "KEYWORD_ONLY", empty),
                                    ("init_values", "KEYWORD_ONLY", None)]
    assert _params(pl.while_) == [("init_values", "KEYWORD_ONLY", None)]
    assert _params(pl.static_assert) == [("condition", "POSITIONAL_OR_KEYWORD", empty),
                                         ("msg", "POSITIONAL_OR_KEYWORD", "")]
    assert _params(pl.spmd)[0] == ("core_num", "POSITIONAL_OR_KEYWORD", empty)
    assert _params(pl.cluster) == [("name_hint", "KEYWORD_ONLY", "")]


def test_calling_a_construct_outside_a_body_checks_arguments_then_refuses():
    with pytest.raises(TypeError, match="unexpected keyword argument 'levle'"):
        pl.at(levle=pl.Level.HOST)  # a misspelt keyword: Python's own error
    with pytest.raises(TypeError):
        pl.pipeline(4)  # stage= is required
    with pytest.raises(RuntimeError, match=r"pl\.at\(\) only has a meaning inside a "
                                           r"@pl\.function"):
        pl.at(pl.Level.CORE_GROUP, name_hint="r")
    with pytest.raises(RuntimeError, match=r"pl\.range\(\) only has a meaning"):
        for _ in pl.range(4):
            pass


def test_context_classes_record_their_arguments_and_cannot_be_entered():
    ctx = dsl_api.AtContext(pl.Level.HOST, name_hint="h")
    assert ctx.arguments["level"] is pl.Level.HOST and ctx.arguments["name_hint"] == "h"
    with pytest.raises(RuntimeError, match=r"pl\.at\(\) only has a meaning"):
        with ctx:
            pass
    loop = dsl_api.RangeIterator(8, 0, 2)
    assert (loop.arguments["stop"], loop.arguments["step"]) == (8, 2)
    with pytest.raises(RuntimeError, match=r"pl\.range\(\)"):
        iter(loop)
    assert dsl_api.at is pl.at and dsl_api.Optimization is optimizations.Optimization


def test_split_and_cross_core_slot_build_optimization_records():
    split = pl.split(pl.SplitMode.UP_DOWN)
    assert split == optimizations.Split(pl.SplitMode.UP_DOWN) and split.slot_num is None
    assert isinstance(split, optimizations.Optimization)
    assert pl.cross_core_slot(slot_num=2) == optimizations.CrossCoreSlot(2)
    with pytest.warns(DeprecationWarning, match="cross_core_slot"):
        assert pl.split(pl.SplitMode.LEFT_RIGHT, slot_num=4).slot_num == 4
    with pytest.raises(ValueError, match="positive int"):
        pl.cross_core_slot(slot_num=0)
    with pytest.raises(TypeError, match="SplitMode"):
        pl.split("UP_DOWN")


_REGION = """
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[{opts}]):
            t = pl.load(x, [0, 0], [16, 16])
            y = pl.store(pl.add(t, t), [0, 0], y)
        return y
"""


def test_deprecated_split_slot_num_parses_like_cross_core_slot():
    current = pl.parse(_REGION.format(
        opts="pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)"))
    text = _REGION.format(opts="pl.split(pl.SplitMode.UP_DOWN, slot_num=2)")
    with pytest.warns(DeprecationWarning, match="cross_core_slot") as caught:
        deprecated = pl.parse(text, filename="kernel.py")
    ir.assert_structural_equal(deprecated, current)
    line = next(i for i, l in enumerate(text.split("\n"), 1) if "slot_num=2" in l)
    assert (caught[0].filename, caught[0].lineno) == ("kernel.py", line)  # the user's line
    assert "slot_num=2" in ir.python_print(current)


def test_bad_deprecated_slot_num_is_a_parse_error_at_the_call():
    from pypto.language.parser.diagnostics import ParserSyntaxError
    text = _REGION.format(opts="pl.split(pl.SplitMode.UP_DOWN, slot_num=0)")
    with pytest.warns(DeprecationWarning), pytest.raises(ParserSyntaxError,
                                                        match="positive int") as info:
        pl.parse(text)
    line = text.split("\n").index(next(l for l in text.split("\n") if "slot_num=0" in l)) + 1
    assert info.value.span["line"] == line


def test_scope_module_keeps_pl_scope_the_construct():
    import pypto.language.scope  # noqa: F401  (binds the package attribute first)
    import sys
    module = sys.modules["pypto.language.scope"]
    assert pl.scope is module.scope and pl.manual_scope is module.manual_scope
    assert module.ScopeMode is pl.ScopeMode and [m.value for m in pl.ScopeMode] == [0, 1]
    assert module.submit is pl.submit


def test_lazy_jit_names_are_listed_and_resolve():
    assert {"jit", "JITFunction"} <= set(dir(pl))
    from pypto.jit import JITFunction
    assert pl.JITFunction is JITFunction


def test_loads_takes_filepath(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(textwrap.dedent(_REGION.format(opts="pl.split(pl.SplitMode.UP_DOWN)")))
    assert isinstance(pl.loads(filepath=str(path)), ir.Program)
    assert list(inspect.signature(pl.loads).parameters) == ["filepath"]


def test_auto_is_reserve_buffers_default_base():
    assert pl.AUTO == -1

    @pl.function(type=pl.FunctionType.AIC)
    def auto(x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf = pl.reserve_buffer(name="c2v", size=4096, base=pl.AUTO)
        return x

    @pl.function(type=pl.FunctionType.AIC)
    def default(x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf = pl.reserve_buffer(name="c2v", size=4096)
        return x

    @pl.function(type=pl.FunctionType.AIC)
    def fixed(x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf = pl.reserve_buffer(name="c2v", size=4096, base=0)
        return x

    ir.assert_structural_equal(auto.body, default.body, enable_auto_mapping=True)
    with pytest.raises(ValueError):
        ir.assert_structural_equal(auto.body, fixed.body, enable_auto_mapping=True)

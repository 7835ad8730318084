"""The ``@pl.jit`` forms and their keyword rules (01-language.md §17.1, §17.5)."""

from __future__ import annotations

import numpy as np
import pytest

import pypto.language as pl
from pypto import ir
from pypto.jit import JITFunction, JitKind
from pypto.language.parser.diagnostics import ParserSyntaxError, UndefinedVariableError

from _jit_helpers import f32, marker_position


def _copy(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(x, [0, 0], [8, 8])
    pl.store(t, [0, 0], out)
    return out


FORMS = [
    # decorator, func type, level, role, attrs
    (pl.jit, ir.FunctionType.Orchestration, ir.Level.CHIP, ir.Role.Orchestrator, {}),
    (pl.jit(), ir.FunctionType.Orchestration, ir.Level.CHIP, ir.Role.Orchestrator, {}),
    (pl.jit(auto_scope=False), ir.FunctionType.Orchestration, ir.Level.CHIP,
     ir.Role.Orchestrator, {"auto_scope": False}),
    (pl.jit.host, ir.FunctionType.Opaque, ir.Level.HOST, ir.Role.Orchestrator, {}),
    (pl.jit.host(auto_scope=False), ir.FunctionType.Opaque, ir.Level.HOST,
     ir.Role.Orchestrator, {"auto_scope": False}),
    (pl.jit.incore, ir.FunctionType.InCore, ir.Level.CHIP_DIE, ir.Role.SubWorker, {}),
    (pl.jit.incore(), ir.FunctionType.InCore, ir.Level.CHIP_DIE, ir.Role.SubWorker, {}),
    (pl.jit.incore(level=pl.Level.L2CACHE), ir.FunctionType.InCore, ir.Level.CHIP_DIE,
     ir.Role.SubWorker, {}),
    (pl.jit.inline, ir.FunctionType.Inline, None, None, {}),
    (pl.jit.inline(auto_scope=False), ir.FunctionType.Inline, None, None, {"auto_scope": False}),
    (pl.jit.opaque, ir.FunctionType.Opaque, None, None, {}),
    (pl.jit.opaque(), ir.FunctionType.Opaque, None, None, {}),
    (pl.jit.graph, ir.FunctionType.Graph, ir.Level.CHIP, ir.Role.Orchestrator, {}),
    (pl.jit.graph(), ir.FunctionType.Graph, ir.Level.CHIP, ir.Role.Orchestrator, {}),
]


@pytest.mark.parametrize("decorator, func_type, level, role, attrs", FORMS)
def test_each_form_emits_its_function_decorator(decorator, func_type, level, role, attrs):
    jitted = decorator(_copy)
    assert isinstance(jitted, JITFunction)
    program = jitted.specialize(f32(8, 8), f32(8, 8))
    func = program.get_function("_copy")
    assert (func.func_type, func.level, func.role) == (func_type, level, role)
    assert func.attrs == attrs
    assert program.name == "_jit__copy"
    assert list(program.functions) == ["_copy"]


def test_kind_reports_the_spelling():
    assert pl.jit(_copy).kind is JitKind.ORCHESTRATION
    assert pl.jit.incore(_copy).kind is JitKind.INCORE
    assert JitKind.GRAPH.spelling == "pl.jit.graph"
    assert repr(pl.jit) == "pl.jit"
    assert repr(pl.jit.graph(_copy)).startswith("<pl.jit.graph function ")


@pytest.mark.parametrize("make, message", [
    (lambda: pl.jit(level=pl.Level.CHIP), "pl.jit() got an unexpected keyword argument 'level' "
                                          "(only pl.jit.incore takes level=)"),
    (lambda: pl.jit.graph(level=pl.Level.CHIP), "pl.jit.graph() got an unexpected keyword "
                                                "argument 'level' (only pl.jit.incore takes "
                                                "level=)"),
    (lambda: pl.jit.opaque(auto_scope=True), "pl.jit.opaque() got an unexpected keyword "
                                             "argument 'auto_scope' (only pl.jit, pl.jit.host and "
                                             "pl.jit.inline take auto_scope=)"),
    (lambda: pl.jit.incore(auto_scope=False), "pl.jit.incore() got an unexpected keyword "
                                              "argument 'auto_scope' (only pl.jit, pl.jit.host "
                                              "and pl.jit.inline take auto_scope=)"),
    (lambda: pl.jit.host(level=pl.Level.HOST), "pl.jit.host() got an unexpected keyword "
                                               "argument 'level' (only pl.jit.incore takes "
                                               "level=)"),
    (lambda: pl.jit.inline(name="x"), "pl.jit.inline() got an unexpected keyword argument "
                                      "'name'"),
    (lambda: pl.jit(auto_scope=1), "pl.jit(auto_scope=...) expects a bool, got int"),
    (lambda: pl.jit.incore(level="CHIP"), "pl.jit.incore(level=...) expects a pl.Level, got str"),
    (lambda: pl.jit(3), "@pl.jit expects a Python function, got int"),
    (lambda: pl.jit.graph(pl.jit(_copy)), "@pl.jit.graph expects a Python function, got "
                                          "JITFunction"),
])
def test_bad_decorator_use_is_a_type_error(make, message):
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == message


def test_a_wrong_keyword_in_the_bare_form_is_rejected_at_decoration():
    with pytest.raises(TypeError, match="unexpected keyword argument 'level'"):
        pl.jit.opaque(_copy, level=pl.Level.CHIP)


def test_extern_is_not_supported_and_says_so():
    assert not hasattr(pl.jit, "extern")  # no stub: the name does not exist
    with pytest.raises(AttributeError, match=r"pl.jit.extern \(external kernels\) is not "
                                             r"supported: it needs code generation"):
        pl.jit.extern  # noqa: B018



def test_incore_level_conflicting_with_the_derived_one_fails_at_the_def_line():
    @pl.jit.incore(level=pl.Level.HOST)
    def kernel(x: pl.Tensor, out: pl.Out[pl.Tensor]):  # @conflict
        return out

    with pytest.raises(ParserSyntaxError, match="implies level=CHIP_DIE") as info:
        kernel.specialize(f32(4), f32(4))
    line, column = marker_position("conflict", "def")
    assert (info.value.span["line"], info.value.span["column"]) == (line, column)


def test_decorating_parses_nothing():
    namespace: dict = {"pl": pl}
    # Code without retrievable source: any source read at decoration would fail.
    code = compile("@pl.jit\ndef lost(x: pl.Tensor):\n    return x\n", "<nowhere>", "exec")
    exec(code, namespace)
    lost = namespace["lost"]
    assert isinstance(lost, JITFunction) and lost.__name__ == "lost"
    with pytest.raises(ParserSyntaxError, match="Cannot retrieve source code for lost"):
        lost.specialize(f32(4))


def test_decorating_a_broken_body_succeeds_and_the_error_comes_later():
    @pl.jit
    def broken(x: pl.Tensor):
        return nowhere  # noqa: F821

    with pytest.raises(UndefinedVariableError, match="Undefined variable 'nowhere'"):
        broken.specialize(f32(4))


def test_calling_compiles_once_and_runs_on_the_cpu_writing_out_in_place():
    jitted = pl.jit(_copy)
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    out = np.zeros((8, 8), dtype=np.float32)
    result = jitted(x, out)
    assert np.array_equal(out, x)            # the Out argument is written in place
    assert np.array_equal(result, x)
    jitted(x, np.zeros((8, 8), dtype=np.float32))
    info = jitted.cache_info()
    assert (info.misses, info.hits) == (1, 1)  # one compile for both calls


def test_param_names_and_output_param_names():
    @pl.jit
    def entry(a: pl.Tensor, b: pl.InOut[pl.Tensor], n: pl.Scalar[pl.INT64],
              c: pl.Out[pl.Tensor[[4], pl.FP32]], d: "pl.Out[pl.Tensor]"):
        return b

    assert entry.param_names == ["a", "b", "n", "c", "d"]
    assert entry.output_param_names == ["b", "c", "d"]


def test_jit_function_wraps_the_python_function_and_has_no_as_python():
    jitted = pl.jit(_copy)
    assert jitted.__name__ == "_copy" and jitted.__wrapped__ is _copy
    assert not hasattr(jitted, "as_python")
    assert "as_python" in dir(jitted.specialize(f32(8, 8), f32(8, 8)))

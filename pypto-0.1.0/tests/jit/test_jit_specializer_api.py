"""PyPTO's ``pypto.jit.specializer`` API: contexts in, ``@pl.program`` text out; the text
parses to the program ``JITFunction.specialize`` gives."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import DataType, ir
from pypto.jit import decorator, specializer
from pypto.jit.specializer import (DynDim, SpecializeContext, Specializer, TensorMeta,
                                   build_specialize_context, specialize)



@pl.jit.incore
def bump(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    # add one
    t = pl.load(a, [0, 0], [16, 64])
    t = pl.add(t, 1.0)
    out = pl.store(t, [0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor, y: pl.Out[pl.Tensor], k: pl.FP32):
    y = bump(x, y)
    return y


M = DynDim.named("M", 32)
META = TensorMeta([M, 64], DataType.FP32)


def contexts() -> list[SpecializeContext]:
    kernel = build_specialize_context(bump.__wrapped__, "bump", pl.FunctionType.InCore, None,
                                      {"a": META, "out": META}, {}, {}, [])
    main = build_specialize_context(entry.__wrapped__, "entry", None, None,
                                    {"x": META, "y": META}, {"k": 2.0}, {"k": DataType.FP32},
                                    ["bump"])
    return [kernel, main]


def test_the_text_parses_to_the_program_the_jit_function_specialises():
    text = specialize("_jit_entry", contexts())
    assert "t_v1 = pl.add(t, 1.0)" in text and "y_v1 = self.bump(x, y)" in text
    assert 'M = pl.dynamic("M")' in text.replace("'", '"')
    assert "# add one" in text
    M_dim = pl.dynamic("M")

    @pl.jit.incore
    def bump_m(a: pl.Tensor[[M_dim, 64], pl.FP32], out: pl.Out[pl.Tensor[[M_dim, 64], pl.FP32]]):
        t = pl.load(a, [0, 0], [16, 64])
        t = pl.add(t, 1.0)
        out = pl.store(t, [0, 0], out)
        return out

    parsed = pl.parse(text)
    assert [f.name for f in parsed.functions.values()] == ["bump", "entry"]
    assert parsed["bump"].return_types == (ir.TensorType([parsed["bump"].params[0].type.shape[0],
                                                           64], DataType.FP32),)
    assert parsed["entry"].params[2].type == ir.ScalarType(DataType.FP32)
    ir.assert_structural_equal(parsed["bump"], bump_m.specialize()["bump_m"].replace(name="bump"))


def test_rename_map_and_source_map():
    specializer_ = Specializer("_jit_entry", contexts())
    text = specializer_.specialize()
    assert specializer_.rename_map == {"bump": {"t": ["t_v1"], "out": ["out_v1"]},
                                       "entry": {"y": ["y_v1"]}}
    lines = text.splitlines()
    generated = lines.index("        t_v1 = pl.add(t, 1.0)") + 1
    source_map = specializer_.source_map
    assert source_map.lines()[generated] == (__file__, marker_line("t = pl.add(t, 1.0)"))
    # The map gives the parsed program the user's spans, and errors the user's lines.
    parsed = pl.parse(text, filename=specializer_.filename, source_map=source_map)
    assert parsed["bump"].span.filename == __file__
    assert parsed["bump"].span.begin_line == marker_line("def bump(a: pl.Tensor, "
                                                         "out: pl.Out[pl.Tensor]):")
    broken = text.replace("pl.add(t, 1.0)", "pl.add(t, 1.0, bogus=1)")
    with pytest.raises(Exception) as info:
        pl.parse(broken, filename=specializer_.filename, source_map=source_map)
    assert (info.value.span["filename"], info.value.span["line"]) == \
        (__file__, marker_line("t = pl.add(t, 1.0)"))


def marker_line(text: str) -> int:
    with open(__file__) as f:
        return next(n for n, line in enumerate(f, 1) if line.strip() == text)


def test_tensor_meta_dyn_dim_and_context_queries():
    assert META.dynamic_dim_indices() == [0] and META.static_shape() == (32, 64)
    with pytest.raises(ValueError, match="dynamic dim 'N', which has no static bound"):
        TensorMeta([DynDim.named("N")], DataType.FP32).static_shape()
    main = contexts()[1]
    assert main.dynamic_dims == [M] and main.dynvar_for("x", 0) == M
    assert main.dynvar_for("x", 1) is None and main.dynvar_for("k", 0) is None
    assert main.dynvar_literals() == {"M": 'pl.dynamic("M")'}
    assert (main.orig_file, main.param_names) == (__file__, ["x", "y", "k"])


def test_a_context_from_source_text_and_errors_at_its_lines():
    source = "def f(a: pl.Tensor):\n    return pl.add(a, missing)\n"
    context = SpecializeContext("f", source, None, None, ["a"], {"a": TensorMeta([4], DataType.FP32)},
                                {}, {}, py_globals={"pl": pl}, orig_file="<text>", orig_start_line=10)
    with pytest.raises(Exception) as info:
        specialize("_jit_f", [context])
    assert "Undefined variable 'missing'" in str(info.value)
    assert (info.value.span["filename"], info.value.span["line"]) == ("<text>", 11)


def test_external_kernels_and_unknown_function_types_are_refused():
    with pytest.raises(ValueError, match="external kernels"):
        build_specialize_context(bump.__wrapped__, "bump", pl.FunctionType.InCore, None, {}, {},
                                 {}, [], external_aic_source="k.cpp")
    bad = SpecializeContext("f", "def f():\n    return\n", pl.FunctionType.AIC, None, [], {}, {}, {})
    with pytest.raises(TypeError, match="is not a function type @pl.jit makes"):
        specialize("_jit_f", [bad])


def test_the_decorator_module_shows_pyptos_names():
    for name in ("DynDim", "TensorMeta", "SpecializeContext", "Specializer",
                 "build_specialize_context", "compute_source_hash", "make_cache_key",
                 "DataType", "JITFunction", "jit"):
        assert hasattr(decorator, name), name
    assert specializer.specialize is specialize

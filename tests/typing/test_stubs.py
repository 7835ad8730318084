"""The committed op stubs (pypto/language/op/*.pyi) match the registry, and the literal
``pl.__all__`` matches what ``pypto.language`` defines."""

from __future__ import annotations

import types

import pypto.language as pl
from pypto.language.op import stubgen


def test_committed_stubs_match_the_registry():
    stale = stubgen.stale_stubs()
    assert not stale, (f"stale stubs {stale}: run `python -m pypto.language.op.stubgen` "
                       "after changing ops")


def test_stub_signatures_follow_the_entries():
    tensor = stubgen.stub_text("tensor_ops")
    assert "def read(" in tensor and ") -> Scalar: ..." in tensor.split("def read(")[1].split("\n")[0]
    tile = stubgen.stub_text("tile_ops")
    load = tile.split("\ndef load(")[1].split("\n")[0]
    assert load.startswith("tensor: Tensor, offsets: Sequence[_ScalarLike]") and load.endswith("-> Tile: ...")
    unified = stubgen.stub_text("unified_ops")
    add = unified.split("\ndef add(")[1].split("\n")[0]
    assert add.startswith("lhs: _ShapedT, rhs: _ShapedT | _ScalarLike") and add.endswith("-> _ShapedT: ...")


def test_language_all_lists_every_public_name():
    defined = {name for name, value in vars(pl).items()
               if not name.startswith("_") and name not in ("annotations", "TYPE_CHECKING")
               and not isinstance(value, types.ModuleType)}
    modules = {"adir", "arg_direction", "distributed", "op", "tensor", "tile", "system",
               "array", "prefetch", "optimizations", "parser"}  # the last two: PyPTO's __all__
    expected = defined | modules | {"jit", "JITFunction"}
    assert set(pl.__all__) == expected, (
        f"pypto/language/__init__.py __all__: add {sorted(expected - set(pl.__all__))}, "
        f"drop {sorted(set(pl.__all__) - expected)}")
    assert len(pl.__all__) == len(set(pl.__all__))


def test_ir_all_lists_every_public_name():
    from pypto import ir
    from pypto.ir.constants import module_constants
    # The module constants (ir.HOST, ir.max ...) stay out of a star import, except the
    # ones PyPTO's own __all__ lists; the lazy names of the layers above are in.
    constants = set(module_constants()) - {"input", "inout", "output", "output_existing",
                                            "scalar_dir", "no_dep"}
    defined = {name for name, value in vars(ir).items()
               if not name.startswith("_") and name not in ("annotations", "TYPE_CHECKING")
               and not isinstance(value, types.ModuleType)} - constants
    expected = defined | set(ir._LAZY) | {"comm_layout", "instruments", "op", "pass_manager",
                                 "directions", "op_conversion"}
    assert set(ir.__all__) == expected, (
        f"pypto/ir/__init__.py __all__: add {sorted(expected - set(ir.__all__))}, "
        f"drop {sorted(set(ir.__all__) - expected)}")


def test_committed_ir_builder_stubs_match_the_builders():
    from pypto.ir.op import stubgen as ir_stubgen
    stale = ir_stubgen.stale_stubs()
    assert not stale, f"stale stubs {stale}: run `python -m pypto.ir.op.stubgen` after changing ops"
    text = ir_stubgen.stub_text("pypto.ir.op.tensor_ops")
    assert "\ndef add(lhs: Any, rhs: Any, span: Span | None = ...) -> Call: ...\n" in text
    assert "def __getattr__" not in text  # a misspelt builder is an error to a checker

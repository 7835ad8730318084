"""``ir.register_op_conversion`` and friends: a registry user code applies itself."""

from __future__ import annotations

import importlib

import pytest

from pypto import ir

# ``ir.op_conversion`` is the decorator (as in PyPTO); the module is under its full name.
oc = importlib.import_module("pypto.ir.op_conversion")


@pytest.fixture
def clean_registry(monkeypatch):
    monkeypatch.setattr(oc, "_CONVERSIONS", {})


def tile_var(name):
    return ir.Var(name, ir.TileType([16, 16], ir.FP32, memory_space=ir.Mem.Vec))


def test_rename_conversion(clean_registry):
    ir.register_op_conversion("tile.adds", "tile.muls")
    assert ir.has_op_conversion("tile.adds") and not ir.has_op_conversion("tile.exp")
    call = ir.create_op_call("tile.adds", [tile_var("t"), ir.ConstFloat(2.0, ir.FP32)])
    converted = oc.convert_call(call)
    assert converted.op is ir.get_op("tile.muls") and converted.args == call.args
    with pytest.raises(ValueError, match="already registered"):
        ir.register_op_conversion("tile.adds", "tile.subs")
    with pytest.raises(ValueError, match="no conversion is registered for 'tile.exp'"):
        oc.convert_call(ir.create_op_call("tile.exp", [tile_var("t")]))


def test_custom_conversion_emits_statements(clean_registry):
    @ir.op_conversion("tile.exp")
    def exp_twice(args, kwargs, ctx):
        first = ctx.let("e", ir.create_op_call("tile.exp", list(args)))
        return ir.create_op_call("tile.exp", [first])

    ctx = ir.ConversionContext(ir.Span.unknown())
    result = oc.convert_call(ir.create_op_call("tile.exp", [tile_var("t")]), ctx)
    (stmt,) = ctx.stmts
    assert isinstance(stmt, ir.AssignStmt) and stmt.var.name_hint == "e"
    assert result.args[0] is stmt.var
    with pytest.raises(TypeError, match="func must be callable"):
        ir.register_op_conversion_custom("tile.log", 3)
    with pytest.raises(ValueError, match="nope"):
        ir.register_op_conversion("nope.op", "tile.exp")

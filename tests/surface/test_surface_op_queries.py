"""``ir.get_op_memory_spec`` and ``ir.get_op_arg_effect`` (also under ``pypto.pypto_core.ir``):
answers read off the op registry."""

from __future__ import annotations

import inspect

import pytest

from pypto import ir
from pypto.ir.ops import registry
from pypto.pypto_core import ir as core_ir

M = ir.MemorySpace


def test_both_names_under_ir_and_the_core_mirror():
    assert core_ir.get_op_memory_spec is ir.get_op_memory_spec
    assert core_ir.get_op_arg_effect is ir.get_op_arg_effect
    namespace: dict = {}
    exec("from pypto.ir import *", namespace)
    assert namespace["get_op_memory_spec"] is ir.get_op_memory_spec


def test_arg_effect_answers_from_the_registry():
    store = ir.get_op_arg_effect
    assert store("tile.store", 0) is ir.ArgEffect.Read
    assert store("tile.store", 2) is ir.ArgEffect.Write
    assert store("tile.store", 2, atomic=ir.AtomicType.Add) is ir.ArgEffect.ReadWrite
    with pytest.raises(IndexError, match="no operand 9"):
        store("tile.store", 9)
    assert inspect.isroutine(store)
    assert list(inspect.signature(store).parameters) == ["op_name", "arg_index", "kwargs"]
    assert "effect on operand" in store.__doc__


def test_arg_effect_query_is_falsy_so_check_surface_reads_pypto_as_pypto():
    # check-surface takes a truthy pypto_core.ir.get_op_arg_effect for the compiled reference
    assert not core_ir.get_op_arg_effect
    assert core_ir.get_op_arg_effect("tile.store", 2) is ir.ArgEffect.Write


def test_memory_spec_of_vector_ops():
    assert ir.get_op_memory_spec("tile.add") == {"input_constraints": [[M.Vec], [M.Vec]],
                                                  "output_memory": M.Vec}
    # a scalar operand has no constraint; trailing ones are left out
    assert ir.get_op_memory_spec("tile.adds")["input_constraints"] == [[M.Vec]]
    assert ir.get_op_memory_spec("tile.addsc")["input_constraints"] == [[M.Vec], [], [M.Vec]]
    # a fresh dict each call
    spec = ir.get_op_memory_spec("tile.add")
    spec["output_memory"] = None
    assert ir.get_op_memory_spec("tile.add")["output_memory"] is M.Vec


@pytest.mark.parametrize("name, constraints, output", [
    ("tile.matmul", [[M.Left], [M.Right]], M.Acc),
    ("tile.matmul_acc", [[M.Acc], [M.Left], [M.Right]], M.Acc),
    ("tile.matmul_mx_bias", [[M.Left], [M.LeftScale], [M.Right], [M.RightScale], [M.Bias]], M.Acc),
    ("tile.store", [[M.Vec, M.Acc]], None),
    ("tile.read", [[M.Vec]], None),
    ("tile.load", [], "deferred"),
    ("tile.reshape", [], "inherit_from_input"),
    ("tensor.slice", [], "inherit_from_input"),
    ("tile.full", [], M.Vec),
    ("tile.aic_gather", [], M.Mat),
])
def test_memory_spec_exceptions(name, constraints, output):
    assert ir.get_op_memory_spec(name) == {"input_constraints": constraints,
                                           "output_memory": output}


def test_ops_without_placement_have_no_spec():
    for name in ("tensor.add", "tensor.matmul", "system.sync_all", "tile.alloc",
                 "tile.get_block_idx"):
        if registry.is_op_registered(name):
            assert ir.get_op_memory_spec(name) is None, name


def test_every_tile_op_answers_and_unknown_names_raise():
    for name in registry.list_ops():
        spec = ir.get_op_memory_spec(name)
        if spec is not None:
            op = registry.get_op(name)
            assert len(spec["input_constraints"]) <= len(op.params), name
            assert all(isinstance(m, M) for group in spec["input_constraints"] for m in group)
    with pytest.raises(Exception, match="tile.nonexistent"):
        ir.get_op_memory_spec("tile.nonexistent")

"""Every ``system.*`` op of PyPTO's set: type rule, print/parse round trip and executor
meaning.  Synchronisation has the sequential meaning "nothing to do" (program order
already orders everything); task ids, core counts and buffer addresses have values."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.ir.ops import ops_in

from ._helpers import Scalar, Tile, op_function, run_op

DT, Pipe = ir.DataType, ir.PipeType
TILE = Tile(np.ones((4, 8), np.float32))
PIPE_ATTRS = {"dir_mask": 1, "slot_size": 1024}

# name -> (operands, attributes, call attrs, expected value)
VALUES = {
    "task_invalid": ([], {}, None, -1),
    "task_is_valid": ([Scalar(3, DT.TASK_ID)], {}, None, True),
    "task_dummy": ([], {}, {"deps": []}, 0),
    "available_aiv_count": ([], {}, None, 2),
    "available_cluster_count": ([], {}, None, 1),
    "reserve_buffer": ([], {"name": "kv", "size": 4096, "base": 8192}, None, 8192),
    "import_peer_buffer": ([], {"name": "kv", "peer_func": "cube"}, None, 0),
}
# Ops without a value: a statement each; they run and leave nothing behind.
STATEMENTS = {
    "bar_all": ([], {}), "bar_m": ([], {}), "bar_v": ([], {}), "fence": ([], {}),
    "sync_src": ([], {"set_pipe": Pipe.MTE2, "wait_pipe": Pipe.V, "event_id": 0}),
    "sync_dst": ([], {"set_pipe": Pipe.MTE2, "wait_pipe": Pipe.V, "event_id": 0}),
    "sync_set": ([], {"event_id": 3, "pipe": Pipe.FIX, "ffts_mode": 2}),
    "sync_wait": ([Scalar(5, DT.INDEX)], {"pipe": Pipe.M, "core_type": "aic"}),
    "syncall": ([], {"core_type": "aiv"}),
    "cacheinvalid": ([np.zeros((4, 8), np.float32), [4, 8], [0, 0]], {}),
    "set_ffts": ([np.zeros((16,), np.int64)], {}),
    "aic_initialize_pipe": ([0, 0], PIPE_ATTRS),
    "aiv_initialize_pipe": ([256, 0], {**PIPE_ATTRS, "slot_num": 4, "id": 1}),
    "tfree_to_aic": ([TILE], {}), "tfree_to_aiv": ([TILE], {"split": 1}),
}


def test_every_system_op_has_a_case():
    assert {op.short_name for op in ops_in("system")} == set(VALUES) | set(STATEMENTS)


@pytest.mark.parametrize("name", sorted(VALUES))
def test_system_op_values(name):
    operands, attrs, call_attrs, expected = VALUES[name]
    function, _ = op_function(f"system.{name}", operands, attrs, attrs=call_attrs)
    ir.assert_structural_equal(function, pl.parse(ir.python_print(function)))
    assert run_op(f"system.{name}", operands, attrs, attrs=call_attrs) == expected


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_system_statements_print_parse_and_run(name):
    operands, attrs = STATEMENTS[name]
    function, values = op_function(f"system.{name}", operands, attrs)
    assert tuple(function.return_types) == () and \
        isinstance(function.body.stmts[0].expr.type, ir.UnknownType)
    ir.assert_structural_equal(function, pl.parse(ir.python_print(function)))
    assert pypto.run(function, *values) is None


def test_task_is_valid_of_the_invalid_task_id():
    assert run_op("system.task_is_valid", [Scalar(-1, DT.TASK_ID)]) is False


def test_flags_take_a_constant_or_a_runtime_event_id():
    constant = pl.system.sync_set(3, pipe=pl.PipeType.V)
    assert constant.args == () and constant.kwargs["event_id"] == 3
    n = ir.Var("n", ir.ScalarType(DT.INDEX))
    dynamic = pl.system.sync_wait(n, pipe=pl.PipeType.V)
    assert dynamic.args[0] is n and "event_id" not in dynamic.kwargs
    assert ir.op.system.sync_set(ir.ConstInt(2, DT.INDEX), pipe=3).kwargs["pipe"] is \
        pl.PipeType.M
    soft = ir.op.system.syncall_soft("aiv", ir.Var("ws", ir.TensorType([64], DT.INT32)))
    assert soft.kwargs == {"mode": "soft", "core_type": "aiv"} and len(soft.args) == 1
    assert pl.system.syncall().kwargs == {"mode": "hard", "core_type": "mix"}


TASKS = """
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Scalar[pl.TASK_ID]:
        a: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()
        b: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[a])
        c: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[a, b])
        return c
"""


def test_task_dummy_keeps_its_deps_and_prints_them_back():
    program = pl.parse(TASKS)
    text = ir.python_print(program)
    assert "pl.system.task_dummy(deps=[a, b])" in text and "attrs=" not in text
    call = program["main"].body.stmts[2].value
    assert call.args == () and [d.name_hint for d in call.attrs["deps"]] == ["a", "b"]
    # the dummy tasks get fresh ids, in program order
    assert pypto.run(program, np.zeros(4, np.float32)) == 1


def test_same_buffer_name_same_address_whichever_side_runs_first():
    text = """
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def main(self) -> pl.Scalar[pl.INDEX]:
        peer: pl.Scalar[pl.INDEX] = pl.import_peer_buffer(name="b", peer_func="main")
        other: pl.Scalar[pl.INDEX] = pl.reserve_buffer(name="c", size=100)
        mine: pl.Scalar[pl.INDEX] = pl.reserve_buffer(name="b", size=1024)
        return mine - peer + other
"""
    # b is handed out first (at 0), c next (aligned past it); b keeps its address
    assert pypto.run(pl.parse(text)) == 512

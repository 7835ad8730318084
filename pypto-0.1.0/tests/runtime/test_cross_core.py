"""The cross-core pipes' sequential meaning: a FIFO per direction, pipe id and vector
lane.  Each consumer gets the tiles the device gives it, in push order; a split push
hands each vector lane its half, a split pop on the cube joins both lanes' halves; a
pop with nothing queued, or expecting another shape, is an error naming the pipe."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.runtime import ExecutionError
from pypto.runtime.op_semantics import OP_SEMANTICS
from pypto.runtime.state import ExecState, OpInfo

from ._helpers import default_pipeline

DT = ir.DataType


def _op(name, kwargs, out_type=None):
    info = OpInfo(name, kwargs, None, None, out_type=out_type)
    return lambda state, *args: OP_SEMANTICS[name](list(args), info, state)


def _pop(name, shape, split=0, dtype=DT.FP32, space=ir.MemorySpace.Vec):
    return _op(name, {"split": split}, ir.TileType(shape, dtype, memory_space=space))


def test_a_split_push_gives_each_vector_lane_its_half():
    state, tile = ExecState(), np.arange(32, dtype=np.float32).reshape(4, 8)
    _op("tile.tpush_to_aiv", {"split": 1})(state, tile)  # UP_DOWN: rows
    pop = _pop("tile.tpop_from_aic", [2, 8], split=1)
    state.subblock_idx = 1
    np.testing.assert_array_equal(pop(state), tile[2:])
    state.subblock_idx = 0
    np.testing.assert_array_equal(pop(state), tile[:2])
    _op("tile.tpush_to_aiv", {"split": 2})(state, tile)  # LEFT_RIGHT: columns
    np.testing.assert_array_equal(_pop("tile.tpop_from_aic", [4, 4], split=2)(state),
                                  tile[:, :4])


def test_the_cube_joins_the_halves_both_lanes_push():
    state = ExecState()
    push = _op("tile.tpush_to_aic", {"split": 2})
    for lane in (0, 1):
        state.subblock_idx = lane
        push(state, np.full((4, 4), lane, np.float32))
    joined = _pop("tile.tpop_from_aiv", [4, 8], split=2, space=ir.MemorySpace.Mat)(state)
    np.testing.assert_array_equal(joined[:, :4], 0)
    np.testing.assert_array_equal(joined[:, 4:], 1)


def test_pops_come_in_push_order_per_pipe_id():
    state = ExecState()
    for value, pipe in ((1, None), (2, 7), (3, None)):
        _op("tile.tpush_to_aiv", {"split": 0, "id": pipe})(state, np.full((2, 2), value,
                                                                          np.float32))
    pop = _op("tile.tpop_from_aic", {"split": 0, "id": None},
              ir.TileType([2, 2], DT.FP32, memory_space=ir.MemorySpace.Vec))
    assert pop(state)[0, 0] == 1 and pop(state)[0, 0] == 3
    state_pipe_7 = _op("tile.tpop_from_aic", {"split": 0, "id": 7},
                       ir.TileType([2, 2], DT.FP32, memory_space=ir.MemorySpace.Vec))
    assert state_pipe_7(state)[0, 0] == 2


def test_a_push_queues_a_copy():
    state, tile = ExecState(), np.zeros((2, 2), np.float32)
    _op("tile.tpush_to_aiv", {"split": 0})(state, tile)
    tile[...] = 5
    assert _pop("tile.tpop_from_aic", [2, 2])(state).sum() == 0


ORDERED = """
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def main(self, out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.at(level=pl.Level.AIV):
            t = pl.tpop_from_aic(shape=[8, 8], dtype=pl.FP32)
            pl.store(t, [0, 0], out)
        with pl.at(level=pl.Level.AIC):
            z = pl.tile.full([8, 8], pl.FP32, 1.0)
            pl.tpush_to_aiv(z, split=0)
        return out
"""


def test_a_pop_before_its_push_in_program_order_is_reported():
    program = default_pipeline(pl.parse(ORDERED))
    with pytest.raises(ExecutionError, match="nothing was pushed into the cube to vector pipe 0 "
                                             "before this pop") as info:
        pypto.run(program, np.zeros((8, 8), np.float32))
    assert "tile.tpop_from_aic" in str(info.value)


def test_a_pop_expecting_another_tile_is_reported():
    state = ExecState()
    _op("tile.tpush_to_aiv", {"split": 0})(state, np.zeros((4, 4), np.float32))
    with pytest.raises(Exception, match=r"the popped tile is float32\[4, 4\], the pop expects "
                                        r"float32\[4, 8\]"):
        _pop("tile.tpop_from_aic", [4, 8])(state)


def test_pop_types_come_from_shape_and_dtype_or_result_type():
    popped = pl.tpop_from_aic(shape=[16, 32], dtype=pl.FP16)
    assert popped.type == ir.TileType([16, 32], DT.FP16, memory_space=ir.MemorySpace.Vec)
    assert popped.kwargs == {"split": 0}  # shape and dtype live in the type only
    cube = ir.op.tile.tpop_from_aiv(result_type=ir.TileType([8, 8], DT.FP32))
    assert cube.type.memory_space is ir.MemorySpace.Mat
    with pytest.raises(ValueError, match="give the popped tile's shape= and dtype="):
        pl.tpop_from_aiv(shape=[8, 8])
    with pytest.raises(ValueError, match="result_type must be a Tile in Vec"):
        ir.op.tile.tpop_from_aic(result_type=ir.TensorType([8], DT.FP32))

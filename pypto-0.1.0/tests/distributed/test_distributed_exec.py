"""Distributed programs on the CPU executor: ranks simulated in one process, checked
against NumPy; deadlocks refused with a diagnostic."""

from __future__ import annotations

import numpy as np
import pytest

from pypto.ir.distributed_compiled_program import DistributedCompiledProgram, DistributedConfig
from pypto.runtime import ExecutionError, Executor
from pypto.runtime.distributed_runner import execute_distributed
from tests.runtime._helpers import default_pipeline

from .programs import AllReduce, HalfBarrier, Ring, TileExchange, WaitForever


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    return rng.standard_normal((4, 16)).astype(np.float32), np.zeros((4, 16), np.float32)


@pytest.mark.parametrize("compiled", [False, True], ids=["parsed", "after-passes"])
def test_allreduce_sums_every_rank(compiled):
    program = default_pipeline(AllReduce) if compiled else AllReduce
    x, out = _inputs()
    Executor(program, world_size=4).run(x, out, entry="main")
    np.testing.assert_allclose(out, np.tile(x.sum(axis=0), (4, 1)), rtol=1e-6)


def test_ring_of_put_notify_wait():
    x, out = _inputs()
    Executor(Ring, world_size=4).run(x, out, entry="main")
    np.testing.assert_array_equal(out, np.roll(x, 1, axis=0))


def test_remote_tile_load_inside_an_outlined_region():
    program = default_pipeline(TileExchange)
    assert any(f.func_type.name == "InCore" for f in program.functions.values())
    x, out = _inputs()
    Executor(program, world_size=4).run(x, out, entry="main")
    np.testing.assert_array_equal(out, 2 * np.roll(x, 1, axis=0))


def test_compiled_program_runs_one_rank_per_device():
    x, out = _inputs()
    compiled = DistributedCompiledProgram(
        AllReduce, None, distributed_config=DistributedConfig(device_ids=[0, 1, 2, 3]))
    execute_distributed(compiled, [x, out])
    np.testing.assert_allclose(out, np.tile(x.sum(axis=0), (4, 1)), rtol=1e-6)


def test_ranks_that_wait_for_each_other_forever_are_refused():
    with pytest.raises(ExecutionError, match="deadlock") as info:
        Executor(WaitForever, world_size=2).run(entry="main")
    message = str(info.value)
    assert "rank 0 ('stuck') waits at" in message and "rank 1 ('stuck') waits at" in message
    assert "pld.system.wait: signal[0] == 1 (it is 0)" in message
    assert "programs.py:104:9: pld.system.wait" in message  # where each rank waits


def test_a_collective_missing_a_rank_is_refused():
    with pytest.raises(ExecutionError, match="ranks 1 have not reached it"):
        Executor(HalfBarrier, world_size=2).run(entry="main")


def test_device_outside_the_world_is_refused():
    x, out = _inputs()
    with pytest.raises(ExecutionError, match=r"device=2 is not a rank of this run \(world size 2"):
        Executor(TileExchange, world_size=2).run(x, out, entry="main")  # launches 4 ranks

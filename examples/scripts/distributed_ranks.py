"""Distributed ranks: four devices pass rows around a ring through communication
windows (one-sided put, a notify/wait signal), then sum a value over all ranks with an
allreduce.  Every rank runs on pypto's CPU executor, in one process; the world size is
the number of devices of RunConfig.distributed_config.

    python examples/scripts/distributed_ranks.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

import numpy as np

import pypto.language as pl
import pypto.language.distributed as pld
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

RANKS, COLS = 4, 8


@pl.jit
def ring_step(inbox: pld.DistributedTensor[[COLS], pl.FP32],
              signal: pld.DistributedTensor[[1], pl.INT32],
              total: pld.DistributedTensor[[COLS], pl.FP32],
              x: pl.Tensor, shifted: pl.Out[pl.Tensor], summed: pl.Out[pl.Tensor]) -> tuple[pl.Tensor, pl.Tensor]:
    ctx = pld.get_comm_ctx(inbox)
    me = pld.rank(ctx)
    right = (me + 1) % pld.nranks(ctx)
    row = pl.reshape(pl.slice(x, [1, COLS], [me, 0]), [COLS])
    inbox = pld.tensor.put(inbox, right, row)  # my row, into my right neighbour's inbox
    pld.system.notify(signal, right, [0], 1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, [0], 1, cmp=pld.WaitCmp.Ge)  # my left neighbour's row arrived
    shifted = pl.assemble(shifted, pl.reshape(inbox, [1, COLS]), [me, 0])
    total = pl.assemble(total, row, [0])
    total = pld.tensor.allreduce(total, op=pld.ReduceOp.Sum)  # every rank's row, summed
    summed = pl.assemble(summed, pl.reshape(total, [1, COLS]), [me, 0])
    return shifted, summed


@pl.jit.host
def ring(x: pl.Tensor, shifted: pl.Out[pl.Tensor], summed: pl.Out[pl.Tensor]) -> tuple[pl.Tensor, pl.Tensor]:
    inbox = pld.window(pld.alloc_window_buffer(COLS, dtype=pl.FP32, name="inbox"), [COLS],
                       dtype=pl.FP32)
    signal = pld.window(pld.alloc_window_buffer(1, dtype=pl.INT32, name="signal"), [1],
                        dtype=pl.INT32)
    total = pld.window(pld.alloc_window_buffer(COLS, dtype=pl.FP32, name="total"), [COLS],
                       dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        shifted, summed = ring_step(inbox, signal, total, x, shifted, summed, device=r)
    return shifted, summed


def main() -> None:
    x = randn(RANKS, COLS)
    shifted, summed = zeros(RANKS, COLS), zeros(RANKS, COLS)
    config = RunConfig(distributed_config=DistributedConfig(device_ids=list(range(RANKS))))
    ring(x, shifted, summed, config=config)
    rows = numpy_of(x)
    check("distributed_ranks[ring]", shifted, np.roll(rows, 1, axis=0))
    check("distributed_ranks[allreduce]", summed, np.tile(rows.sum(axis=0), (RANKS, 1)))


if __name__ == "__main__":
    main()

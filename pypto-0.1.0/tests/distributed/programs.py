"""Distributed programs shared by the tests: an allreduce, a put/notify/wait ring, a
tile-level remote load inside a pl.at region, and programs whose ranks deadlock."""

from __future__ import annotations

import pypto.language as pl
import pypto.language.distributed as pld

N = 16  # elements per rank


@pl.program
class AllReduce:
    """Each rank contributes row ``rank`` of ``x``; every row of ``out`` is the sum."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def reduce_rank(self, data: pld.DistributedTensor[[16], pl.FP32],
                    x: pl.Tensor[[4, 16], pl.FP32],
                    out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        me = pld.rank(pld.get_comm_ctx(data))
        row = pl.slice(x, [1, 16], [me, 0])
        data = pl.assemble(data, pl.reshape(row, [16]), [0])
        data = pld.tensor.allreduce(data)
        out = pl.assemble(out, pl.reshape(data, [1, 16]), [me, 0])
        return out

    @pl.function
    def main(self, x: pl.Tensor[[4, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        buf = pld.alloc_window_buffer(16, dtype=pl.FP32, name="data")
        data = pld.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            out = self.reduce_rank(data, x, out, device=r)
        return out


@pl.program
class Ring:
    """Rank r puts row r of ``x`` into rank r+1's window and notifies it, then waits for
    its own notification: ``out[r]`` is ``x[r - 1]``."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def step(self, inbox: pld.DistributedTensor[[16], pl.FP32],
             signal: pld.DistributedTensor[[1], pl.INT32], x: pl.Tensor[[4, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        ctx = pld.get_comm_ctx(inbox)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        row = pl.reshape(pl.slice(x, [1, 16], [me, 0]), [16])
        inbox = pld.tensor.put(inbox, right, row)
        pld.system.notify(signal, right, [0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0], 1, cmp=pld.WaitCmp.Ge)
        out = pl.assemble(out, pl.reshape(inbox, [1, 16]), [me, 0])
        return out

    @pl.function
    def main(self, x: pl.Tensor[[4, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        data = pld.alloc_window_buffer(16, dtype=pl.FP32, name="inbox")
        flags = pld.alloc_window_buffer(4, name="signal")
        inbox = pld.window(data, [16], dtype=pl.FP32)
        signal = pld.window(flags, [1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            out = self.step(inbox, signal, x, out, device=r)
        return out


@pl.program
class TileExchange:
    """Each rank publishes its row in its window, meets the others at a barrier, then a
    core-group region loads the left neighbour's row as a tile."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def exchange(self, box: pld.DistributedTensor[[1, 16], pl.FP32],
                 signal: pld.DistributedTensor[[1], pl.INT32], x: pl.Tensor[[4, 16], pl.FP32],
                 out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        ctx = pld.get_comm_ctx(box)
        me = pld.rank(ctx)
        left = (me + pld.nranks(ctx) - 1) % pld.nranks(ctx)
        box = pl.assemble(box, pl.slice(x, [1, 16], [me, 0]), [0, 0])
        pld.tensor.barrier(signal)
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pld.remote_load(box, left, [0, 0], [1, 16])
            out = pl.store(pl.mul(t, 2.0), [me, 0], out)
        return out

    @pl.function
    def main(self, x: pl.Tensor[[4, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        box = pld.window(pld.alloc_window_buffer(64, name="box"), [1, 16], dtype=pl.FP32)
        signal = pld.window(pld.alloc_window_buffer(4, name="sig"), [1], dtype=pl.INT32)
        for r in pl.range(4):
            out = self.exchange(box, signal, x, out, device=r)
        return out


@pl.program
class WaitForever:
    """Every rank waits for a signal no rank sets: a deadlock."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def stuck(self, signal: pld.DistributedTensor[[1], pl.INT32]):
        pld.system.wait(signal, [0], 1, cmp=pld.WaitCmp.Eq)

    @pl.function
    def main(self):
        signal = pld.window(pld.alloc_window_buffer(4, name="sig"), [1], dtype=pl.INT32)
        for r in pl.range(2):
            self.stuck(signal, device=r)


@pl.program
class HalfBarrier:
    """Only rank 0 of two is launched; its barrier waits for rank 1 forever."""

    @pl.function(type=pl.FunctionType.Orchestration)
    def sync(self, signal: pld.DistributedTensor[[1], pl.INT32]):
        pld.tensor.barrier(signal)

    @pl.function
    def main(self):
        signal = pld.window(pld.alloc_window_buffer(4, name="sig"), [1], dtype=pl.INT32)
        self.sync(signal, device=0)

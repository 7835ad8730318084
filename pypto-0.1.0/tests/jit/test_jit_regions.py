"""Regions and task forms in ``@pl.jit`` bodies: the spmd forms, ``allow_early_resolve``,
``pl.dump_tag`` (issue 14 point 4)."""

from __future__ import annotations

import numpy as np
import pytest

import pypto.language as pl
from pypto import ir
from pypto.language.parser.diagnostics import InvalidOperationError


@pl.jit.incore
def add_block(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    b = pl.tile.get_block_idx()
    y = pl.store(pl.add(pl.load(x, [b * 8, 0], [8, 16]), 1.0), [b * 8, 0], y)
    return y


@pl.jit
def submitted(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    y, task = pl.spmd_submit(add_block, x, y, core_num=4, allow_early_resolve=True)
    return y


@pl.jit
def spmd_region(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.spmd(4, allow_early_resolve=True):
        y = add_block(x, y)
    return y


@pl.jit
def spmd_loop(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    for b in pl.spmd(4):
        y = pl.store(pl.add(pl.load(x, [b * 8, 0], [8, 16]), 1.0), [b * 8, 0], y)
    return y


@pytest.mark.parametrize("entry", [submitted, spmd_region, spmd_loop],
                         ids=["spmd_submit", "with-spmd", "for-spmd"])
def test_spmd_forms_run_every_block(entry):
    x = np.arange(32 * 16, dtype=np.float32).reshape(32, 16)
    y = np.zeros((32, 16), np.float32)
    entry(x, y)
    np.testing.assert_array_equal(y, x + 1)


def test_allow_early_resolve_reaches_the_submit_and_the_region():
    call = submitted.specialize(np.zeros((32, 16), np.float32),
                                np.zeros((32, 16), np.float32))["submitted"].body.stmts[0].value
    assert isinstance(call, ir.Submit) and call.allow_early_resolve and call.core_num.value == 4
    region = spmd_region.specialize(np.zeros((32, 16), np.float32),
                                    np.zeros((32, 16), np.float32))["spmd_region"].body.stmts[0]
    assert region.attrs.get("allow_early_resolve") is True


def test_dump_tag_gives_its_tensor_back():
    @pl.jit
    def tagged(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        x = pl.dump_tag(x)
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.store(pl.load(pl.tensor.dump_tag(x), [0, 0], [4, 8]), [0, 0], y)
        return y

    @pl.jit
    def untagged(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        x = x
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.store(pl.load(x, [0, 0], [4, 8]), [0, 0], y)
        return y

    x, y = np.ones((4, 8), np.float32), np.zeros((4, 8), np.float32)
    assert tagged.lower(x, y).as_python().replace("tagged", "untagged") == \
        untagged.lower(x, y).as_python()
    tagged(x, y)
    np.testing.assert_array_equal(y, x)


def test_dump_tag_takes_a_tensor():
    @pl.jit
    def tags_a_tile(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.dump_tag(pl.load(x, [0, 0], [4, 8]))
            y = pl.store(t, [0, 0], y)
        return y

    with pytest.raises(InvalidOperationError, match="pl.dump_tag: 'tensor' must be a Tensor, "
                                                    "got TileType"):
        tags_a_tile.specialize(np.ones((4, 8), np.float32), np.zeros((4, 8), np.float32))


def test_ranks_launched_with_device_from_a_host_entry_under_any_module_name():
    import pypto.language.distributed as dist  # the body says dist.*: read as pld.*
    from pypto.ir.distributed_compiled_program import DistributedConfig
    from pypto.runtime import RunConfig

    @pl.jit
    def contribute(total: dist.DistributedTensor[[4], pl.FP32], x: pl.Tensor,
                   out: pl.Out[pl.Tensor]):
        me = dist.rank(dist.get_comm_ctx(total))
        total = pl.assemble(total, pl.reshape(pl.slice(x, [1, 4], [me, 0]), [4]), [0])
        total = dist.tensor.allreduce(total, op=dist.ReduceOp.Sum)
        out = pl.assemble(out, pl.reshape(total, [1, 4]), [me, 0])
        return out

    @pl.jit.host
    def everyone(x: pl.Tensor, out: pl.Out[pl.Tensor]):
        total = dist.window(dist.alloc_window_buffer(4, dtype=pl.FP32, name="total"), [4],
                            dtype=pl.FP32)
        for r in pl.range(dist.world_size()):
            out = contribute(total, x, out, device=r)
        return out

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.zeros((3, 4), np.float32)
    program = everyone.specialize(x, out)
    assert "pld.tensor.allreduce(" in program.as_python() and "device=r" in program.as_python()
    everyone(x, out, config=RunConfig(distributed_config=DistributedConfig(device_ids=[0, 1, 2])))
    np.testing.assert_array_equal(out, np.tile(x.sum(axis=0), (3, 1)))

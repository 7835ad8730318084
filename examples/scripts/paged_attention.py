"""Paged attention: each sequence's keys and values live in fixed-size blocks of a
shared cache, found through its row of the block table.  One kernel per sequence
reads its blocks (pl.read of the table), computes softmax(q k^T / sqrt(d)) v, and
writes the sequence's rows of the output through pl.slice(out, ...), a view.

The key cache is kept transposed ([head_dim, blocks * block_size]), so q k^T is a
plain matmul.

    python examples/scripts/paged_attention.py [--numpy]
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

from typing import Any

import numpy as np

import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, values, zeros

SEQS, Q, D, BS, BLOCKS_PER_SEQ, CACHE_BLOCKS = 2, 16, 32, 16, 4, 8
CTX = BLOCKS_PER_SEQ * BS
SCALE = 1.0 / D ** 0.5


@pl.jit.incore
def attend(query: pl.Tensor, key_cache_t: pl.Tensor, value_cache: pl.Tensor,
           block_table: pl.Tensor, out: pl.Out[pl.Tensor], seq: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    q = pl.load(query, [seq * Q, 0], [Q, D], target_memory=pl.MemorySpace.Mat)
    scores = pl.create_tile([Q, CTX], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    for j in pl.range(BLOCKS_PER_SEQ):
        block = pl.read(block_table, [seq, j])
        k_t = pl.load(key_cache_t, [0, block * BS], [D, BS], target_memory=pl.MemorySpace.Mat)
        s = pl.matmul(pl.move(q, target_memory=pl.MemorySpace.Left),
                      pl.move(k_t, target_memory=pl.MemorySpace.Right))
        scores = pl.tile.assemble(scores, pl.move(s, target_memory=pl.MemorySpace.Vec),
                                  [0, j * BS])
    scores = pl.mul(scores, SCALE)
    tmp = pl.create_tile([Q, CTX], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    e = pl.exp(pl.row_expand_sub(scores, pl.row_max(scores, tmp)))
    p = pl.row_expand_div(e, pl.row_sum(e, tmp))
    first = pl.read(block_table, [seq, 0])
    v0 = pl.load(value_cache, [first * BS, 0], [BS, D], target_memory=pl.MemorySpace.Mat)
    acc = pl.matmul(pl.move(pl.slice(p, [Q, BS], [0, 0]), target_memory=pl.MemorySpace.Left),
                    pl.move(v0, target_memory=pl.MemorySpace.Right))
    for j in pl.range(1, BLOCKS_PER_SEQ):
        block = pl.read(block_table, [seq, j])
        v = pl.load(value_cache, [block * BS, 0], [BS, D], target_memory=pl.MemorySpace.Mat)
        p_j = pl.slice(p, [Q, BS], [0, j * BS])
        acc = pl.matmul_acc(acc, pl.move(p_j, target_memory=pl.MemorySpace.Left),
                            pl.move(v, target_memory=pl.MemorySpace.Right))
    out = pl.store(acc, [0, 0], out)
    return out


@pl.jit
def paged_attention(query: pl.Tensor, key_cache_t: pl.Tensor, value_cache: pl.Tensor,
                    block_table: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor:
    for seq in pl.range(SEQS):
        rows = pl.slice(out, [Q, D], [seq * Q, 0])  # this sequence's rows of out (a view)
        rows = attend(query, key_cache_t, value_cache, block_table, rows, seq)
    return out


def golden(query: Any, key_cache_t: Any, value_cache: Any, table: Any) -> Any:
    q, k_t, v = numpy_of(query), numpy_of(key_cache_t), numpy_of(value_cache)
    rows: list[Any] = []
    for seq in range(SEQS):
        blocks = [int(b) for b in numpy_of(table)[seq]]
        keys = np.concatenate([k_t[:, b * BS:(b + 1) * BS] for b in blocks], axis=1)
        vals = np.concatenate([v[b * BS:(b + 1) * BS] for b in blocks], axis=0)
        s = q[seq * Q:(seq + 1) * Q] @ keys * SCALE
        p = np.exp(s - s.max(axis=1, keepdims=True))
        rows.append(p / p.sum(axis=1, keepdims=True) @ vals)
    return np.concatenate(rows)


def main() -> None:
    query = randn(SEQS * Q, D)
    key_cache_t = randn(D, CACHE_BLOCKS * BS)
    value_cache = randn(CACHE_BLOCKS * BS, D)
    block_table = values(SEQS, BLOCKS_PER_SEQ, [[3, 1, 6, 0], [7, 2, 5, 4]])
    out = zeros(SEQS * Q, D)
    paged_attention(query, key_cache_t, value_cache, block_table, out, config=RunConfig())
    check("paged_attention", out, golden(query, key_cache_t, value_cache, block_table),
          rtol=1e-3, atol=1e-3)


if __name__ == "__main__":
    main()

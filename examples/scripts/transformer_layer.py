"""A small transformer layer (one head): RMSNorm, Q/K/V projections, attention,
output projection with a residual, RMSNorm, a ReLU MLP with a residual.

One ``linear`` kernel serves every projection: each distinct typing of its parameters
gets its own specialised method (``linear``, ``linear__2``, ...), made at its first
call.  Intermediate tensors are ``pl.create_tensor`` results passed between kernels.

    python examples/scripts/transformer_layer.py [--numpy]
"""

from typing import Any

import numpy as np

import pypto.language as pl
from pypto.runtime import RunConfig

from _arrays import check, numpy_of, randn, zeros

S, H, F, EPS = 16, 32, 64, 1e-6
SCALE = 1.0 / H ** 0.5


@pl.jit.incore
def rms_norm(x: pl.Tensor, gamma: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    rows, cols = x.shape
    t = pl.load(x, [0, 0], [rows, cols])
    tmp = pl.create_tile([rows, cols], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    inv = pl.rsqrt(pl.add(pl.mul(pl.row_sum(pl.mul(t, t), tmp), 1.0 / cols), EPS))
    y = pl.store(pl.mul(pl.row_expand_mul(t, inv), pl.load(gamma, [0, 0], [rows, cols])),
                 [0, 0], y)
    return y


@pl.jit.incore
def linear(x: pl.Tensor, w: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    rows, inner = x.shape
    cols = w.shape[1]
    a = pl.load(x, [0, 0], [rows, inner], target_memory=pl.MemorySpace.Mat)
    b = pl.load(w, [0, 0], [inner, cols], target_memory=pl.MemorySpace.Mat)
    y = pl.store(pl.matmul(pl.move(a, target_memory=pl.MemorySpace.Left),
                           pl.move(b, target_memory=pl.MemorySpace.Right)), [0, 0], y)
    return y


@pl.jit.incore
def attention(q: pl.Tensor, k_t: pl.Tensor, v: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    tq = pl.load(q, [0, 0], [S, H], target_memory=pl.MemorySpace.Mat)
    tk = pl.load(k_t, [0, 0], [H, S], target_memory=pl.MemorySpace.Mat)
    scores = pl.matmul(pl.move(tq, target_memory=pl.MemorySpace.Left),
                       pl.move(tk, target_memory=pl.MemorySpace.Right))
    scores = pl.mul(pl.move(scores, target_memory=pl.MemorySpace.Vec), SCALE)
    tmp = pl.create_tile([S, S], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    e = pl.exp(pl.row_expand_sub(scores, pl.row_max(scores, tmp)))
    p = pl.row_expand_div(e, pl.row_sum(e, tmp))
    tv = pl.load(v, [0, 0], [S, H], target_memory=pl.MemorySpace.Mat)
    y = pl.store(pl.matmul(pl.move(p, target_memory=pl.MemorySpace.Left),
                           pl.move(tv, target_memory=pl.MemorySpace.Right)), [0, 0], y)
    return y


@pl.jit.incore
def residual(x: pl.Tensor, r: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    rows, cols = x.shape
    y = pl.store(pl.add(pl.load(x, [0, 0], [rows, cols]), pl.load(r, [0, 0], [rows, cols])),
                 [0, 0], y)
    return y


@pl.jit.incore
def relu(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    rows, cols = x.shape
    y = pl.store(pl.relu(pl.load(x, [0, 0], [rows, cols])), [0, 0], y)
    return y


@pl.jit.incore
def transpose(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    rows, cols = x.shape
    y = pl.store(pl.transpose(pl.load(x, [0, 0], [rows, cols]), 0, 1), [0, 0], y)
    return y


@pl.jit
def transformer_layer(x: pl.Tensor, gamma: pl.Tensor, wq: pl.Tensor, wk: pl.Tensor,
                      wv: pl.Tensor, wo: pl.Tensor, w1: pl.Tensor, w2: pl.Tensor,
                      out: pl.Out[pl.Tensor]) -> pl.Tensor:
    h = rms_norm(x, gamma, pl.create_tensor([S, H], dtype=pl.FP32))
    q = linear(h, wq, pl.create_tensor([S, H], dtype=pl.FP32))
    k = linear(h, wk, pl.create_tensor([S, H], dtype=pl.FP32))
    k_t = transpose(k, pl.create_tensor([H, S], dtype=pl.FP32))
    v = linear(h, wv, pl.create_tensor([S, H], dtype=pl.FP32))
    a = attention(q, k_t, v, pl.create_tensor([S, H], dtype=pl.FP32))
    x1 = residual(x, linear(a, wo, pl.create_tensor([S, H], dtype=pl.FP32)),
                  pl.create_tensor([S, H], dtype=pl.FP32))
    h2 = rms_norm(x1, gamma, pl.create_tensor([S, H], dtype=pl.FP32))
    f = relu(linear(h2, w1, pl.create_tensor([S, F], dtype=pl.FP32)),
             pl.create_tensor([S, F], dtype=pl.FP32))
    out = residual(x1, linear(f, w2, pl.create_tensor([S, H], dtype=pl.FP32)), out)
    return out


def golden(x: Any, gamma: Any, wq: Any, wk: Any, wv: Any, wo: Any, w1: Any, w2: Any) -> Any:
    x, g = numpy_of(x), numpy_of(gamma)
    wq, wk, wv, wo, w1, w2 = (numpy_of(w) for w in (wq, wk, wv, wo, w1, w2))

    def norm(t: Any) -> Any:
        return t / np.sqrt((t * t).mean(axis=1, keepdims=True) + EPS) * g

    h = norm(x)
    q, k, v = h @ wq, h @ wk, h @ wv
    s = q @ k.T * SCALE
    p = np.exp(s - s.max(axis=1, keepdims=True))
    x1 = x + (p / p.sum(axis=1, keepdims=True) @ v) @ wo
    return x1 + np.maximum(norm(x1) @ w1, 0) @ w2


def main() -> None:
    x, gamma = randn(S, H), randn(S, H, scale=0.1) + 1
    weights = [randn(H, H, scale=0.2), randn(H, H, scale=0.2), randn(H, H, scale=0.2),
               randn(H, H, scale=0.2), randn(H, F, scale=0.2), randn(F, H, scale=0.2)]
    out = zeros(S, H)
    transformer_layer(x, gamma, *weights, out, config=RunConfig())
    check("transformer_layer", out, golden(x, gamma, *weights), rtol=1e-3, atol=1e-3)


if __name__ == "__main__":
    main()

"""A decoder-style program: one ``pl.graph`` region per layer, inside the layer loop.

Every layer launches the same four kernels on the same buffers; only the layer's
weight rows change.  That is the shape graph capture is built for: the runtime
records the ``decoder_layer`` task graph on the first iteration and replays it on
the others, patching only the boundary tensors and scalars.

What the default pipeline does with it:

* ConvertToSSA turns the hidden state ``h`` and the scratch buffer ``normed`` into
  loop-carried values;
* OutlineGraphScopes lifts the region into ``decoder_layer`` (FunctionType.Graph)
  and leaves ``self.decoder_layer(...)`` in the loop; the kernels' ``Out``/``InOut``
  parameters decide the new function's parameter directions;
* LegalizeGraphBoundary moves ``row = layer * HIDDEN`` out to the call site, so that
  each replay receives the current layer's offset instead of the first one.

Run it:  pypto compile examples/decoder.py
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false
from __future__ import annotations

from typing import TypeAlias

import pypto.language as pl

TOKENS, HIDDEN, LAYERS = 16, 64, 4
STACKED = LAYERS * HIDDEN  # a name: type checkers read dims that are names or literals
Act: TypeAlias = pl.Tensor[[TOKENS, HIDDEN], pl.FP32]
Weights: TypeAlias = pl.Tensor[[STACKED, HIDDEN], pl.FP32]  # every layer's matrix, stacked


@pl.program
class Decoder:
    # ``out`` is InOut, not Out: a Graph function may not take a write-only tensor
    # (LegalizeGraphBoundary), and the region passes its scratch buffer straight here.
    @pl.function(type=pl.FunctionType.InCore)
    def rms_norm(self, x: Act, out: pl.InOut[Act]) -> Act:
        t = pl.load(x, [0, 0], [TOKENS, HIDDEN])
        scratch = pl.create_tile([TOKENS, HIDDEN], pl.FP32)
        mean_square = pl.row_sum(pl.mul(t, t), scratch)
        normed = pl.row_expand_mul(t, pl.rsqrt(mean_square))
        result = pl.store(normed, [0, 0], out)
        return result

    @pl.function(type=pl.FunctionType.InCore)
    def linear_residual(self, x: Act, w: Weights, row: pl.Scalar[pl.INDEX],
                        h: pl.InOut[Act]) -> Act:
        # h += x @ w[row : row + HIDDEN, :]
        a = pl.load(x, [0, 0], [TOKENS, HIDDEN], target_memory=pl.Mem.Mat)
        b = pl.load(w, [row, 0], [HIDDEN, HIDDEN], target_memory=pl.Mem.Mat)
        residual = pl.load(h, [0, 0], [TOKENS, HIDDEN])
        product = pl.move(pl.matmul(pl.move(a, pl.Mem.Left), pl.move(b, pl.Mem.Right)),
                          pl.Mem.Vec)
        result = pl.store(pl.add(residual, product), [0, 0], h)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def decode(self, w_attn: Weights, w_mlp: Weights, h: pl.InOut[Act],
               normed: pl.InOut[Act]) -> Act:
        for layer in pl.range(LAYERS):
            with pl.graph("decoder_layer"):
                row = layer * HIDDEN
                normed = self.rms_norm(h, normed)
                h = self.linear_residual(normed, w_attn, row, h)  # attention stand-in
                normed = self.rms_norm(h, normed)
                h = self.linear_residual(normed, w_mlp, row, h)   # MLP stand-in
        return h


if __name__ == "__main__":
    from pypto import ir

    manager = ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)
    print(manager.run_passes(Decoder).as_python())

"""A shape-annotated ``@pl.jit`` entry, compiled from its signature alone.

``@pl.jit`` functions are normally specialised from the tensors they are called
with.  When every tensor parameter carries a complete annotation, ``compile()``
with no tensor arguments runs in *signature mode*: shapes come from the
annotations, and scalars from keywords or defaults.  That is what
``pypto compile`` does with a jit entry.

The entry calls one ``@pl.jit.incore`` kernel; jit discovers it as a dependency
and emits both into one generated ``@pl.program`` (``_jit_scaled_add``).

Run it:  pypto compile examples/jit_entry.py
"""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

from __future__ import annotations

import pypto.language as pl

ROWS, COLS = 32, 64


@pl.jit.incore
def scaled_add_kernel(x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Tensor[[ROWS, COLS], pl.FP32],
                      out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
    a = pl.load(x, [0, 0], [ROWS, COLS])
    b = pl.load(y, [0, 0], [ROWS, COLS])
    result = pl.store(pl.add(pl.mul(a, 2.0), b), [0, 0], out)
    return result


@pl.jit
def scaled_add(x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Tensor[[ROWS, COLS], pl.FP32],
               out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
    out = scaled_add_kernel(x, y, out)
    return out


if __name__ == "__main__":
    print(scaled_add.compile().program.as_python())

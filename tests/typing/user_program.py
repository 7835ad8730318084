"""A user program type-checked by tests/typing/test_type_check.py (mypy --strict with
the pypto plugin): pl.* ops, ir nodes and the decorators."""
# pl.Tensor[[64], pl.FP32] takes dims and a dtype, not types: docs/guide/typing.md
# pyright: reportInvalidTypeArguments=false

from __future__ import annotations

from typing import TypeAlias

import pypto.language as pl
from pypto import ir

ROWS, COLS = 16, 32
Block: TypeAlias = pl.Tensor[[ROWS, COLS], pl.FP32]


@pl.program
class Scale:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: Block, factor: pl.Scalar[pl.FP32], out: pl.Out[Block]) -> Block:
        t = pl.load(x, [0, 0], [ROWS, COLS])
        scaled = pl.mul(t, factor)
        result = pl.store(pl.exp(scaled), [0, 0], out)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: Block, out: pl.Out[Block]) -> Block:
        for _ in pl.range(2):
            out = self.kernel(x, 2.0, out)
        return out


@pl.jit.incore
def add_kernel(x: pl.Tensor, y: pl.Out[pl.Tensor], row: pl.Scalar[pl.INDEX]) -> pl.Tensor:
    a = pl.load(x, [row, 0], [ROWS, COLS])
    y = pl.store(pl.add(a, 1.0), [row * 1, 0], y)
    return y


def function_names(program: ir.Program) -> list[str]:
    return [func.name for func in program.functions.values()]


def first_params(func: ir.Function) -> list[ir.Var]:
    return list(func.params)


def shape_of(var: ir.Var) -> tuple[ir.Expr, ...]:
    kind = var.type
    return kind.shape if isinstance(kind, ir.ShapedType) else ()


names: list[str] = function_names(Scale)
text: str = Scale.as_python()
params = first_params(Scale.functions["kernel"])
jitted: pl.JITFunction = add_kernel


def operands(expr: ir.Expr) -> list[ir.Expr]:
    """The operator classes narrow (``ir.Add`` is a class to a checker, not a value)."""
    if isinstance(expr, ir.Add):
        return [expr.left, expr.right]
    if isinstance(expr, ir.Neg):
        return [expr.operand]
    return []


def built(n: ir.Var) -> ir.Call:
    doubled: ir.Expr = n * 2 + 1  # operators on IR build IR
    renamed: ir.Var = n.replace(name_hint="m")  # replace keeps the node's class
    del renamed
    return ir.op.tensor.full([doubled], ir.DataType.FP32, 0.0)  # ir.op builders build Calls

"""What one IR node costs to build: the hot constructors and ``replace``.

    python benchmarks/bench_nodes.py [--repeats K] [--number N]

Every stage builds nodes (the parser, ConvertToSSA and the outliners rebuild them),
so these are the per-node prices behind the stage times of ``bench_scale.py``.  Each
row is the best of K samples of N back-to-back constructions (``timeit``), collector
paused, in microseconds per node.  The arguments are the usual good ones (a span, a
type, lists of nodes): the public constructors check them on a fast path and fall
back to the general checks (and their messages) only when one is wrong.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import timeit
from typing import Any, Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pypto import ir  # noqa: E402

DT = ir.DataType


def cases() -> dict[str, Callable[[], Any]]:
    span = ir.Span("bench.py", 3, 5, 3, 20)
    index = ir.ScalarType(DT.INDEX)
    tensor = ir.TensorType([16, 64], DT.FP32)
    x, y = ir.Var("x", tensor, span), ir.Var("y", tensor, span)
    i = ir.Var("i", index, span)
    zero = ir.ConstInt(0, DT.INDEX, span)
    kernel, add = ir.GlobalVar("kernel"), ir.get_op("tile.add")
    call = ir.Call(kernel, [x, y], tensor, span)
    assign = ir.AssignStmt(x, call, span)
    evaluate = ir.EvalStmt(call, span)
    stmts = [assign, evaluate, assign, evaluate]
    body = ir.SeqStmts(stmts, span)
    return {
        "Span": lambda: ir.Span("bench.py", 3, 5, 3, 20),
        "Var": lambda: ir.Var("x", tensor, span),
        "ConstInt": lambda: ir.ConstInt(3, DT.INDEX, span),
        "Call (function)": lambda: ir.Call(kernel, [x, y], tensor, span),
        "Call (op)": lambda: ir.Call(add, [x, y], tensor, span),
        "AssignStmt": lambda: ir.AssignStmt(x, call, span),
        "EvalStmt": lambda: ir.EvalStmt(call, span),
        "SeqStmts (4)": lambda: ir.SeqStmts(stmts, span),
        "ForStmt": lambda: ir.ForStmt(i, zero, zero, zero, [], body, [], span),
        "InCoreScopeStmt": lambda: ir.InCoreScopeStmt(body=body, span=span),
        "TensorType [16, 64]": lambda: ir.TensorType([16, 64], DT.FP32),
        "TileType [16, 64] Vec": lambda: ir.TileType([16, 64], DT.FP32, None, None,
                                                     ir.MemorySpace.Vec),
        "AssignStmt.replace": lambda: assign.replace(value=call),
        "Call.replace": lambda: call.replace(args=[y, x]),
        "Var.replace": lambda: x.replace(name_hint="z"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--number", type=int, default=20_000)
    args = parser.parse_args(argv)
    gc.disable()
    try:
        print("| node | us |\n|---|---:|")
        for name, build in cases().items():
            best = min(timeit.repeat(build, number=args.number, repeat=args.repeats))
            print(f"| {name} | {best / args.number * 1e6:.2f} |")
    finally:
        gc.enable()
    return 0


if __name__ == "__main__":
    sys.exit(main())

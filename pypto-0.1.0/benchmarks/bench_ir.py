"""Throughput of the IR core: construction, structural equality, structural hash, printing.

    python benchmarks/bench_ir.py [--quick]

For three IR shapes (many functions; one long body; deep nesting) it builds a
program of size N and of size 2N, and reports nodes/second per operation plus the
time ratio 2N/N (about 2.0 for a linear algorithm; 4.0 would mean quadratic).
Equality compares two independently built copies in strict mode, so every Var is
bound through its definition, as in the print -> parse round trip.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _timing import best_of  # noqa: E402
from pypto import ir  # noqa: E402

DT = ir.DataType
INDEX, FP32 = DT.INDEX, DT.FP32
SPAN = ir.Span("bench.py", 1, 1)


def _scalar_var(name: str) -> ir.Var:
    return ir.Var(name, ir.ScalarType(INDEX), SPAN)


def _statements(count: int, seed: ir.Var) -> list[ir.Stmt]:
    """``count`` assignments chained through scalar arithmetic and a tensor op call."""
    tensor_type = ir.TensorType([64, 128], FP32)
    tensor = ir.Var("t", tensor_type, SPAN)
    stmts: list[ir.Stmt] = [ir.AssignStmt(tensor, ir.Call(ir.Op("tensor.create"), [],
                                                          {"dtype": FP32}, tensor_type, SPAN),
                                          SPAN)]
    prev = seed
    for k in range(count - 1):
        target = _scalar_var(f"v{k}")
        value = ir.Add(ir.Mul(prev, ir.ConstInt(k % 7 + 1, INDEX, SPAN), INDEX, SPAN),
                       ir.ConstInt(k, INDEX, SPAN), INDEX, SPAN)
        if k % 5 == 4:
            value = ir.Call(ir.Op("tensor.dim"), [tensor, ir.ConstInt(0, INDEX, SPAN)],
                            {"axis": 0}, ir.ScalarType(INDEX), SPAN)
        stmts.append(ir.AssignStmt(target, value, SPAN))
        prev = target
    stmts.append(ir.ReturnStmt([prev], SPAN))
    return stmts


def _function(name: str, body_stmts: int) -> ir.Function:
    x = _scalar_var("x")
    loop_var = _scalar_var("i")
    acc = ir.IterArg("acc", ir.ScalarType(INDEX), x, SPAN)
    inner = _statements(body_stmts, acc)
    result = inner.pop()
    inner.append(ir.YieldStmt(list(result.value), SPAN))
    rv = _scalar_var("acc_rv")
    loop = ir.ForStmt(loop_var, 0, 16, 1, [acc], ir.SeqStmts.flatten(inner), [rv], SPAN)
    body = ir.SeqStmts.flatten([loop, ir.ReturnStmt([rv], SPAN)])
    return ir.Function(name, [x], [ir.ScalarType(INDEX)], body, SPAN,
                       type=ir.FunctionType.Orchestration)


def many_functions(size: int) -> ir.Program:
    return ir.Program([_function(f"f{k:05d}", 10) for k in range(max(1, size // 85))], "Many",
                      SPAN)


def long_body(size: int) -> ir.Program:
    return ir.Program([_function("main", max(2, size // 7))], "Long", SPAN)


def deep_nesting(size: int) -> ir.Program:
    """Loops and graph scopes nested ``size // 60`` deep (500 levels for the default N)."""
    depth = max(1, size // 60)
    x = _scalar_var("x")
    body: ir.Stmt = ir.AssignStmt(_scalar_var("y"), ir.Add(x, ir.ConstInt(1, INDEX, SPAN),
                                                           INDEX, SPAN), SPAN)
    for level in range(depth):
        stmts = [body] + [ir.EvalStmt(ir.Add(ir.Mul(x, ir.ConstInt(k, INDEX, SPAN), INDEX, SPAN),
                                             ir.ConstInt(level, INDEX, SPAN), INDEX, SPAN), SPAN)
                          for k in range(7)]
        if level % 2:
            body = ir.ForStmt(_scalar_var(f"i{level}"), 0, 4, 1, [], ir.SeqStmts.flatten(stmts),
                              [], SPAN)
        else:
            body = ir.GraphScopeStmt(f"g{level}", body=ir.SeqStmts.flatten(stmts), span=SPAN)
    func = ir.Function("deep", [x], [], body, SPAN, type=ir.FunctionType.Orchestration)
    return ir.Program([func], "Deep", SPAN)


SHAPES: dict[str, Callable[[int], ir.Program]] = {
    "many functions": many_functions,
    "long body": long_body,
    "deep nesting": deep_nesting,
}


class _Counter(ir.IRVisitor):
    def __init__(self) -> None:
        self.count = 0

    def visit_expr(self, op: ir.Expr) -> None:
        self.count += 1
        super().visit_expr(op)

    def visit_stmt(self, op: ir.Stmt) -> None:
        self.count += 1
        super().visit_stmt(op)


def count_nodes(program: ir.Program) -> int:
    counter = _Counter()
    counter(program)
    return counter.count + len(program.functions)


def _printer_ready() -> bool:
    try:
        text = ir.python_print(ir.EvalStmt(ir.ConstInt(1, INDEX, SPAN), SPAN))
    except NotImplementedError:
        return False
    return not text.startswith("<")


def measure(build: Callable[[int], ir.Program], size: int, repeat: int) -> dict[str, tuple]:
    """operation -> (nodes, seconds) for one IR size."""
    lhs = build(size)
    rhs = build(size)
    nodes = count_nodes(lhs)
    results = {
        "construct": best_of(lambda: build(size), repeat),
        "equal": best_of(lambda: ir.assert_structural_equal(lhs, rhs), repeat),
        "hash": best_of(lambda: ir.structural_hash(lhs), repeat),
    }
    if _printer_ready():
        results["print"] = best_of(lambda: ir.python_print(lhs), repeat)
    return {name: (nodes, seconds) for name, seconds in results.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one repetition")
    args = parser.parse_args(argv)
    size, repeat = (3_000, 1) if args.quick else (30_000, 3)
    print(f"IR core benchmark: N = {size} nodes (approx.), best of {repeat}; "
          f"Python {sys.version.split()[0]}")
    if not _printer_ready():
        print("(printer not available yet: 'print' is skipped)")
    header = f"{'shape':<15} {'operation':<10} {'nodes N':>9} {'Mnodes/s N':>11} " \
             f"{'Mnodes/s 2N':>12} {'time 2N/N':>10}"
    print(header)
    print("-" * len(header))
    for shape, build in SHAPES.items():
        small = measure(build, size, repeat)
        large = measure(build, 2 * size, repeat)
        for operation, (nodes, seconds) in small.items():
            nodes2, seconds2 = large[operation]
            rate = nodes / seconds / 1e6
            rate2 = nodes2 / seconds2 / 1e6
            print(f"{shape:<15} {operation:<10} {nodes:>9} {rate:>11.3f} {rate2:>12.3f} "
                  f"{seconds2 / seconds:>10.2f}")


if __name__ == "__main__":
    main()

"""Scaling of the passes before outlining: InlineFunctions, ConvertToSSA,
NormalizeStmtStructure, FlattenCallExpr.

    python benchmarks/bench_passes_front.py [--quick]

For three program shapes (many functions; one long function; deep nesting, all
built with ``ir`` constructors) it runs each pass on a program of size N and of
size 2N and prints the time ratio 2N/N: about 2.0 for a linear pass, 4.0 for a
quadratic one.  The exit status is 1 when a time ratio exceeds 2.3.  As a
noise-free cross-check it also prints the ratio of Python function calls made
by the pass (counted with ``cProfile``), which is exact on a busy machine.

Each pass gets the input the default pipeline would give it: InlineFunctions the
generated program (calls to an Inline helper everywhere), ConvertToSSA its
output, FlattenCallExpr the normalized SSA program; NormalizeStmtStructure gets
the generated program with every block wrapped in redundant ``SeqStmts``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _timing import best_pair  # noqa: E402
from pypto import ir, passes  # noqa: E402

DT = ir.DataType
TENSOR = ir.TensorType([64], DT.FP32)
INDEX = ir.ScalarType(DT.INDEX)
BOOL = ir.ScalarType(DT.BOOL)
MAX_RATIO = 2.3
HELPER = "helper"


def _op(name: str, *args: ir.Expr) -> ir.Call:
    return ir.create_op_call(name, list(args))


def _block(stmts: list[ir.Stmt], messy: bool) -> ir.Stmt:
    """A body; ``messy`` wraps it in nested and single-child SeqStmts."""
    if not messy:
        return ir.SeqStmts.flatten(stmts)
    return ir.SeqStmts([ir.SeqStmts([ir.SeqStmts([s]) for s in stmts])])


class _Gen:
    """Pre-SSA statements in the parser's shape: one Var per source name, reused."""

    def __init__(self, messy: bool) -> None:
        self.messy = messy
        self.count = 0

    def fresh(self, base: str, type_: ir.Type = TENSOR) -> ir.Var:
        self.count += 1
        return ir.Var(f"{base}{self.count}", type_)

    def helper_call(self, arg: ir.Expr) -> ir.Call:
        return ir.Call(ir.GlobalVar(HELPER), [arg], TENSOR)

    def unit(self, x: ir.Var, acc: ir.Var, cond: ir.Var) -> list[ir.Stmt]:
        """A nested call, a loop carrying ``acc``, an if merging it, a scope, a splice."""
        t, u, v = self.fresh("t"), self.fresh("u"), self.fresh("v")
        i = self.fresh("i", INDEX)
        loop_body = [ir.AssignStmt(u, _op("tensor.mul", acc, t)),
                     ir.AssignStmt(acc, _op("tensor.add", acc, u))]
        return [
            ir.AssignStmt(t, _op("tensor.exp", _op("tensor.add", acc, x))),
            ir.ForStmt(i, 0, 4, 1, [], _block(loop_body, self.messy), []),
            ir.IfStmt(cond, _block([ir.AssignStmt(acc, _op("tensor.exp", acc))], self.messy),
                      None, []),
            ir.InCoreScopeStmt(body=_block([ir.AssignStmt(v, _op("tensor.add", acc, x))],
                                           self.messy)),
            ir.AssignStmt(acc, self.helper_call(_op("tensor.add", acc, v))),
        ]

    def deep(self, depth: int, x: ir.Var, acc: ir.Var, cond: ir.Var) -> ir.Stmt:
        """``depth`` levels cycling for / if / scope; each defines a local and updates acc."""
        body: ir.Stmt = ir.AssignStmt(acc, self.helper_call(acc))
        for level in range(depth):
            local = self.fresh("l")
            stmts = [ir.AssignStmt(local, _op("tensor.add", _op("tensor.exp", acc), x)),
                     ir.AssignStmt(acc, _op("tensor.add", acc, local)), body]
            inner = _block(stmts, self.messy)
            kind = level % 3
            if kind == 0:
                body = ir.ForStmt(self.fresh("i", INDEX), 0, 2, 1, [], inner, [])
            elif kind == 1:
                body = ir.IfStmt(cond, inner, None, [])
            else:
                body = ir.HierarchyScopeStmt(ir.Level.HOST, body=inner)
        return body


def _helper() -> ir.Function:
    a, b = ir.Var("a", TENSOR), ir.Var("b", TENSOR)
    j = ir.Var("j", INDEX)
    body = [ir.AssignStmt(b, _op("tensor.add", a, a)),
            ir.ForStmt(j, 0, 2, 1, [], ir.AssignStmt(b, _op("tensor.mul", b, a)), []),
            ir.ReturnStmt([b])]
    return ir.Function(HELPER, [a], [TENSOR], ir.SeqStmts.flatten(body),
                       type=ir.FunctionType.Inline)


def _function(name: str, gen: _Gen, fill: Callable[[ir.Var, ir.Var, ir.Var], list[ir.Stmt]]
              ) -> ir.Function:
    x, out = ir.Var("x", TENSOR), ir.Var("out", TENSOR)
    acc, cond = ir.Var("acc", TENSOR), ir.Var("c", BOOL)
    stmts = [ir.AssignStmt(acc, x), *fill(x, acc, cond),
             ir.AssignStmt(out, _op("tensor.add", acc, x)), ir.ReturnStmt([out])]
    return ir.Function(name, [x, (out, ir.ParamDirection.Out), cond], [TENSOR],
                       _block(stmts, gen.messy))


def many_functions(n: int, messy: bool = False) -> ir.Program:
    gen = _Gen(messy)
    funcs = [_function(f"f{k:06d}", gen, lambda x, acc, c: gen.unit(x, acc, c))
             for k in range(n)]
    return ir.Program([_helper(), *funcs], "Many")


def long_function(n: int, messy: bool = False) -> ir.Program:
    gen = _Gen(messy)

    def fill(x: ir.Var, acc: ir.Var, cond: ir.Var) -> list[ir.Stmt]:
        return [s for _ in range(n) for s in gen.unit(x, acc, cond)]

    return ir.Program([_helper(), _function("main", gen, fill)], "Long")


def deep_nesting(n: int, messy: bool = False) -> ir.Program:
    gen = _Gen(messy)
    return ir.Program([_helper(), _function("main", gen, lambda x, acc, c: [
        gen.deep(n, x, acc, c)])], "Deep")


SHAPES: dict[str, tuple[Callable[..., ir.Program], int]] = {
    "many functions": (many_functions, 400),
    "long function": (long_function, 400),
    "deep nesting": (deep_nesting, 800),
}


def _inputs(build: Callable[..., ir.Program], size: int) -> dict[str, ir.Program]:
    """The input of each pass, as the default pipeline would produce it."""
    with passes.PassContext([]):
        generated = build(size)
        inlined = passes.inline_functions()(generated)
        ssa = passes.convert_to_ssa()(inlined)
        normalized = passes.normalize_stmt_structure()(ssa)
    return {"InlineFunctions": generated, "ConvertToSSA": inlined,
            "NormalizeStmtStructure": build(size, messy=True),
            "FlattenCallExpr": normalized}


PASSES: dict[str, Callable[[], passes.Pass]] = {
    "InlineFunctions": passes.inline_functions,
    "ConvertToSSA": passes.convert_to_ssa,
    "NormalizeStmtStructure": passes.normalize_stmt_structure,
    "FlattenCallExpr": passes.flatten_call_expr,
}


def _calls(run: Callable[[], object]) -> int:
    profile = cProfile.Profile()
    profile.enable()
    try:
        run()
    finally:
        profile.disable()
    return pstats.Stats(profile).total_calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats")
    args = parser.parse_args(argv)
    repeats = 5 if args.quick else 7
    worst = 0.0
    print(f"{'shape':<16} {'pass':<24} {'N':>5} {'t(N) ms':>9} {'t(2N) ms':>9} {'ratio':>6} "
          f"{'calls':>6}")
    for shape, (build, size) in SHAPES.items():
        size = size // 2 if args.quick else size
        small, large = _inputs(build, size), _inputs(build, 2 * size)
        for name, factory in PASSES.items():
            pass_ = factory()
            with passes.PassContext([]):
                t_small, t_large = best_pair(lambda: pass_(small[name]),
                                              lambda: pass_(large[name]), repeats)
                calls = (_calls(lambda: pass_(large[name]))
                         / _calls(lambda: pass_(small[name])))
            ratio = t_large / t_small
            worst = max(worst, ratio)
            flag = "" if ratio <= MAX_RATIO else "  <-- exceeds %.1f" % MAX_RATIO
            print(f"{shape:<16} {name:<24} {size:>5} {t_small * 1e3:>9.2f} "
                  f"{t_large * 1e3:>9.2f} {ratio:>6.2f} {calls:>6.2f}{flag}")
    print(f"worst ratio: {worst:.2f} (limit {MAX_RATIO})")
    return 0 if worst <= MAX_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())

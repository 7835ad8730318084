"""``for aiv_id in pl.split_aiv(n, mode=...):`` -- the split-AIV loop (issue 13 point 4):
its IR node, printing and reading back, traversal, the passes and the executor."""

from __future__ import annotations

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir, passes
from pypto.language.parser.diagnostics import ParserSyntaxError

from _parser_helpers import SPAN, assert_roundtrip, expect_error, expect_text_error, stmts

T = pl.Tensor[[16, 64], pl.FP32]


@pl.program
class Halves:
    @pl.function
    def main(self, x: T, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP):
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                t = pl.load(x, [aiv_id * 8, 0], [8, 64])
                out = pl.store(pl.mul(t, 2.0), [aiv_id * 8, 0], out)
        return out


def _split(func: ir.Function) -> ir.SplitAivScopeStmt:
    (region,) = [s for s in ir.flatten_to_stmts(func.body) if isinstance(s, ir.InCoreScopeStmt)]
    return region.body


def test_the_loop_is_a_split_aiv_scope_binding_the_subblock_index():
    split = _split(Halves.get_function("main"))
    assert isinstance(split, ir.SplitAivScopeStmt)
    assert isinstance(split, ir.ScopeStmt) and split.scope_kind is ir.ScopeKind.SplitAiv
    assert (split.split, split.count, split.name_hint, split.attrs) == \
        (ir.SplitMode.UP_DOWN, 2, "", {})
    first = ir.flatten_to_stmts(split.body)[0]
    assert first.var.name_hint == "aiv_id"
    ir.assert_structural_equal(first.value, pl.tile.get_subblock_idx())


def test_prints_as_the_loop_and_reads_back_equal():
    text = ir.python_print(Halves)
    assert "for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):" in text
    assert "get_subblock_idx" not in text
    assert_roundtrip(Halves)


def test_a_split_without_its_index_prints_an_underscore_and_binds_nothing():
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]
          ) -> pl.Tensor[[8, 8], pl.FP32]:
        for _ in pl.split_aiv(4, mode=pl.SplitMode.LEFT_RIGHT, name_hint="cols"):
            out = pl.store(pl.load(x, [0, 0], [8, 8]), [0, 0], out)
        return out

    split = stmts(k)[0]
    assert (split.count, split.split, split.name_hint) == (4, ir.SplitMode.LEFT_RIGHT, "cols")
    assert isinstance(ir.flatten_to_stmts(split.body)[0].value, ir.Call)
    assert ir.flatten_to_stmts(split.body)[0].value.op.name == "tile.store"
    assert 'for _ in pl.split_aiv(4, mode=pl.SplitMode.LEFT_RIGHT, name_hint="cols"):' in \
        ir.python_print(k)
    assert_roundtrip(k)


def test_built_node_equality_and_hash():
    body = ir.SeqStmts([], SPAN)
    a = ir.SplitAivScopeStmt(ir.SplitMode.UP_DOWN, body=body, span=SPAN)
    b = ir.SplitAivScopeStmt(ir.SplitMode.UP_DOWN, 2, body=body, span=SPAN)
    assert ir.structural_equal(a, b) and ir.structural_hash(a) == ir.structural_hash(b)
    for other in (ir.SplitAivScopeStmt(ir.SplitMode.LEFT_RIGHT, body=body),
                  ir.SplitAivScopeStmt(ir.SplitMode.UP_DOWN, 4, body=body),
                  ir.SplitAivScopeStmt(ir.SplitMode.UP_DOWN, 2, "h", body=body),
                  ir.InCoreScopeStmt(ir.SplitMode.UP_DOWN, body=body)):
        assert not ir.structural_equal(a, other)
    assert str(a) == "for _ in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):\n    pass"


@pytest.mark.parametrize("args, cls, fragment", [
    (dict(split=1), TypeError, "field 'split' expects SplitMode"),
    (dict(split=ir.SplitMode.UP_DOWN, count=0), ValueError, "'count' must be positive"),
    (dict(split=ir.SplitMode.UP_DOWN, count=True), TypeError, "'count' expects int"),
])
def test_constructor_checks(args, cls, fragment):
    with pytest.raises(cls, match=fragment):
        ir.SplitAivScopeStmt(**args, body=ir.SeqStmts([]))


def test_visitor_and_mutator_reach_the_body():
    seen = []

    class Calls(ir.IRVisitor):
        def visit_split_aiv_scope_stmt(self, op):
            seen.append(("split", op.count))
            super().visit_split_aiv_scope_stmt(op)

        def visit_call(self, op):
            seen.append(op.op.name)
            super().visit_call(op)

    Calls()(Halves)
    assert seen[0] == ("split", 2) and "tile.get_subblock_idx" in seen and "tile.store" in seen

    class Quadruple(ir.IRMutator):
        def visit_split_aiv_scope_stmt(self, op):
            op = super().visit_split_aiv_scope_stmt(op)
            return op.replace(count=4)

    changed = Quadruple()(Halves)
    assert _split(changed.get_function("main")).count == 4
    assert "pl.split_aiv(4, mode=pl.SplitMode.UP_DOWN)" in ir.python_print(changed)
    assert Quadruple().visit_stmt(ir.SeqStmts([])) is not None
    unchanged = ir.IRMutator()(Halves)
    assert unchanged is Halves


def test_executor_runs_the_body_once_per_vector_core():
    x = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    out = np.zeros_like(x)
    pypto.run(Halves, x, out)
    np.testing.assert_array_equal(out, 2 * x)


def test_the_pipeline_keeps_the_split_inside_the_outlined_kernel():
    after = ir.PassManager.get_strategy().run_passes(Halves)

    @pl.program
    class Expected:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(x: T, out: pl.Out[T]) -> T:
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                t = pl.load(x, [aiv_id * 8, 0], [8, 64])
                t_1 = pl.tile.muls(t, 2.0)
                out_1 = pl.store(t_1, [aiv_id * 8, 0], out)
                out__store = out_1
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: T, out: pl.Out[T]) -> T:
            out_2 = self.main_incore_0(x, out)
            return out_2

    ir.assert_structural_equal(after, passes.convert_to_ssa()(Expected))
    x = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    out = np.zeros_like(x)
    pypto.run(after, x, out)
    np.testing.assert_array_equal(out, 2 * x)


def test_in_an_spmd_kernel_and_a_jit_kernel():
    @pl.jit
    def blocks(x: pl.Tensor, out: pl.Out[pl.Tensor]):
        for b in pl.spmd(2):
            for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                row = b * 8 + lane * 4
                t = pl.load(x, [row, 0], [4, 64])
                out = pl.store(pl.add(t, 1.0), [row, 0], out)
        return out

    x = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    out = np.zeros_like(x)
    assert_roundtrip(blocks.specialize(x, out))
    blocks(x, out)
    np.testing.assert_array_equal(out, x + 1)


def test_python_level_objects_have_pyptos_signatures():
    import inspect
    assert str(inspect.signature(pl.split_aiv)) == "(n: 'int', *, mode: 'SplitMode') -> " \
                                                   "'SplitAivContext'"
    ctx = pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN)
    assert (ctx.n, ctx.mode) == (2, pl.SplitMode.UP_DOWN)
    with pytest.raises(RuntimeError, match="only has a meaning inside"):
        iter(ctx)
    with pytest.raises(TypeError):
        pl.split_aiv(2, pl.SplitMode.UP_DOWN)  # mode is keyword-only


# -- misuse -----------------------------------------------------------------------------

def _kernel(body: str) -> str:
    return ("import pypto.language as pl\n\n"
            "@pl.function\n"
            "def f(x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:\n"
            + "".join(f"    {line}\n" for line in body.splitlines()) + "    return x\n")


@pytest.mark.parametrize("body, fragment, marker, token", [
    ("for a in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):  # @outside\n    pass",
     "pl.split_aiv() must be inside a kernel", "outside", "for"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n"
     "    for a in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):\n"
     "        for b in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):  # @nested\n"
     "            pass",
     "cannot be nested inside pl.split_aiv()", "nested", "for b"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n"
     "    for a in pl.split_aiv(2, mode=pl.SplitMode.NONE):  # @none\n        pass",
     "mode must be pl.SplitMode.UP_DOWN or pl.SplitMode.LEFT_RIGHT", "none", "pl.SplitMode.NONE"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n"
     "    for a in pl.split_aiv(2):  # @no-mode\n        pass",
     "requires mode=", "no-mode", "pl.split_aiv"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n"
     "    for a in pl.split_aiv(2, pl.SplitMode.UP_DOWN):  # @positional\n        pass",
     "takes at most 1 positional argument", "positional", "pl.split_aiv"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n"
     "    for a in pl.split_aiv(0, mode=pl.SplitMode.UP_DOWN):  # @zero\n        pass",
     "n must be positive, got 0", "zero", "0,"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n"
     "    n = pl.tile.get_block_idx()\n"
     "    for a in pl.split_aiv(n, mode=pl.SplitMode.UP_DOWN):  # @dynamic\n        pass",
     "n must be an integer constant", "dynamic", "n,"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n"
     "    for a in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):\n"
     "        with pl.at(level=pl.Level.CORE_GROUP):  # @kernel-in-split\n            pass",
     "cannot be nested inside pl.split_aiv()", "kernel-in-split", "with"),
    ("with pl.at(level=pl.Level.CORE_GROUP):\n"
     "    for a, b in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):  # @tuple\n        pass",
     "needs a single name", "tuple", "a, b"),
])
def test_misuse(body, fragment, marker, token):
    expect_text_error(_kernel(body), ParserSyntaxError, fragment, marker, token)


def test_misuse_in_a_decorated_function_points_at_the_users_line():
    with expect_error(ParserSyntaxError, "pl.split_aiv() must be inside a kernel", "orch",
                      "for"):
        @pl.function(type=pl.FunctionType.Orchestration)
        def f(x: T) -> T:
            for a in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):  # @orch
                pass
            return x

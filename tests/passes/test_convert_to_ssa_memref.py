"""ConvertToSSA keeps the memref a variable was declared with.

Memrefs are outside type equality, so a value's type (``pl.tile.load``'s result has
none) and the annotation's compare equal; the pass took the value's type and the
memref -- where the data lies -- was lost from the output (a miscompile: printed and
read back, the program no longer said which buffer the tile occupies).
"""

from __future__ import annotations

import pypto.language as pl
from pypto import ir, passes

BEFORE = '''
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, x: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        t: pl.Tile[[16, 64], pl.FP32, pl.MemRef(buf, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        for i in pl.range(2):
            t = pl.tile.add(t, t)
        y: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)] = pl.tile.store(t, [0, 0], x)
        return y
'''

AFTER = '''
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, x__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf__ssa_v0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        t__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(buf__ssa_v0, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64])
        for i__idx_v0, (t__iter_v1,) in pl.range(2, init_values=(t__ssa_v0,)):
            t__ssa_v3: pl.Tile[[16, 64], pl.FP32, pl.MemRef(buf__ssa_v0, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.add(t__iter_v1, t__iter_v1)
            t__rv_v2 = pl.yield_(t__ssa_v3)
        y__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)] = pl.tile.store(t__rv_v2, [0, 0], x__ssa_v0)
        return y__ssa_v0
'''


def _memrefs(program: ir.Program) -> list:
    """Every memref of the program's types, in visiting order (with its base Var)."""
    found: list = []

    class Collect(ir.IRVisitor):
        def visit_mem_ref(self, op):
            found.append(op)
            super().visit_mem_ref(op)

    for func in program.functions.values():
        for param in func.params:
            Collect().visit_expr(param)
        Collect().visit_stmt(func.body)
    return found


def _def_memref(program: ir.Program, name: str):
    for var in ir.collect_def_vars(program.functions["k"].body):
        if var.name_hint == name:
            return var.type.memref
    raise AssertionError(f"no definition of {name}")


def test_a_declared_memref_is_kept_and_its_base_renamed():
    result = passes.convert_to_ssa()(pl.parse(BEFORE))
    expected = pl.parse(AFTER)
    ir.assert_structural_equal(result, expected)
    ir.assert_structural_equal(_memrefs(result), _memrefs(expected), enable_auto_mapping=True)
    memref = _def_memref(result, "t__ssa_v0")
    assert memref is not None and memref.base_.name_hint == "buf__ssa_v0"
    # the base is the renamed alloc itself, not a free Var of the old name
    alloc = ir.flatten_to_stmts(result.functions["k"].body)[0].var
    assert memref.base_ is alloc
    # the loop's carry and its result hold the value's memref too
    assert _def_memref(result, "t__ssa_v3") is not None
    assert _def_memref(result, "y__ssa_v0").base_.name_hint == "mem_ddr_1"


def test_a_declared_memref_survives_print_and_reparse():
    result = passes.convert_to_ssa()(pl.parse(BEFORE))
    reparsed = pl.parse(ir.python_print(result))
    ir.assert_structural_equal(_memrefs(result), _memrefs(reparsed), enable_auto_mapping=True)
    assert "pl.MemRef(buf__ssa_v0" in ir.python_print(result)

"""The ``pl.tile``/``pl.system`` wrappers and ``ir.op`` builders of the second op stage:
PyPTO's signatures, the wrapper parameters that are neither operands nor attributes
(enum operands, type parameters, call attrs), the unified ``pl.*`` routes to them, and
the type rules' messages."""

from __future__ import annotations

import inspect

import pytest

import pypto.language as pl
from pypto import ir

DT, Mem = ir.DataType, ir.MemorySpace


def tile(name, shape, dtype=DT.FP32, mem=Mem.Vec):
    return ir.Var(name, ir.TileType(shape, dtype, memory_space=mem))


def tensor(name, shape, dtype=DT.FP32):
    return ir.Var(name, ir.TensorType(shape, dtype))


A, B = tile("a", [16, 16]), tile("b", [16, 16])
I = tile("i", [16, 16], DT.INT32)
X = tensor("x", [16, 16])
I32 = tensor("xi", [16, 16], DT.INT32)


def sig(fn):
    """The signature without annotations (the hand-written routers have some)."""
    s = inspect.signature(fn)
    plain = [p.replace(annotation=inspect.Parameter.empty) for p in s.parameters.values()]
    return str(s.replace(parameters=plain, return_annotation=inspect.Signature.empty))


# PyPTO's signatures (ops.md / api_surface.md), checked as text.
SIGNATURES = {
    pl.tile.alloc: "(memory_space, size, *, pinned=False, span=None)",
    ir.op.tile.alloc: "(memory_space, addr, size, alloc_id, span=None)",
    pl.tile.extract: "(src, index_row, index_col, shape, *, target_memory, span=None)",
    pl.tile.full: "(shape, dtype, value, *, span=None)",
    pl.tile.gather_compare: "(src, kvalue, tmp, *, cmp_mode='eq', offset=0, out_cols, "
                            "count_dtype=None, span=None)",
    ir.op.tile.gather_compare: "(src, kvalue, tmp, *, cmp_mode, offset=0, out_cols, "
                               "count_dtype=None, span=None)",
    pl.tile.aic_gather: "(x, span=None)",
    ir.op.tile.aiv_shard: "(tile, *, split, lane_stride=None, span=None)",
    pl.tile.mrgsort: "(src0, src1=None, src2=None, src3=None, tmp=None, exhausted=False, *, "
                     "block_len=None, span=None)",
    pl.system.tpop_from_aic: "(*, shape=None, dtype=None, split=0, lane_stride=None, id=None, "
                             "span=None)",
    ir.op.tile.tpop_from_aiv: "(*, result_type=None, shape=None, dtype=None, split=0, "
                              "id=None, span=None)",
    pl.tpush_to_aiv: "(tile, *, split, lane_stride=None, id=None, span=None)",
    pl.tfree_to_aic: "(tile, span=None, *, split=None, id=None)",
    pl.aic_initialize_pipe: "(c2v_consumer_buf=0, v2c_consumer_buf=0, *, dir_mask, slot_size, "
                            "slot_num=None, local_slot_num=None, id=None, span=None)",
    pl.system.sync_set: "(event_id, *, pipe, ffts_mode=None, core_type=None, span=None)",
    ir.op.system.syncall: "(*, core_type='mix', span=None)",
    pl.system.syncall: "(*, core_type='mix', mode='hard', gm_workspace=None, used_cores=None, "
                       "span=None)",
    ir.op.system.syncall_soft: "(core_type, gm_workspace, used_cores=None, *, span=None)",
    ir.op.system.bar_all: "(*, span=None)",
    ir.op.system.cacheinvalid: "(tensor=None, shapes=None, offsets=None, *, span=None)",
    pl.reserve_buffer: "(*, name, size, base=-1, span=None)",
    pl.tile.mgather: "(mem, idx, coalesce='row', *, gather_oob='undefined', "
                     "target_memory=MemorySpace.Vec, scratch=None, valid_shape=None, "
                     "span=None)",
}


@pytest.mark.parametrize("fn", list(SIGNATURES), ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_signatures_are_pyptos(fn):
    assert sig(fn) == SIGNATURES[fn]


def test_pl_system_offers_the_pipe_wrappers_and_pl_tile_its_extras():
    assert pl.system.tpush_to_aiv is pl.tile.tpush_to_aiv is pl.tpush_to_aiv
    assert ir.op.system.tpop_from_aic is ir.op.tile.tpop_from_aic
    assert pl.tile.MaskPattern.P1010 == 2 and pl.system.AUTO == -1
    assert pl.tile.max(ir.ConstInt(1, DT.INDEX), ir.ConstInt(2, DT.INDEX)).__class__ is ir.Max
    assert pl.tile.predicate_to_expr(True).value is True and pl.tile.predicate_to_expr(None) is None
    assert not pl.tile.has_partial_valid_region(A)


def _round_trip(text):
    program = pl.parse(text)
    printed = ir.python_print(program)
    ir.assert_structural_equal(program, pl.parse(printed))
    return printed


def test_enum_operands_print_as_their_member():
    call = pl.tile.alloc(pl.Mem.Vec, 1024)
    assert isinstance(call.args[0], ir.ConstInt) and call.args[0].value == int(Mem.Vec)
    printed = _round_trip("""
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def main(self):
        buf = pl.tile.alloc(pl.Mem.Mat, 2048, pinned=True)
        return
""")
    assert "pl.tile.alloc(pl.Mem.Mat, 2048, pinned=True)" in printed


def test_attributes_only_the_builders_set_still_read_back():
    # pl.tile.aic_gather(x) has no split; what ir.op.tile.aic_gather(t, split=1) builds
    # prints split=1, and the parser reads it
    built = ir.op.tile.aic_gather(A, split=1)
    assert built.kwargs["split"] == 1 and pl.tile.aic_gather(A).kwargs["split"] == 0
    a = ir.Var("a", A.type)
    r = ir.Var("r", A.type)
    fn = ir.Function("f", [a], [A.type], [ir.AssignStmt(r, ir.op.tile.aic_gather(a, split=1)),
                                          ir.ReturnStmt([r])])
    assert "pl.tile.aic_gather(a, split=1)" in ir.python_print(fn)
    ir.assert_structural_equal(fn, pl.parse(ir.python_print(fn)))


def test_an_omitted_scratch_is_absent_in_print():
    call = pl.tile.mgather(X, I, valid_shape=[8, 16])
    assert isinstance(call.args[2], ir.MakeTuple) and not call.args[2].elements
    printed = _round_trip("""
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32]):
        i = pl.tile.ci(0, [4, 4], dtype=pl.INT32)
        g = pl.tile.mgather(x, i, valid_shape=[2, 4])
        return
""")
    assert "pl.tile.mgather(x, i, valid_shape=[2, 4])" in printed


# unified pl.* -> the op it builds
ROUTES = [
    (lambda: pl.and_(I, 3), "tile.ands"), (lambda: pl.or_(I, 3), "tile.ors"),
    (lambda: pl.shl(I, 2), "tile.shls"), (lambda: pl.shr(I, I), "tile.shr"),
    (lambda: pl.fmod(A, 1.5), "tile.fmods"), (lambda: pl.xor(I, I, I), "tile.xor"),
    (lambda: pl.xor(I, 3, I), "tile.xors"), (lambda: pl.xor(3, I, I), "tile.xors"),
    (lambda: pl.xor(I32, I32), "tensor.xor"), (lambda: pl.xors(I, 1, I), "tile.xors"),
    (lambda: pl.not_(I), "tile.not"), (lambda: pl.sin(A), "tile.sin"),
    (lambda: pl.part_max(A, B), "tile.part_max"), (lambda: pl.row_prod(A, B), "tile.row_prod"),
    (lambda: pl.col_argmax(A, B), "tile.col_argmax"), (lambda: pl.col_prod(A), "tile.col_prod"),
    (lambda: pl.row_expand_max(A, tile("r", [16, 1])), "tile.row_expand_max"),
    (lambda: pl.concat(A, B), "tile.concat"), (lambda: pl.fillpad(A), "tile.fillpad"),
    (lambda: pl.set_validshape(A, 8, 8), "tile.set_validshape"),
    (lambda: pl.reinterpret_view(A, pl.INT32), "tile.reinterpret_view"),
    (lambda: pl.sort32(A, I), "tile.sort32"), (lambda: pl.aic_gather(A), "tile.aic_gather"),
    (lambda: pl.aic_gather(X), "tensor.aic_gather"), (lambda: pl.aiv_shard(A), "tile.aiv_shard"),
    (lambda: pl.mrgsort(A, block_len=4), "tile.mrgsort_format1"),
    (lambda: pl.mrgsort(A, B, tmp=A), "tile.mrgsort_format2"),
    (lambda: pl.scatter_update(A, tile("k", [2, 1], DT.INT32), tile("s", [2, 16])),
     "tile.scatter_update"),
    (lambda: pl.addc(A, B, A), "tile.addc"), (lambda: pl.subsc(A, 1.0, B), "tile.subsc"),
    (lambda: pl.gemv(tile("v", [1, 16]), B), "tile.gemv"),
    (lambda: pl.batch_matmul(A, B), "tile.batch_matmul"),
    (lambda: pl.tri(0, [4, 4]), "tile.tri"), (lambda: pl.sels(A, A, A, 0.0), "tile.sels"),
]


@pytest.mark.parametrize("index", range(len(ROUTES)))
def test_unified_functions_route_to_the_tile_and_system_ops(index):
    build, op_name = ROUTES[index]
    assert build().op.name == op_name


def test_unified_functions_of_one_namespace_are_its_wrappers():
    assert pl.addc is pl.tile.addc and pl.reserve_buffer is pl.system.reserve_buffer
    assert pl.tpop_from_aiv is pl.tile.tpop_from_aiv and pl.tfree_to_aiv is pl.system.tfree_to_aiv
    assert pl.dump_tag(X) is X  # a device dump tag: no op, the tensor itself


def test_unified_routes_refuse_what_the_path_lacks():
    with pytest.raises(TypeError, match=r"pl.xor on a Tile requires tmp \(a scratch Tile\)"):
        pl.xor(I, I)
    with pytest.raises(TypeError, match="pl.xor on a Tensor does not take tmp"):
        pl.xor(I32, I32, I32)
    with pytest.raises(TypeError, match="pl.mrgsort on Tensors does not take tmp"):
        pl.mrgsort(X, X, tmp=X)
    with pytest.raises(TypeError, match=r"merging two to four tiles needs tmp="):
        pl.tile.mrgsort(A, B)


# type rules: the message names the op and the problem
RULE_ERRORS = [
    (lambda: pl.tile.extract(A, 8, 8, [16, 16], target_memory=Mem.Left),
     r"tile.extract: window \[8, 24\) in dim 0 exceeds source dim 16"),
    (lambda: pl.tile.matmul_mx(A, tile("s", [16, 3], DT.FP8E8M0), B,
                               tile("t", [4, 16], DT.FP8E8M0)),
     r"tile.matmul_mx: scales \[16, 3\] and \[4, 16\] do not match"),
    (lambda: pl.tile.gather_mask(tile("o", [4, 6]), 3),
     r"tile.gather_mask: the last dim \(\[4, 6\]\) must be a static multiple of 4"),
    (lambda: pl.tile.gather_mask(A, 2, output_dtype=pl.INT16),
     r"output_dtype int16 must have the width of the source's fp32"),
    (lambda: pl.tile.gather(A, A, A), r"tile.gather: operand 'indices' must have an integer "
                                      r"dtype, got fp32"),
    (lambda: pl.tile.mscatter(A, tile("k", [4, 4], DT.INT32), X),
     r"tile.mscatter: operands 'src' \[16, 16\] and 'idx' \[4, 4\] must have the same shape"),
    (lambda: pl.tile.batch_matmul(tile("l", [2, 4, 8]), tile("r", [3, 8, 2])),
     r"tile.batch_matmul: shapes \[2\] \(lhs\) and \[3\] \(rhs\) are not broadcastable"),
    (lambda: pl.tile.matmul_bias(A, B, tile("c", [2, 16])),
     r"tile.matmul_bias: operand 'bias' must have shape \[1, N\] = \[1, 16\]"),
    (lambda: pl.tile.tri(0, [4]), r"tile.tri: shape must be 2-D, got \[4\]"),
    (lambda: pl.tile.set_validshape(A, 1.0, 2), r"operand 'valid_rows' must be an integer scalar"),
    (lambda: pl.tile.gather_mask(A, 9), r"keyword 'mask_pattern' must be one of 1, 2, 3, 4, 5, "
                                        r"6, 7; got 9"),
]


@pytest.mark.parametrize("index", range(len(RULE_ERRORS)))
def test_type_rule_messages(index):
    build, message = RULE_ERRORS[index]
    with pytest.raises((ValueError, TypeError), match=message):
        build()

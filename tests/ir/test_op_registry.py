"""The op registry: declarations, create_op_call validation, deduction rules, effects."""

from __future__ import annotations

import re

import pytest

from pypto import ir
from pypto.ir.ops import (ArgKind, Effect, KwargSpec, OpDef, ParamSpec, call_write_targets,
                          create_op_call, deduce_call_return_type, get_op, is_op_registered,
                          list_ops, register_op)
from pypto.ir.ops import deduce

FP32, FP16, INT32, INDEX, BOOL = (ir.DataType.FP32, ir.DataType.FP16, ir.DataType.INT32,
                                  ir.DataType.INDEX, ir.DataType.BOOL)
Mem = ir.Mem


def tensor(name, shape, dtype=FP32):
    return ir.Var(name, ir.TensorType(shape, dtype))


def tile(name, shape, dtype=FP32, mem=Mem.Vec):
    return ir.Var(name, ir.TileType(shape, dtype, memory_space=mem))


def scalar(name, dtype=INDEX):
    return ir.Var(name, ir.ScalarType(dtype))


def dims(t):
    """Static dims as ints; symbolic dims as the Expr objects themselves."""
    return [d.value if isinstance(d, ir.ConstInt) else d for d in t.shape]


def call(name, *args, span=None, attrs=None, **kwargs):
    return create_op_call(name, list(args), kwargs, span, attrs)


X = tensor("x", [64, 128])
TX = tile("tx", [16, 16])


# -- the op set ----------------------------------------------------------------------

# PyPTO's tensor.*, tile.* and system.* op sets (ops.md).
TENSOR_OPS = (
    "abs add adds aic_gather aiv_shard alloc and ands assemble cast ci cmp col_argmax "
    "col_argmin col_expand col_expand_add col_expand_div col_expand_expdif col_expand_max "
    "col_expand_min col_expand_mul col_expand_sub col_max col_min col_prod col_sum concat cos "
    "create create_l1 dim div divs exp expand_clone expands fillpad fillpad_expand fmod fmods "
    "full gather gather_compare gather_mask gather_row get_block_idx get_block_num "
    "get_subblock_idx log matmul matmul_acc maximum minimum mrgsort_format1 mrgsort_format2 mul "
    "muls neg not or ors paged_gather part_add part_max part_min part_mul random read recip "
    "reinterpret_view reshape row_argmax row_argmin row_expand row_expand_add row_expand_div "
    "row_expand_expdif row_expand_max row_expand_min row_expand_mul row_expand_sub row_max "
    "row_min row_prod row_sum rsqrt scatter scatter_mask scatter_update set_validshape shl shls "
    "shr shrs sin slice sort32 sqrt sub subs transpose view write xor xors").split()
TILE_OPS = (
    "abs add addc adds addsc aic_gather aiv_shard alloc and ands assemble batch_matmul "
    "batch_matmul_acc cast ci cmp cmps col_argmax col_argmin col_expand col_expand_add "
    "col_expand_div col_expand_expdif col_expand_max col_expand_min col_expand_mul "
    "col_expand_sub col_max col_min col_prod col_sum concat cos create div divs exp expands "
    "extract fillpad fillpad_expand fillpad_inplace fmod fmods full gather gather_compare "
    "gather_mask gather_row gatherb gemv gemv_acc gemv_bias get_block_idx get_block_num "
    "get_subblock_idx load log lrelu matmul matmul_acc matmul_bias matmul_mx matmul_mx_acc "
    "matmul_mx_bias maximum maximums mgather minimum minimums move mrgsort_format1 "
    "mrgsort_format2 mscatter mul muls neg not or ors part_add part_max part_min part_mul "
    "prelu random read recip reinterpret_view relu rem rems reshape row_argmax row_argmin "
    "row_expand row_expand_add row_expand_div row_expand_expdif row_expand_max row_expand_min "
    "row_expand_mul row_expand_sub row_max row_min row_prod row_sum rsqrt scatter scatter_mask "
    "scatter_update sel sels set_validshape shl shls shr shrs sin slice sort32 sqrt store sub "
    "subc subs subsc tget_scale_addr tpop_from_aic tpop_from_aiv tpush_to_aic tpush_to_aiv "
    "transpose transpose_view tri write xor xors").split()
SYSTEM_OPS = (
    "aic_initialize_pipe aiv_initialize_pipe available_aiv_count available_cluster_count "
    "bar_all bar_m bar_v cacheinvalid fence import_peer_buffer reserve_buffer set_ffts sync_dst "
    "sync_set sync_src sync_wait syncall task_dummy task_invalid task_is_valid tfree_to_aic "
    "tfree_to_aiv").split()
# PyPTO's pld.* op set (ops.md groups pld.system, pld.tensor, pld.tile: 23 ops).
DISTRIBUTED_OPS = (
    [f"pld.system.{n}" for n in "defer_wait get_comm_ctx notify nranks rank wait world_size".split()]
    + [f"pld.tensor.{n}" for n in ("all_to_all all_to_all_v allgather alloc_window_buffer "
                                   "allreduce barrier broadcast get put reduce_scatter "
                                   "remote_store window").split()]
    + [f"pld.tile.{n}" for n in "get put remote_load remote_store".split()])
assert len(DISTRIBUTED_OPS) == 23
# ops.md groups array and prefetch (3 and 4 ops).
ARRAY_PREFETCH_OPS = ([f"array.{n}" for n in "create get_element update_element".split()]
                      + [f"prefetch.{n}" for n in
                         "async_prefetch make_context session wait".split()])
# ops.md group test: the registry's own test entries.
TESTING_OPS = [f"test.{n}" for n in
               "op deduce_raises_internal deduce_raises_type tensor_op_no_conv".split()]
EXPECTED_OPS = sorted([f"tensor.{n}" for n in TENSOR_OPS] + [f"tile.{n}" for n in TILE_OPS]
                      + [f"system.{n}" for n in SYSTEM_OPS] + DISTRIBUTED_OPS
                      + ARRAY_PREFETCH_OPS + TESTING_OPS)
assert (len(TENSOR_OPS), len(TILE_OPS), len(SYSTEM_OPS)) == (105, 138, 22)  # ops.md's counts


def test_every_op_of_the_table_is_registered_and_nothing_else():
    assert list_ops() == EXPECTED_OPS
    for name in EXPECTED_OPS:
        op = get_op(name)
        assert isinstance(op, OpDef) and isinstance(op, ir.Op)
        assert op.name == name and is_op_registered(name)


def test_unknown_op_is_a_value_error_naming_it():
    assert not is_op_registered("tensor.nope")
    with pytest.raises(ValueError, match=r"Unknown op 'tensor\.ad'.*did you mean .*'tensor\.add'"):
        get_op("tensor.ad")
    with pytest.raises(ValueError, match="Unknown op 'tensor.nope'"):
        create_op_call("tensor.nope", [X])
    with pytest.raises(TypeError, match="get_op expects an op name"):
        get_op(3)


def test_call_holds_the_registered_op_and_deduced_type():
    result = call("tensor.add", X, X)
    assert result.op is get_op("tensor.add")
    assert result.args == (X, X)
    assert result.type == ir.TensorType([64, 128], FP32)


def test_compute_flag_marks_arithmetic_tensor_ops_only():
    assert get_op("tensor.add").compute and get_op("tensor.matmul").compute
    assert get_op("tensor.exp").compute and get_op("tensor.row_sum").compute
    for name in ("tensor.create", "tensor.slice", "tensor.assemble", "tensor.read",
                 "tensor.dim", "tile.add", "tile.load"):
        assert not get_op(name).compute, name


def test_register_op_rejects_duplicates_and_bad_declarations():
    with pytest.raises(ValueError, match="Op 'tensor.add' is already registered"):
        register_op(OpDef("tensor.add", [], deduce.same_as_first))
    with pytest.raises(ValueError, match="required operand 'b' follows an optional one"):
        OpDef("test.bad", [ParamSpec("a", ArgKind.Tensor, optional=True),
                           ParamSpec("b", ArgKind.Tensor)], deduce.same_as_first)
    with pytest.raises(ValueError, match="must be qualified"):
        OpDef("add", [], deduce.same_as_first)
    with pytest.raises(ValueError, match="depends on unknown attribute 'atomic'"):
        OpDef("test.bad", [ParamSpec("a", ArgKind.Tensor, Effect.Write, read_write_if="atomic")],
              deduce.same_as_first)


# -- argument validation -------------------------------------------------------------

def test_operand_kind_errors_name_op_operand_position_and_type():
    cases = [
        ("tensor.add", [X, TX], "operand 'rhs' (position 1) must be a Tensor", TX),
        ("tile.add", [X, TX], "operand 'lhs' (position 0) must be a Tile", X),
        ("tensor.adds", [X, X], "operand 'rhs' (position 1) must be a Scalar", X),
    ]
    for name, args, fragment, bad in cases:
        with pytest.raises(ValueError) as info:
            create_op_call(name, args)
        assert str(info.value) == f"{name}: {fragment}, got {bad.type}"
    with pytest.raises(ValueError, match=re.escape(
            "tile.load: operand 'offsets' (position 1) must be a tuple of integer scalars")):
        call("tile.load", X, X, [8, 8])
    with pytest.raises(ValueError, match="operand 'shapes' .* integer scalars"):
        call("tile.load", X, [0, 0], [8.0, 8.0])


def test_argument_count_and_unconvertible_operands_are_type_errors():
    with pytest.raises(TypeError, match=re.escape(
            "tensor.add takes 2 positional argument(s) (lhs, rhs), got 1")):
        call("tensor.add", X)
    with pytest.raises(TypeError, match=re.escape("tile.load takes 3 to 4 positional")):
        call("tile.load", X, [0, 0])
    with pytest.raises(TypeError) as info:
        call("tensor.add", X, "y")
    assert str(info.value) == ("tensor.add: operand 'rhs' (position 1) must be an IR expression, "
                               "int, float, bool or list: Cannot convert str value 'y' to an IR "
                               "expression")
    with pytest.raises(TypeError, match="cannot use MemorySpace.Vec as an operand"):
        call("tensor.adds", X, Mem.Vec)


def test_python_values_become_index_fp32_bool_constants_and_tuples():
    result = call("tile.load", X, [0, 64], [8, 8])
    offsets = result.args[1]
    assert isinstance(offsets, ir.MakeTuple)
    assert all(isinstance(e, ir.ConstInt) and e.dtype is INDEX for e in offsets.elements)
    assert [e.value for e in offsets.elements] == [0, 64]
    muls = call("tensor.muls", X, 2.5)
    assert isinstance(muls.args[1], ir.ConstFloat) and muls.args[1].dtype is FP32
    full = call("tensor.full", [4], True, dtype=BOOL)
    assert isinstance(full.args[1], ir.ConstBool)


def test_kwargs_are_canonical_defaults_included_in_declaration_order():
    assert call("tensor.matmul", X, tensor("w", [128, 32])).kwargs == \
        {"a_trans": False, "b_trans": False, "c_matrix_nz": False}
    result = call("tensor.matmul", X, tensor("w", [128, 32]), b_trans=False, out_dtype=FP16)
    assert list(result.kwargs) == ["out_dtype", "a_trans", "b_trans", "c_matrix_nz"]
    assert list(call("tensor.cast", X, mode="floor", target_type=FP16).kwargs) == \
        ["target_type", "mode"]
    assert call("tensor.exp", X).kwargs == {}  # PyPTO's exp has no high_precision
    assert call("tensor.log", X).kwargs == {"high_precision": False}
    # hidden attributes (PyPTO's wrappers set them) are always there, never given
    assert call("tensor.row_sum", X).kwargs == {"keep_dim": True, "axis": -1}
    assert call("tensor.add", X, X).kwargs == {}
    implicit = call("tile.load", X, [0, 0], [8, 8])
    explicit = call("tile.load", X, [0, 0], [8, 8], target_memory=Mem.Vec)
    ir.assert_structural_equal(implicit, explicit)


def test_kwarg_values_are_coerced_to_their_canonical_form():
    assert call("tile.load", X, [0, 0], [8, 8], target_memory=2).kwargs["target_memory"] \
        is Mem.Mat
    assert call("tensor.matmul", X, tensor("w", [128, 4]), a_trans=ir.ConstBool(False)) \
        .kwargs["a_trans"] is False
    assert call("tile.store", TX, [0, 0], X).kwargs["atomic"] is ir.AtomicType.None_


def test_keyword_errors():
    w = tensor("w", [128, 4])
    with pytest.raises(TypeError, match=r"tensor.matmul: unexpected keyword argument 'bias' "
                                        r"\(valid keywords: out_dtype, a_trans, b_trans, "
                                        r"c_matrix_nz\)"):
        call("tensor.matmul", X, w, bias=1)
    with pytest.raises(TypeError, match="tensor.matmul: keyword 'a_trans' expects bool, got int 1"):
        call("tensor.matmul", X, w, a_trans=1)
    with pytest.raises(TypeError, match="tensor.cast: keyword 'target_type' expects DataType"):
        call("tensor.cast", X, target_type="fp16")
    with pytest.raises(TypeError, match="tensor.cast: missing required keyword argument "
                                        "'target_type'"):
        call("tensor.cast", X)
    with pytest.raises(TypeError, match="tile.store: keyword 'atomic' expects AtomicType"):
        call("tile.store", TX, [0, 0], X, atomic=True)
    with pytest.raises(ValueError, match="tensor.cast: keyword 'mode' must be one of 'none', "
                                         "'rint', 'round'.*got 'nearest'"):
        call("tensor.cast", X, target_type=FP16, mode="nearest")
    with pytest.raises(ValueError, match="keyword 'cmp_type' must be one of 0, 1, 2, 3, 4, 5"):
        call("tensor.cmp", X, X, cmp_type=9)


def test_span_and_attrs_are_kept():
    span = ir.Span("k.py", 3, 5)
    result = call("tensor.add", X, X, span=span, attrs={"dump_vars": [X]})
    assert result.span is span
    assert result.attrs == {"dump_vars": [X]}
    assert result.args[0] is X


# -- deduction rules -----------------------------------------------------------------

def test_elementwise_broadcasts_static_dims():
    assert dims(call("tensor.add", tensor("a", [64, 1]), tensor("b", [1, 128])).type) == [64, 128]
    assert dims(call("tensor.mul", tensor("a", [4, 64, 128]), tensor("b", [128])).type) == \
        [4, 64, 128]
    with pytest.raises(ValueError) as info:
        call("tensor.sub", tensor("a", [64, 128]), tensor("b", [64, 64]))
    assert str(info.value) == ("tensor.sub: shapes [64, 128] (lhs) and [64, 64] (rhs) are not "
                               "broadcastable: dim 1 is 128 vs 64")


def test_elementwise_broadcast_with_symbolic_dims():
    m, n = scalar("M"), scalar("N")
    result = call("tensor.add", tensor("a", [m, 128]), tensor("b", [m, 1]))
    assert result.type.shape[0] is m and dims(result.type)[1] == 128
    assert call("tensor.add", tensor("a", [1, 8]), tensor("b", [m, 8])).type.shape[0] is m
    twice = call("tensor.add", tensor("a", [m * 2]), tensor("b", [m * 2])).type
    assert isinstance(twice.shape[0], ir.Mul)
    with pytest.raises(ValueError, match=r"\[M, 8\] \(lhs\) and \[N, 8\] \(rhs\) are not "
                                         r"broadcastable: dim 0 is M vs N"):
        call("tensor.add", tensor("a", [m, 8]), tensor("b", [n, 8]))
    with pytest.raises(ValueError, match="dim 0 is M vs 8"):
        call("tensor.add", tensor("a", [m, 8]), tensor("b", [8, 8]))


def test_elementwise_dtype_and_memory_space_rules():
    with pytest.raises(ValueError, match=r"tensor.add: operands 'lhs' and 'rhs' have different "
                                         r"dtypes \(fp32 vs fp16\)"):
        call("tensor.add", X, tensor("h", [64, 128], FP16))
    result = call("tile.add", tile("a", [16, 1], mem=Mem.Mat), tile("b", [16, 16]))
    assert result.type == ir.TileType([16, 16], FP32, memory_space=Mem.Mat)
    assert call("tile.muls", TX, 2.0).type is TX.type
    ints = tile("i", [16, 16], INT32)
    assert call("tile.and", ints, ints).type == ints.type
    with pytest.raises(ValueError, match="tile.or: bitwise ops need integer or bool operands, "
                                         "got fp32"):
        call("tile.or", TX, TX)


def test_compare_and_cast_change_only_the_dtype():
    # PyPTO's tensor.cmp keeps the operands' dtype (1/0); the tile compares give BOOL
    assert call("tensor.cmp", X, X, cmp_type=2).type == ir.TensorType([64, 128], FP32)
    assert call("tile.cmps", TX, 0.0).type == ir.TileType([16, 16], BOOL, memory_space=Mem.Vec)
    assert call("tensor.cast", X, target_type=FP16).type == ir.TensorType([64, 128], FP16)
    assert call("tile.cast", TX, target_type=INT32).type == \
        ir.TileType([16, 16], INT32, memory_space=Mem.Vec)


def test_matmul_shapes_transposes_and_dtypes():
    a, b = tensor("a", [64, 32]), tensor("b", [32, 16])
    assert call("tensor.matmul", a, b).type == ir.TensorType([64, 16], FP32)
    a_t, b_t = tensor("at", [32, 64]), tensor("bt", [16, 32])
    assert dims(call("tensor.matmul", a_t, b, a_trans=True).type) == [64, 16]
    assert dims(call("tensor.matmul", a, b_t, b_trans=True).type) == [64, 16]
    assert dims(call("tensor.matmul", a_t, b_t, a_trans=True, b_trans=True).type) == [64, 16]
    assert call("tensor.matmul", a, b, out_dtype=FP16).type.dtype is FP16
    with pytest.raises(ValueError, match=r"tensor.matmul: inner dims differ: lhs \[64, 32\] "
                                         r"gives K = 32, rhs \[16, 32\] gives K = 16"):
        call("tensor.matmul", a, b_t)
    with pytest.raises(ValueError, match=r"operand 'lhs' must be 2-D, got shape \[4, 64, 32\]"):
        call("tensor.matmul", tensor("a3", [4, 64, 32]), b)
    tiled = call("tile.matmul", tile("l", [16, 8], FP16, Mem.Left),
                 tile("r", [8, 32], FP16, Mem.Right))
    # half-precision products accumulate into FP32, as PyPTO's matmul does
    assert tiled.type == ir.TileType([16, 32], FP32, memory_space=Mem.Acc)
    assert call("tensor.matmul", tensor("h", [4, 8], FP16), tensor("g", [8, 2], FP16)).type == \
        ir.TensorType([4, 2], FP32)
    assert call("tensor.matmul", tensor("h", [4, 8], ir.DataType.BF16),
                tensor("g", [8, 2], ir.DataType.BF16), out_dtype=FP16).type.dtype is FP16
    acc = tile("acc", [16, 32], mem=Mem.Acc)
    result = call("tile.matmul_acc", acc, tile("l", [16, 8], mem=Mem.Left),
                  tile("r", [8, 32], mem=Mem.Right))
    assert result.type is acc.type
    with pytest.raises(ValueError, match=r"operand 'acc' must have shape \[M, N\] = \[16, 8\]"):
        call("tensor.matmul_acc", tensor("c", [16, 32]), tensor("l", [16, 8]),
             tensor("r", [8, 8]))


def test_reductions_and_row_column_broadcasts():
    assert dims(call("tensor.row_sum", tensor("a", [4, 64, 128])).type) == [4, 64, 1]
    assert dims(call("tensor.col_max", X).type) == [1, 128]
    tmp = tile("tmp", [16, 16])
    assert call("tile.row_max", TX, tmp).type == ir.TileType([16, 1], FP32, memory_space=Mem.Vec)
    with pytest.raises(ValueError, match="operands 'x' and 'tmp_tile' have different dtypes"):
        call("tile.row_sum", TX, tile("t16", [16, 16], FP16))
    with pytest.raises(ValueError, match=r"operand 'x' must have rank >= 2, got shape \[64\]"):
        call("tensor.row_min", tensor("v", [64]))
    assert call("tensor.row_expand_mul", X, tensor("r", [64, 1])).type is X.type
    assert call("tile.col_expand_add", TX, tile("c", [1, 16])).type is TX.type
    with pytest.raises(ValueError, match=r"operand 'vec' must have shape \[\.\.\., M, 1\] = "
                                         r"\[64, 1\], got \[1, 128\]"):
        call("tensor.row_expand", X, tensor("c", [1, 128]))


def test_expands_and_select():
    assert call("tensor.expands", X, 1.0).type is X.type
    mask = tile("m", [16, 16], BOOL)
    assert call("tile.sel", mask, TX, tile("b", [16, 16]), tile("t", [16, 16])).type is TX.type
    with pytest.raises(ValueError, match="operands 'lhs' and 'rhs' have different dtypes"):
        call("tile.sel", mask, TX, tile("b", [16, 16], FP16), tile("t", [16, 16]))


def test_creation_ops():
    assert call("tensor.create", [8, 16], dtype=FP16).type == ir.TensorType([8, 16], FP16)
    assert call("tensor.full", [8], 0.0, dtype=FP32).type == ir.TensorType([8], FP32)
    assert call("tile.create", [8, 16], dtype=FP32, target_memory=Mem.Mat).type == \
        ir.TileType([8, 16], FP32, memory_space=Mem.Mat)
    with pytest.raises(ValueError, match=r"tensor.create: shape\[1\] must be positive, got 0"):
        call("tensor.create", [8, 0], dtype=FP32)
    with pytest.raises(ValueError, match="keyword 'target_memory' must be one of"):
        call("tile.create", [8], dtype=FP32, target_memory=Mem.DDR)


def test_load_store_move():
    m = scalar("M")
    src = tensor("src", [m, 128], FP16)
    loaded = call("tile.load", src, [0, 0], [16, 32], target_memory=Mem.Mat)
    assert loaded.type == ir.TileType([16, 32], FP16, memory_space=Mem.Mat)
    assert call("tile.load", src, [0, 0], [16, 32]).type.memory_space is Mem.Vec
    assert len(call("tile.load", src, [0, 0], [16, 32], [16, 20]).args) == 4
    for bad in (Mem.Acc, Mem.Left, Mem.DDR):
        with pytest.raises(ValueError, match=f"must be one of MemorySpace.Vec, MemorySpace.Mat; "
                                             f"got MemorySpace.{bad.name}"):
            call("tile.load", src, [0, 0], [16, 32], target_memory=bad)
    with pytest.raises(ValueError, match="offsets has 1 item\\(s\\) but the tensor has rank 2"):
        call("tile.load", src, [0], [16, 32])
    with pytest.raises(ValueError, match=r"window \[100, 132\) in dim 1 exceeds tensor dim 128"):
        call("tile.load", src, [0, 100], [16, 32])
    stored = call("tile.store", TX, [0, 0], X)
    assert stored.type is X.type
    with pytest.raises(ValueError, match="operands 'tile' and 'output_tensor' have different"):
        call("tile.store", TX, [0, 0], tensor("h", [64, 128], FP16))
    moved = call("tile.move", TX, target_memory=Mem.Left)
    assert moved.type == ir.TileType([16, 16], FP32, memory_space=Mem.Left)
    with pytest.raises(TypeError, match="missing required keyword argument 'target_memory'"):
        call("tile.move", TX)


def test_slice_drops_dims():
    assert dims(call("tensor.slice", X, [8, 16], [0, 32]).type) == [8, 16]
    # drop_dims is slice's fifth operand; an omitted valid_shape before it becomes []
    dropped = call("tensor.slice", X, [1, 16], [3, 0], None, [0])
    assert dims(dropped.type) == [16] and dropped.args[3].elements == ()
    assert dims(call("tensor.slice", X, [8, 1], [0, 5], [], [-1]).type) == [8]
    sliced = call("tile.slice", tile("t", [16, 16], mem=Mem.Mat), [4, 4], [0, 0])
    assert sliced.type == ir.TileType([4, 4], FP32, memory_space=Mem.Mat)
    with pytest.raises(ValueError, match="drop_dims axis 1 has size 16; only size-1 dims"):
        call("tensor.slice", X, [1, 16], [0, 0], None, [1])
    with pytest.raises(ValueError, match="drop_dims drops every dim"):
        call("tensor.slice", X, [1, 1], [0, 0], None, [0, 1])
    with pytest.raises(ValueError, match="drop_dims axis 2 is out of range for rank 2"):
        call("tensor.slice", X, [1, 1], [0, 0], None, [2])


def test_assemble_reshape_transpose():
    assert call("tensor.assemble", X, tensor("p", [8, 128]), [8, 0]).type is X.type
    with pytest.raises(ValueError, match=r"window \[60, 68\) in dim 0 exceeds target dim 64"):
        call("tensor.assemble", X, tensor("p", [8, 128]), [60, 0])
    assert dims(call("tensor.reshape", X, [128, 64]).type) == [128, 64]
    assert call("tile.reshape", TX, [256]).type == ir.TileType([256], FP32, memory_space=Mem.Vec)
    with pytest.raises(ValueError) as info:
        call("tensor.reshape", X, [64, 64])
    assert str(info.value) == ("tensor.reshape: cannot reshape [64, 128] (8192 elements) to "
                               "[64, 64] (4096 elements)")
    m = scalar("M")
    assert call("tensor.reshape", tensor("d", [m, 4]), [m, 2, 2]).type.shape[0] is m
    assert dims(call("tensor.transpose", X, 0, 1).type) == [128, 64]
    assert dims(call("tensor.transpose", tensor("t3", [2, 3, 4]), -1, 0).type) == [4, 3, 2]
    with pytest.raises(ValueError, match="axis1 must be a constant integer, got M"):
        call("tensor.transpose", X, m, 1)


def test_read_write_dim_and_index_ops():
    i = scalar("i")
    assert call("tensor.read", X, [i, 3]).type == ir.ScalarType(FP32)
    assert call("tile.read", tile("t", [4], INT32), [0]).type == ir.ScalarType(INT32)
    with pytest.raises(ValueError, match=r"window \[64, 65\) in dim 0 exceeds source dim 64"):
        call("tensor.read", X, [64, 0])
    assert call("tensor.write", X, [0, 0], 1.0).type is X.type
    assert call("tensor.dim", X, 1).type == ir.ScalarType(INDEX)
    with pytest.raises(ValueError, match="tensor.dim: axis 2 is out of range for rank 2"):
        call("tensor.dim", X, 2)
    for name in ("tile.get_block_idx", "tile.get_block_num", "tile.get_subblock_idx"):
        assert call(name).type == ir.ScalarType(INDEX)
    assert call("system.task_invalid").type == ir.ScalarType(ir.DataType.TASK_ID)


# -- effects and write targets -------------------------------------------------------

def _effects(name, **kwargs):
    op = get_op(name)
    return [op.arg_effect(i, kwargs) for i in range(len(op.params))]


def test_declared_effects():
    r, w, rw = Effect.Read, Effect.Write, Effect.ReadWrite
    assert _effects("tile.store") == [r, r, w, r]
    assert _effects("tile.store", atomic=ir.AtomicType.Add) == [r, r, rw, r]
    assert _effects("tile.store", atomic=ir.AtomicType.None_) == [r, r, w, r]
    assert _effects("tensor.assemble") == [w, r, r]
    assert _effects("tensor.assemble", atomic=ir.AtomicType.Add) == [rw, r, r]
    assert _effects("tile.assemble") == [w, r, r]  # PyPTO's tile.assemble has no atomic
    assert _effects("tensor.write") == [w, r, r] and _effects("tile.write") == [w, r, r]
    written = {name for name in list_ops()
               if any(p.effect is not Effect.Read for p in get_op(name).params)}
    local = {name for name in written if not name.startswith("pld.")}
    assert local == {"tile.store", "tensor.assemble", "tile.assemble", "tensor.write",
                     "tile.write", "tile.fillpad_inplace", "tile.mscatter",
                     "array.update_element"}
    assert _effects("tile.fillpad_inplace") == [rw]
    assert _effects("array.update_element") == [rw, r, r]  # the array is updated in place
    assert _effects("tile.mscatter") == [r, r, w]
    # Distributed ops write windows (possibly a peer's: ReadWrite) or a local destination.
    assert written - local == {f"pld.{name}" for name in (
        "system.notify", "tensor.put", "tensor.get", "tensor.remote_store", "tensor.allreduce",
        "tensor.reduce_scatter", "tensor.broadcast", "tensor.allgather", "tensor.all_to_all",
        "tensor.all_to_all_v", "tensor.barrier", "tile.remote_store", "tile.put", "tile.get")}
    assert _effects("pld.tensor.put")[:3] == [rw, r, r]
    assert _effects("pld.tensor.get")[:3] == [w, r, r]


def test_call_write_targets_asks_only_the_writable_operands():
    # ``OpDef.written`` (the operands an op can write) stands in for asking every operand:
    # on a call of every registered op with a Var per operand, atomic or not, the answer
    # is the one asking every operand gives.
    for name in list_ops():
        op = get_op(name)
        for kwargs in ({}, {"atomic": ir.AtomicType.Add}):
            args = [ir.Var(f"a{i}", TX.type, ir.Span.unknown()) for i in range(len(op.params))]
            site = ir.Call(op, args, kwargs, {}, ir.UnknownType.get(), ir.Span.unknown())
            every = [(arg, i, op.arg_effect(i, kwargs)) for i, arg in enumerate(args)
                     if op.arg_effect(i, kwargs) is not Effect.Read]
            assert call_write_targets(site) == every, name
            short = ir.Call(op, args[:1], kwargs, {}, ir.UnknownType.get(), ir.Span.unknown())
            assert call_write_targets(short) == [w for w in every if w[1] == 0], name


def test_call_write_targets_for_registered_ops():
    assert call_write_targets(call("tile.store", TX, [0, 0], X)) == [(X, 2, Effect.Write)]
    atomic = call("tile.store", TX, [0, 0], X, atomic=ir.AtomicType.Add)
    assert call_write_targets(atomic) == [(X, 2, Effect.ReadWrite)]
    src = tensor("src", [8, 128])
    assert call_write_targets(call("tensor.assemble", X, src, [0, 0])) == [(X, 0, Effect.Write)]
    assert call_write_targets(call("tensor.write", X, [0, 0], 1.0)) == [(X, 0, Effect.Write)]
    assert call_write_targets(call("tensor.add", X, X)) == []
    nested = call("tensor.assemble", call("tensor.create", [64, 128], dtype=FP32), src, [0, 0])
    assert call_write_targets(nested) == []  # the target is not a Var
    with pytest.raises(TypeError, match="expects an ir.Call or ir.Submit, got Var"):
        call_write_targets(X)


def _program_with_kernel():
    a = tensor("a", [8])
    out = tensor("out", [8])
    acc = tensor("acc", [8])
    kernel = ir.Function("kernel", [a, (out, ir.ParamDirection.Out),
                                    (acc, ir.ParamDirection.InOut)],
                         [a.type], ir.ReturnStmt([out]), type=ir.FunctionType.InCore)
    return ir.Program([kernel], "P"), a.type


def test_call_write_targets_for_user_function_calls_and_submits():
    program, t = _program_with_kernel()
    x, y, z = (ir.Var(n, t) for n in "xyz")
    gv = program.get_global_var("kernel")
    user_call = ir.Call(gv, [x, y, z], t)
    assert call_write_targets(user_call, program) == [(y, 1, Effect.Write),
                                                      (z, 2, Effect.ReadWrite)]
    assert call_write_targets(user_call) == []  # without the program nothing is known
    assert call_write_targets(ir.Call(ir.GlobalVar("missing"), [x], t), program) == []
    submit = ir.Submit(gv, [x, y], [], ir.TupleType([t, ir.ScalarType(ir.DataType.TASK_ID)]))
    assert call_write_targets(submit, program) == [(y, 1, Effect.Write)]


# -- deduce_call_return_type ---------------------------------------------------------

def test_return_type_substitutes_dynamic_dims_from_arguments():
    m, n = scalar("M"), scalar("N")
    a = tensor("a", [m, 16])
    b = tensor("b", [n])
    returns = [ir.TensorType([m, 16], FP32), ir.TensorType([m * 2, n], FP16)]
    x = tensor("x", [8, 16])
    k = scalar("K")
    result = deduce_call_return_type([a, (b, ir.ParamDirection.Out)], [x, tensor("y", [k])],
                                     returns)
    assert isinstance(result, ir.TupleType)
    first, second = result.types
    assert first == ir.TensorType([8, 16], FP32)
    assert dims(second)[0] == 16 and second.shape[1] is k  # M * 2 folded to 16
    single = deduce_call_return_type([a], [x], [ir.TensorType([m], FP32)])
    assert single == ir.TensorType([8], FP32)
    assert deduce_call_return_type([a], [x], []) == ir.TupleType([])


def test_return_type_uses_scalar_params_and_keeps_unbound_dims():
    count = scalar("count")
    m = scalar("M")
    returned = deduce_call_return_type([count], [ir.ConstInt(5, INDEX)],
                                       [ir.TileType([count, m], FP32, memory_space=Mem.Vec)])
    assert dims(returned)[0] == 5 and returned.shape[1] is m
    assert returned.memory_space is Mem.Vec
    with pytest.raises(ValueError, match="the callee takes 1 argument\\(s\\), got 2"):
        deduce_call_return_type([count], [count, count], [])


def test_pyptos_three_argument_form_takes_the_span_third():
    x = ir.Var("x", ir.TensorType([4], ir.DataType.FP32))
    where = ir.Span("user.py", 7, 3)
    call = create_op_call("tensor.add", [x, x], where)
    assert call.span == where
    assert call.kwargs == {}
    with_kwargs = create_op_call("tensor.cast", [x], {"target_type": ir.DataType.FP16}, where)
    assert with_kwargs.span == where and str(with_kwargs.type.dtype) == str(ir.DataType.FP16)

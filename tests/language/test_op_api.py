"""The ``pl`` op surface: unified functions, dispatch, namespaces."""

from __future__ import annotations

import inspect

import pytest

from pypto import ir
from pypto.ir.ops import create_op_call
from pypto.language import op as pl

FP32, FP16, INT32, INDEX = ir.DataType.FP32, ir.DataType.FP16, ir.DataType.INT32, ir.DataType.INDEX
Mem = ir.Mem


def tensor(name, shape, dtype=FP32):
    return ir.Var(name, ir.TensorType(shape, dtype))


def tile(name, shape, dtype=FP32, mem=Mem.Vec):
    return ir.Var(name, ir.TileType(shape, dtype, memory_space=mem))


def scalar(name, dtype=INDEX):
    return ir.Var(name, ir.ScalarType(dtype))


X, Y = tensor("x", [64, 128]), tensor("y", [64, 128])
A, B = tile("a", [16, 16]), tile("b", [16, 16])
S, T = scalar("s", FP32), scalar("t", FP32)

# PyPTO's unified functions that route to ops pypto registers (a subset of pl.* there).
UNIFIED_NAMES = (
    "add sub mul div maximum minimum maximums minimums and_ ands or_ ors xor xors shl shls shr "
    "shrs fmod fmods part_add part_max part_min part_mul exp log sqrt rsqrt recip neg abs relu "
    "sin cos not_ cast matmul matmul_acc row_sum row_max row_min row_prod row_argmax row_argmin "
    "col_sum col_max col_min col_prod col_argmax col_argmin row_expand row_expand_add "
    "row_expand_sub row_expand_mul row_expand_div row_expand_max row_expand_min "
    "row_expand_expdif col_expand col_expand_add col_expand_sub col_expand_mul col_expand_div "
    "col_expand_max col_expand_min col_expand_expdif expands cmp cmps sel create_tensor "
    "create_tile create_l1 full arange load store move slice assemble reshape transpose read "
    "write dim concat fillpad fillpad_expand expand_clone gather gather_row scatter "
    "scatter_update sort32 mrgsort reinterpret_view set_validshape paged_gather random "
    "aic_gather aiv_shard min max get_block_idx get_block_num get_subblock_idx "
    # the tile- or system-only ones
    "addc addsc subc subsc lrelu prelu rem rems sels tri batch_matmul matmul_bias gemv "
    "gemv_acc gemv_bias matmul_mx matmul_mx_acc matmul_mx_bias gatherb mgather mscatter "
    "tpush_to_aiv tpush_to_aic tpop_from_aic tpop_from_aiv tfree_to_aic tfree_to_aiv "
    "aic_initialize_pipe aiv_initialize_pipe reserve_buffer import_peer_buffer dump_tag no_dep").split()


def same(lhs, rhs):
    ir.assert_structural_equal(lhs, rhs)


# -- the table -----------------------------------------------------------------------

def test_unified_ops_table_lists_every_function():
    assert sorted(pl.UNIFIED_OPS) == sorted(UNIFIED_NAMES)
    for name, fn in pl.UNIFIED_OPS.items():
        assert fn is getattr(pl, name)
        params = inspect.signature(fn).parameters
        assert params["span"].default is None if "span" in params else "kwargs" in params
    assert set(pl.__all__) == set(UNIFIED_NAMES) | {"UNIFIED_OPS", "tensor", "tile", "system",
                                                    "array", "prefetch"}


def test_signatures_follow_the_table():
    def positional(fn):
        return [p.name for p in inspect.signature(fn).parameters.values()
                if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    # PyPTO's parameter names and order
    assert positional(pl.load) == ["tensor", "offsets", "shapes", "valid_shape", "target_memory",
                                   "clamp"]
    assert positional(pl.store) == ["tile", "offsets", "output_tensor", "shapes"]
    assert positional(pl.matmul) == ["lhs", "rhs", "out_dtype", "a_trans", "b_trans",
                                     "c_matrix_nz"]
    assert positional(pl.slice) == ["input", "shape", "offset", "valid_shape", "drop_dims",
                                    "pad_value", "clamp"]
    assert positional(pl.cast) == ["input", "target_type", "mode"]
    assert positional(pl.div) == ["lhs", "rhs", "high_precision"]
    assert positional(pl.exp) == ["input"]  # no high_precision: PyPTO's exp has none
    assert positional(pl.rsqrt) == ["input", "high_precision"]


# -- elementwise dispatch ------------------------------------------------------------

def test_binary_dispatch_by_operand_kind():
    assert pl.add(X, Y).op.name == "tensor.add"
    assert pl.add(A, B).op.name == "tile.add"
    assert pl.add(X, 2.0).op.name == "tensor.adds"
    assert pl.mul(A, S).op.name == "tile.muls"
    assert pl.maximum(X, Y).op.name == "tensor.maximum"
    assert pl.minimum(A, 0.0).op.name == "tile.minimums"
    same(pl.sub(X, 1.0), create_op_call("tensor.subs", [X, 1.0]))
    same(pl.div(A, B, high_precision=True),
         create_op_call("tile.div", [A, B], {"high_precision": True}))


def test_scalar_first_operand_swaps_only_for_commutative_ops():
    same(pl.add(2.0, X), create_op_call("tensor.adds", [X, 2.0]))
    same(pl.mul(S, A), create_op_call("tile.muls", [A, S]))
    for fn in (pl.sub, pl.div):
        with pytest.raises(TypeError, match=f"pl.{fn.__name__}: 'lhs' must be a Tensor or Tile "
                                            "when 'rhs' is one"):
            fn(1.0, X)


def test_all_scalar_operands_build_scalar_ir():
    same(pl.add(S, T), ir.add(S, T))
    same(pl.sub(S, 1.0), ir.sub(S, 1.0))
    same(pl.div(S, T), ir.truediv(S, T))
    assert isinstance(pl.maximum(S, T), ir.Max) and isinstance(pl.minimum(S, T), ir.Min)
    assert isinstance(pl.neg(S), ir.Neg) and isinstance(pl.abs(S), ir.Abs)
    same(pl.cast(S, INT32), ir.cast(S, INT32))
    i = scalar("i")
    same(pl.min(i, 4), ir.min_(i, 4))
    same(pl.max(i, 4), ir.max_(i, 4))
    with pytest.raises(TypeError, match="pl.div: 'high_precision' is not supported for scalar"):
        pl.div(S, T, high_precision=True)
    with pytest.raises(TypeError, match="pl.cast: 'mode' is not supported for scalar operands"):
        pl.cast(S, INT32, mode="floor")
    with pytest.raises(TypeError, match="pl.exp: 'input' must be a Tensor or Tile"):
        pl.exp(S)
    with pytest.raises(TypeError, match="pl.cmp: 'lhs' must be a Tensor or Tile"):
        pl.cmp(S, T)


def test_min_max_reject_shaped_operands():
    with pytest.raises(TypeError, match="pl.min takes scalars .*use pl.minimum"):
        pl.min(X, 1.0)
    with pytest.raises(TypeError, match="pl.max takes scalars .*use pl.maximum"):
        pl.max(1.0, A)


def test_unary_ops_and_paths_without_an_op():
    same(pl.exp(X), create_op_call("tensor.exp", [X]))
    same(pl.rsqrt(X, high_precision=True),
         create_op_call("tensor.rsqrt", [X], {"high_precision": True}))
    same(pl.log(A, True), create_op_call("tile.log", [A], {"high_precision": True}))
    with pytest.raises(TypeError, match="pl.rsqrt: 'high_precision' is not supported for tile"):
        pl.rsqrt(A, high_precision=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'high_precision'"):
        pl.sqrt(A, high_precision=True)
    assert pl.relu(A).op.name == "tile.relu"
    with pytest.raises(TypeError, match=r"pl.relu has no tensor form; it takes a Tile"):
        pl.relu(X)
    with pytest.raises(ValueError, match=r"tensor.dim: operand 'tensor' \(position 0\) must be "
                                         "a Tensor"):
        pl.dim(A, 0)
    with pytest.raises(TypeError, match="pl.sel has no tensor form"):
        pl.sel(X, X, X, X)
    with pytest.raises(TypeError, match="pl.exp: 'input' must be a Tensor or Tile, got str 'x'"):
        pl.exp("x")


def test_cast_and_compare():
    same(pl.cast(X, FP16), create_op_call("tensor.cast", [X], {"target_type": FP16}))
    same(pl.cast(A, FP16, mode="floor"),
         create_op_call("tile.cast", [A], {"target_type": FP16, "mode": "floor"}))
    same(pl.cmp(X, Y, cmp_type=3), create_op_call("tensor.cmp", [X, Y], {"cmp_type": 3}))
    same(pl.cmp(A, 0.0), create_op_call("tile.cmps", [A, 0.0]))
    same(pl.cmps(A, S, 1), create_op_call("tile.cmps", [A, S], {"cmp_type": 1}))
    with pytest.raises(TypeError, match="pl.cmps has no tensor form"):  # as in PyPTO
        pl.cmps(X, S)


def test_deduction_failures_stay_value_errors():
    with pytest.raises(ValueError, match="tensor.add: shapes .* are not broadcastable"):
        pl.add(X, tensor("z", [64, 64]))
    with pytest.raises(ValueError, match="tensor.add: operand 'rhs' .* must be a Tensor"):
        pl.add(X, A)


# -- matmul and reductions: wrong-path keywords --------------------------------------

def test_matmul_paths():
    w = tensor("w", [32, 128])
    same(pl.matmul(X, w, b_trans=True),
         create_op_call("tensor.matmul", [X, w], {"b_trans": True}))
    same(pl.matmul(X, w, FP16, False, True),
         create_op_call("tensor.matmul", [X, w], {"out_dtype": FP16, "b_trans": True}))
    lhs, rhs = tile("l", [16, 8], mem=Mem.Left), tile("r", [8, 4], mem=Mem.Right)
    result = pl.matmul(lhs, rhs)
    same(result, create_op_call("tile.matmul", [lhs, rhs]))
    assert result.type.memory_space is Mem.Acc
    for kwargs in ({"b_trans": True}, {"a_trans": True}, {"out_dtype": FP16}):
        with pytest.raises(TypeError, match=f"pl.matmul: '{next(iter(kwargs))}' is not "
                                            "supported for tile operands"):
            pl.matmul(lhs, rhs, **kwargs)
    acc = tile("acc", [16, 4], mem=Mem.Acc)
    same(pl.matmul_acc(acc, lhs, rhs), create_op_call("tile.matmul_acc", [acc, lhs, rhs]))


def test_row_reductions_need_tmp_tile_exactly_on_tiles():
    same(pl.row_sum(X), create_op_call("tensor.row_sum", [X]))
    same(pl.row_max(A, B), create_op_call("tile.row_max", [A, B]))
    same(pl.row_min(A, tmp_tile=B), create_op_call("tile.row_min", [A, B]))
    with pytest.raises(TypeError, match="pl.row_sum on a Tile requires tmp_tile"):
        pl.row_sum(A)
    with pytest.raises(TypeError, match="pl.row_max on a Tensor does not take tmp_tile"):
        pl.row_max(X, tmp_tile=A)
    same(pl.col_sum(A), create_op_call("tile.col_sum", [A]))


def test_expand_family_dispatches_by_first_operand():
    rows, cols = tensor("r", [64, 1]), tensor("c", [1, 128])
    for name in ("row_expand", "row_expand_add", "row_expand_sub", "row_expand_mul",
                 "row_expand_div"):
        same(getattr(pl, name)(X, rows), create_op_call(f"tensor.{name}", [X, rows]))
    for name in ("col_expand", "col_expand_add", "col_expand_sub", "col_expand_mul",
                 "col_expand_div"):
        same(getattr(pl, name)(X, cols), create_op_call(f"tensor.{name}", [X, cols]))
    vec = tile("v", [16, 1])
    same(pl.row_expand_add(A, vec), create_op_call("tile.row_expand_add", [A, vec]))
    same(pl.expands(A, 0.0), create_op_call("tile.expands", [A, 0.0]))
    mask = tile("m", [16, 16], ir.DataType.BOOL)
    same(pl.sel(mask, A, B, A), create_op_call("tile.sel", [mask, A, B, A]))


# -- creation, movement, views -------------------------------------------------------

def test_creation_functions():
    same(pl.create_tensor([8, 16], FP16),
         create_op_call("tensor.create", [[8, 16]], {"dtype": FP16, "layout": ir.TensorLayout.ND}))
    same(pl.create_tile([8, 16], FP32, Mem.Mat),
         create_op_call("tile.create", [[8, 16]], {"dtype": FP32, "target_memory": Mem.Mat}))
    same(pl.full([8], FP32, 0.0), create_op_call("tensor.full", [[8], 0.0], {"dtype": FP32}))


def test_load_store_move_match_their_namespaced_spelling():
    same(pl.load(X, [0, 0], [8, 8]),
         pl.tile.load(X, [0, 0], [8, 8], target_memory=Mem.Vec))
    same(pl.load(X, [0, 0], [8, 8], [8, 4], target_memory=Mem.Mat),
         create_op_call("tile.load", [X, [0, 0], [8, 8], [8, 4]], {"target_memory": Mem.Mat}))
    same(pl.store(A, [0, 0], X), create_op_call("tile.store", [A, [0, 0], X]))
    same(pl.store(A, [0, 0], X, [16, 8], atomic=ir.AtomicType.Add),
         create_op_call("tile.store", [A, [0, 0], X, [16, 8]], {"atomic": ir.AtomicType.Add}))
    same(pl.move(A, Mem.Left), create_op_call("tile.move", [A], {"target_memory": Mem.Left}))
    with pytest.raises(ValueError, match="tile.load: keyword 'target_memory' must be one of"):
        pl.load(X, [0, 0], [8, 8], target_memory=Mem.Acc)


def test_views_and_element_access():
    same(pl.slice(X, [1, 16], [0, 0], drop_dims=[0]),
         create_op_call("tensor.slice", [X, [1, 16], [0, 0], [], [0]]))
    same(pl.slice(A, [4, 4], [0, 0], [4, 2]),
         create_op_call("tile.slice", [A, [4, 4], [0, 0], [4, 2]]))
    part = tensor("p", [8, 128])
    same(pl.assemble(X, part, [8, 0]), create_op_call("tensor.assemble", [X, part, [8, 0]]))
    same(pl.reshape(A, [256]), create_op_call("tile.reshape", [A, [256]]))
    same(pl.transpose(X, 0, 1), create_op_call("tensor.transpose", [X, 0, 1]))
    i = scalar("i")
    same(pl.read(X, [i, 0]), create_op_call("tensor.read", [X, [i, 0]]))
    same(pl.write(A, [0, 0], S), create_op_call("tile.write", [A, [0, 0], S]))
    same(pl.dim(X, 1), create_op_call("tensor.dim", [X, 1]))
    with pytest.raises(TypeError, match="pl.reshape: 'input' must be a Tensor or Tile, got"):
        pl.reshape(S, [1])


def test_block_index_functions_and_span():
    span = ir.Span("k.py", 7, 3)
    idx = pl.get_block_idx(span=span)
    assert idx.op.name == "tensor.get_block_idx" and idx.span is span  # PyPTO's choice
    assert idx.type == ir.ScalarType(INDEX)
    assert pl.get_block_num().op.name == "tensor.get_block_num"
    assert pl.get_subblock_idx().op.name == "tensor.get_subblock_idx"
    assert pl.add(X, Y, span=span).span is span
    assert pl.add(S, T, span=span).span is span


# -- namespaces ----------------------------------------------------------------------

def test_namespaced_calls_build_the_named_op():
    same(pl.tensor.add(X, Y), create_op_call("tensor.add", [X, Y]))
    same(pl.tensor.add(X, 2.0), create_op_call("tensor.adds", [X, 2.0]))  # PyPTO routes it
    same(pl.tile.muls(A, 3.0), create_op_call("tile.muls", [A, 3.0]))
    assert pl.system.task_invalid().type == ir.ScalarType(ir.DataType.TASK_ID)
    span = ir.Span("f.py", 2, 1)
    assert pl.tensor.add(X, Y, span=span).span is span


def test_namespaced_wrappers_take_operands_by_keyword():
    same(pl.tile.load(X, offsets=[0, 0], shapes=[16, 16]),
         create_op_call("tile.load", [X, [0, 0], [16, 16]]))
    same(pl.tensor.slice(tensor=X, shape=[1, 4], offset=[0, 0], drop_dims=[0]),
         create_op_call("tensor.slice", [X, [1, 4], [0, 0], [], [0]]))
    square = tensor("q", [8, 8])
    same(pl.tensor.matmul_acc(square, square, square, init_cond=S),
         create_op_call("tensor.matmul_acc", [square, square, square, S]))


def test_keyword_escapes():
    ints = tile("i", [16, 16], INT32)
    assert pl.tile.and_(ints, ints).op.name == "tile.and"
    assert pl.tile.or_(ints, ints).op.name == "tile.or"
    assert "and_" in dir(pl.tile) and "or_" in dir(pl.tile) and "load" in dir(pl.tile)
    assert "load" not in dir(pl.tensor)


def test_unknown_namespaced_op_is_an_attribute_error():
    with pytest.raises(AttributeError):
        pl.tensor.foo(X)
    with pytest.raises(AttributeError):
        getattr(pl.tile, "dim")


def test_namespaced_errors():
    with pytest.raises(TypeError, match=r"matmul\(\) got an unexpected keyword argument 'b_trans'"):
        pl.tile.matmul(A, B, b_trans=True)
    with pytest.raises(ValueError, match="tile.add: operand 'rhs' \\(position 1\\) must be a Tile"):
        pl.tile.add(A, X)

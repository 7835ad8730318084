"""The unified ``pl.*`` functions that create, move, view, gather and scatter data
(the arithmetic ones are in ``unified_ops``, which re-exports these)."""

from __future__ import annotations

from pypto import ir
from pypto.ir.enums import AtomicType, MemorySpace, PadValue, TensorLayout
from pypto.ir.ops import composite
from . import tensor_ops, tile_ops
from ._routing import kind_of as _kind, route as _route, routed as _shaped

__all__ = [
    "create_tensor", "create_tile", "create_l1", "full", "arange", "load", "store", "move",
    "slice", "assemble", "reshape", "transpose", "read", "write", "dim", "concat", "fillpad",
    "fillpad_expand", "expand_clone", "gather", "gather_row", "scatter", "scatter_update",
    "sort32", "mrgsort", "reinterpret_view", "set_validshape", "paged_gather", "random",
    "aic_gather", "aiv_shard",
]


# -- creation and data movement --------------------------------------------------------

def create_tensor(shape, dtype, layout=TensorLayout.ND, manual_dep=False, init_value=None, *,
                  span=None):
    return tensor_ops.create(shape, dtype, layout, manual_dep, init_value, span=span)


def create_tile(shape, dtype, target_memory=MemorySpace.Vec, transpose=None, *,
                flat_layout=None, span=None):
    return tile_ops.create(shape, dtype, target_memory, transpose, flat_layout=flat_layout,
                           span=span)


def create_l1(shape, dtype, transpose=False, *, span=None):
    return tensor_ops.create_l1(shape, dtype, transpose, span=span)


def full(shape, dtype, value, *, span=None):
    return tensor_ops.full(shape, dtype, value, span=span)


def arange(start, shape, dtype=ir.DataType.INT32, descending=False, *, span=None):
    return tensor_ops.ci(start, shape, dtype, descending, span=span)


def load(tensor, offsets, shapes, valid_shape=None, target_memory=MemorySpace.Vec, clamp=False,
         *, span=None):
    return tile_ops.load(tensor, offsets, shapes, valid_shape, target_memory, clamp, span=span)


def store(tile, offsets, output_tensor, shapes=None, *, atomic=AtomicType.None_, span=None):
    return tile_ops.store(tile, offsets, output_tensor, shapes, atomic=atomic, span=span)


def move(tile, target_memory, blayout=None, slayout=None, *, span=None):
    return tile_ops.move(tile, target_memory, blayout, slayout, span=span)


def slice(input, shape, offset, valid_shape=None, drop_dims=None, pad_value=None,  # noqa: A001
          clamp=False, *, span=None):
    fn = _route("slice", "input", input, clamp=clamp)
    if _kind(input) == "tile":
        return fn(input, shape, offset, valid_shape, drop_dims, pad_value, span=span)
    return fn(input, shape, offset, valid_shape, drop_dims, pad_value, clamp, span=span)


def assemble(target, source, offset, *, atomic=AtomicType.None_, span=None):
    if _kind(target) == "tile":
        if atomic != AtomicType.None_:
            raise TypeError("pl.assemble: 'atomic' is not supported for tile operands")
        return tile_ops.assemble(target, source, offset, span=span)
    return _route("assemble", "target", target)(target, source, offset, atomic=atomic, span=span)


def reshape(input, shape, *, span=None):  # noqa: A002
    return _shaped("reshape", input, shape, span=span)


def transpose(input, axis1, axis2, *, span=None):  # noqa: A002
    return _shaped("transpose", input, axis1, axis2, span=span)


def _index_list(offset):
    """PyPTO's ``pl.read(t, i + 1)``: one scalar offset is a one-item index list."""
    return [offset] if _kind(offset) == "scalar" else offset


def read(src, offset, *, span=None):
    return _route("read", "src", src)(src, _index_list(offset), span=span)


def write(dst, offset, value, *, span=None):
    return _route("write", "dst", dst)(dst, _index_list(offset), value, span=span)


def dim(tensor, axis, *, span=None):
    return tensor_ops.dim(tensor, axis, span=span)


def concat(src0, src1, *, span=None):
    return _route("concat", "src0", src0)(src0, src1, span=span)


def fillpad(value, pad_value=PadValue.zero, *, span=None):
    return _route("fillpad", "value", value)(value, pad_value, span=span)


def fillpad_expand(value, shape, pad_value=PadValue.zero, *, span=None):
    return _route("fillpad_expand", "value", value)(value, shape, pad_value, span=span)


def expand_clone(src, target, *, span=None):
    return _route("expand_clone", "src", src)(src, target, span=span)


def gather(input, dim=None, index=None, *, mask_pattern=None, output_dtype=None,  # noqa: A002
           kvalue=None, cmp_mode=None, out_cols=None, offset=0, count_dtype=None, span=None):
    return composite.gather(input, dim, index, mask_pattern=mask_pattern,
                            output_dtype=output_dtype, kvalue=kvalue, cmp_mode=cmp_mode,
                            out_cols=out_cols, offset=offset, count_dtype=count_dtype, span=span)


def gather_row(dst, src, dst_offset, src_offset, shapes, transpose=False, *, valid_shape=None,
               span=None):
    return _route("gather_row", "dst", dst)(dst, src, dst_offset, src_offset, shapes, transpose,
                                            valid_shape=valid_shape, span=span)


def scatter(input, dim=None, index=None, src=None, *, mask_pattern=None, dst=None,  # noqa: A002
            span=None):
    return composite.scatter(input, dim, index, src, mask_pattern=mask_pattern, dst=dst,
                             span=span)


def scatter_update(input, *args, **kwargs):  # noqa: A002
    if _kind(input) == "tile":
        return composite.tile_scatter_update(input, *args, **kwargs)
    return composite.scatter_update(input, *args, **kwargs)


def sort32(src, idx, *, span=None):
    return _route("sort32", "src", src)(src, idx, span=span)


def mrgsort(src0, src1=None, src2=None, src3=None, tmp=None, *, exhausted=False,
            block_len=None, span=None):
    if _kind(src0) == "tile":
        return composite.tile_mrgsort(src0, src1, src2, src3, tmp, exhausted,
                                      block_len=block_len, span=span)
    if tmp is not None:
        raise TypeError("pl.mrgsort on Tensors does not take tmp")
    return composite.mrgsort(src0, src1, src2, src3, exhausted=exhausted, block_len=block_len,
                             span=span)


def reinterpret_view(data, dtype, *, shape=None, span=None):
    return _route("reinterpret_view", "data", data)(data, dtype, shape=shape, span=span)


def set_validshape(input, valid_rows, valid_cols, *, span=None):  # noqa: A002
    return _shaped("set_validshape", input, valid_rows, valid_cols, span=span)


def paged_gather(src, indices, block_table, block_size, size, max_indices, *,
                 space=MemorySpace.Mat, col_off=0, is_trans=False, is_b_matrix=False, span=None):
    return tensor_ops.paged_gather(src, indices, block_table, block_size, size, max_indices,
                                   space=space, col_off=col_off, is_trans=is_trans,
                                   is_b_matrix=is_b_matrix, span=span)


def random(key0, key1, counter0, counter1, counter2, counter3, shape,
           dtype=ir.DataType.UINT32, rounds=10, *, span=None):
    return tensor_ops.random(key0, key1, counter0, counter1, counter2, counter3, shape, dtype,
                             rounds, span=span)


def _split_op(name: str, x):
    # The tensor forms have no pl.tensor wrapper of their own (PyPTO's unified one only).
    if _kind(x) == "tensor":
        return tensor_ops.PARSER_ENTRIES[name]
    return _route(name, "x", x)


def aic_gather(x, span=None):
    return _split_op("aic_gather", x)(x, span=span)


def aiv_shard(x, span=None):
    return _split_op("aiv_shard", x)(x, span=span)

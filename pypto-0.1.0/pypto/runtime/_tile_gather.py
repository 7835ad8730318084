"""NumPy implementations of the tile gathers, scatters and sorts.  Same contract as
``_array_math``: ``impl(args, info, state) -> value``; only ``mscatter`` (declared as
writing its tensor) updates an operand in place.

Sorted lists are what ``sort32`` makes: (value, index) pairs along the last dim, the
index's bits stored in the value's dtype, values descending.  ``mrgsort`` merges such
lists; ``gather_mask`` with ``MaskPattern.P0101``/``P1010`` takes the values / indices
back out.
"""

from __future__ import annotations

from typing import Any

from ..ir.ops.deduce_gather import MASK_KEEP
from ._valid import mark_valid, valid_shape_of
from ._windows import check_sizes, shape_text
from .dtypes import numpy_dtype, np
from .errors import OpFailure
from .state import ExecState, OpInfo

__all__ = ["gather_flat", "scatter_flat", "gather_mask", "scatter_mask", "mgather", "mscatter",
           "sort32", "mrgsort_runs", "mrgsort_merge"]

SORT_BLOCK = 32  # sort32 sorts each block of 32 elements


def _flat_indices(index: Any, size: int, what: str) -> Any:
    index = np.asarray(index).astype(np.int64)
    if index.size and (index.min() < 0 or index.max() >= size):
        raise OpFailure(f"{what} index out of range [0, {size})")
    return index


def gather_flat(args: list, info: OpInfo, state: ExecState) -> Any:
    """``out[i, j] = src.flat[indices[i, j]]`` (row-major element index into ``src``)."""
    src, indices = args[0], args[1]
    return np.asarray(src).reshape(-1)[_flat_indices(indices, src.size, "gather")]


def scatter_flat(args: list, info: OpInfo, state: ExecState) -> Any:
    """A copy of ``dst`` with ``dst.flat[indexes[i, j]] = src[i, j]`` (a repeated index
    keeps the last element written)."""
    dst, src, indexes = args[0], args[1], args[2]
    out = np.array(dst)
    out.reshape(-1)[_flat_indices(indexes, out.size, "scatter").reshape(-1)] = \
        np.asarray(src, dtype=out.dtype).reshape(-1)
    return out


def _selected(width: int, code: int) -> Any:
    """The positions along the last dim that ``MaskPattern`` ``code`` keeps."""
    keep, group = MASK_KEEP.get(code, (0, 0))
    if not group or width % group:
        raise OpFailure(f"mask pattern {code} does not apply to a last dim of {width}")
    positions = np.arange(width)
    if group == 1:
        return positions
    first = {1: 0, 2: 1, 3: 0, 4: 1, 5: 2, 6: 3}[code]
    return positions[positions % group == first]


def _reinterpret(values: Any, dtype: Any) -> Any:
    if dtype is None:
        return values
    target = numpy_dtype(dtype)
    if target.itemsize != values.dtype.itemsize:
        raise OpFailure(f"cannot reinterpret {values.dtype} elements as {target}: the CPU "
                        "executor stores them with different widths")
    return np.ascontiguousarray(values).view(target)


def gather_mask(args: list, info: OpInfo, state: ExecState) -> Any:
    """The elements the mask pattern keeps of every group along the last dim, their bits
    read as ``output_dtype``."""
    src = np.asarray(args[0])
    picked = src[..., _selected(src.shape[-1], info.kwargs["mask_pattern"])]
    return _reinterpret(np.ascontiguousarray(picked), info.kwargs.get("output_dtype"))


def scatter_mask(args: list, info: OpInfo, state: ExecState) -> Any:
    """A copy of ``dst`` with ``src``'s elements at the positions the pattern selects."""
    dst, src = args[0], args[1]
    out = np.array(dst)
    positions = _selected(out.shape[-1], info.kwargs["mask_pattern"])
    if src.shape[-1] != len(positions):
        raise OpFailure(f"src {shape_text(src.shape)} does not fill the {len(positions)} "
                        f"selected positions of dst {shape_text(out.shape)}")
    out[..., positions] = src
    return out


def mgather(args: list, info: OpInfo, state: ExecState) -> Any:
    """``out[i, j] = mem.flat[idx[i, j]]``; with ``valid_shape`` only that region is
    gathered (the tile is partial).  ``coalesce`` only shapes the device's accesses; an
    index out of range is an error (``gather_oob='undefined'``: the device's result
    would be undefined), other ``gather_oob`` policies are not modelled."""
    mem, idx = args[0], np.asarray(args[1])
    policy = info.kwargs.get("gather_oob", "undefined")
    if policy != "undefined":
        raise OpFailure(f"gather_oob={policy!r} is not modelled by the CPU executor")
    valid = check_sizes(args[3], "valid_shape") if len(args) > 3 else idx.shape
    region = tuple(slice(0, n) for n in valid)
    out = np.zeros(idx.shape, dtype=mem.dtype)
    out[region] = np.asarray(mem).reshape(-1)[_flat_indices(idx[region], mem.size, "mgather")]
    return mark_valid(out, valid)


def mscatter(args: list, info: OpInfo, state: ExecState) -> Any:
    """``out.flat[idx[i, j]] = src[i, j]`` over ``src``'s valid region, in place."""
    src, idx, out = args[0], np.asarray(args[1]), args[2]
    region = tuple(slice(0, n) for n in valid_shape_of(src))
    flat = out.reshape(-1)
    flat[_flat_indices(idx[region], out.size, "mscatter").reshape(-1)] = \
        np.asarray(src)[region].astype(out.dtype).reshape(-1)
    return out


# -- sorts ---------------------------------------------------------------------------------

def _pairs(values: Any, bits: Any) -> Any:
    """Interleave values and index bits: ``[..., n]`` x2 -> ``[..., 2 n]``."""
    return np.stack([values, bits], axis=-1).reshape(*values.shape[:-1], -1)


def _descending(keys: Any) -> Any:
    """The stable order of ``keys`` (last axis), largest first: ties keep their order."""
    return np.argsort(-keys.astype(np.float64), axis=-1, kind="stable")


def sort32(args: list, info: OpInfo, state: ExecState) -> Any:
    """Each block of 32 elements sorted, largest first, each value paired with its index
    from ``idx``: ``[..., n] -> [..., 2 n]``."""
    src, idx = np.asarray(args[0]), np.asarray(args[1])
    width = src.shape[-1]
    if width % SORT_BLOCK or src.dtype.itemsize != 4:
        raise OpFailure(f"sort32 sorts blocks of {SORT_BLOCK} 4-byte values; got "
                        f"{src.dtype}{shape_text(src.shape)}")
    blocks = src.reshape(*src.shape[:-1], -1, SORT_BLOCK)
    bits = idx.astype(np.uint32).view(src.dtype).reshape(blocks.shape)
    order = _descending(blocks)
    return _pairs(np.take_along_axis(blocks, order, -1).reshape(src.shape),
                  np.take_along_axis(bits, order, -1).reshape(src.shape))


def _merge(pairs: Any) -> Any:
    """Rows of (value, index) pairs ``[..., 2 n]`` stably sorted by value, largest first:
    merging sorted lists laid end to end, earlier lists first on ties."""
    split = pairs.reshape(*pairs.shape[:-1], -1, 2)
    order = _descending(split[..., 0])[..., None]
    return np.take_along_axis(split, order, -2).reshape(pairs.shape)


def mrgsort_runs(args: list, info: OpInfo, state: ExecState) -> Any:
    """``mrgsort_format1(src, block_len)``: along each row, every four consecutive sorted
    runs of ``block_len`` pairs merged into one run (the last group may be shorter)."""
    src, run = np.asarray(args[0]), int(args[1])
    if run <= 0:
        raise OpFailure(f"block_len must be positive, got {run}")
    out = np.array(src)
    span = 8 * run  # four runs of `run` pairs, two elements each
    for start in range(0, src.shape[-1], span):
        out[..., start:start + span] = _merge(src[..., start:start + span])
    return out


def mrgsort_merge(args: list, info: OpInfo, state: ExecState) -> Any:
    """``mrgsort_format2(src0, src1, ..., tmp)``: the sorted lists merged into one."""
    if info.kwargs.get("exhausted"):
        raise OpFailure("exhausted=True (stop at the first exhausted list) leaves the rest "
                        "of the result to the device; the CPU executor does not model it")
    sources = [np.asarray(a) for a in args[:-1]]
    return _merge(np.concatenate(sources, axis=-1))


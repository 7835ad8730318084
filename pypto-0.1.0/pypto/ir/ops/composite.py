"""PyPTO's wrappers that route to one of several ops (``gather`` builds ``tensor.gather``,
``tensor.gather_mask`` or ``tensor.gather_compare`` by which arguments are given), or
to an operand or an attribute of one op (``sync_set``'s event id).  They are written
by hand; everything they build still goes through ``create_op_call`` and the entries.
The same functions serve ``pl.<ns>.*`` and ``ir.op.<ns>.*``."""

from __future__ import annotations

from typing import Any

from ..expr import Call, ConstInt
from .call import create_op_call

__all__ = ["gather", "scatter", "scatter_update", "mrgsort", "mrgsort_format2",
           "tile_scatter_update", "tile_mrgsort", "tile_mrgsort_format2", "sync_set",
           "sync_wait", "syncall_soft"]


def gather(input: Any, dim: Any = None, index: Any = None, *, mask_pattern: Any = None,
           output_dtype: Any = None, kvalue: Any = None, cmp_mode: Any = None,
           out_cols: Any = None, offset: Any = 0, count_dtype: Any = None,
           span: Any = None) -> Call:
    """``index`` given: ``tensor.gather`` along ``dim``; ``mask_pattern``:
    ``tensor.gather_mask``; ``kvalue``: ``tensor.gather_compare``."""
    if mask_pattern is not None:
        return create_op_call("tensor.gather_mask", [input],
                              {"mask_pattern": mask_pattern, "output_dtype": output_dtype}, span)
    if kvalue is not None:
        return create_op_call("tensor.gather_compare", [input, kvalue],
                              {"cmp_mode": cmp_mode, "offset": offset, "out_cols": out_cols,
                               "count_dtype": count_dtype}, span)
    if index is None:
        raise TypeError("gather: give index= (with dim=), mask_pattern= or kvalue=")
    return create_op_call("tensor.gather", [input, index], {"dim": dim}, span)


def scatter(input: Any, dim: Any = None, index: Any = None, src: Any = None, *,
            mask_pattern: Any = None, dst: Any = None, span: Any = None) -> Call:
    """``index``/``src`` given: ``tensor.scatter`` along ``dim``; ``mask_pattern`` and
    ``dst``: ``tensor.scatter_mask``."""
    if mask_pattern is not None:
        return create_op_call("tensor.scatter_mask", [input, dst],
                              {"mask_pattern": mask_pattern}, span)
    if index is None or src is None:
        raise TypeError("scatter: give index= and src= (with dim=), or mask_pattern= and dst=")
    return create_op_call("tensor.scatter", [input, index, src], {"dim": dim}, span)


def _scatter_update(op_name: str, input: Any, args: tuple, dim: Any, index: Any, src: Any,
                    span: Any) -> Call:
    if len(args) == 3:
        dim, index, src = args
    elif len(args) == 2:
        index, src = args
    elif args:
        raise TypeError(f"scatter_update takes (input, [dim,] index, src), got {len(args) + 1} "
                        "positional arguments")
    return create_op_call(op_name, [input, index, src], {"dim": dim}, span)


def scatter_update(input: Any, *args: Any, dim: Any = None, index: Any = None,
                   src: Any = None, span: Any = None) -> Call:
    """``scatter_update(input, index, src)`` or ``scatter_update(input, dim, index, src)``."""
    return _scatter_update("tensor.scatter_update", input, args, dim, index, src, span)


def tile_scatter_update(input: Any, *args: Any, dim: Any = None, index: Any = None,
                        src: Any = None, span: Any = None) -> Call:
    """``tile.scatter_update``, called as ``scatter_update``."""
    return _scatter_update("tile.scatter_update", input, args, dim, index, src, span)


def mrgsort_format2(*args: Any, exhausted: bool = False, span: Any = None) -> Call:
    return create_op_call("tensor.mrgsort_format2", list(args), {"exhausted": exhausted}, span)


def mrgsort(src0: Any, src1: Any = None, src2: Any = None, src3: Any = None, *,
            exhausted: bool = False, block_len: Any = None, span: Any = None) -> Call:
    """One source and ``block_len``: ``tensor.mrgsort_format1``; two to four sources:
    ``tensor.mrgsort_format2``."""
    if src1 is None:
        if block_len is None:
            raise TypeError("mrgsort: a single source needs block_len=")
        return create_op_call("tensor.mrgsort_format1", [src0, block_len], None, span)
    sources = [s for s in (src0, src1, src2, src3) if s is not None]
    return mrgsort_format2(*sources, exhausted=exhausted, span=span)


def tile_mrgsort_format2(*args: Any, exhausted: bool = False, span: Any = None) -> Call:
    """``(src0, src1[, src2[, src3]], tmp)``: the sources merged, ``tmp`` the scratch."""
    return create_op_call("tile.mrgsort_format2", list(args), {"exhausted": exhausted}, span)


def tile_mrgsort(src0: Any, src1: Any = None, src2: Any = None, src3: Any = None,
                 tmp: Any = None, exhausted: bool = False, *, block_len: Any = None,
                 span: Any = None) -> Call:
    """One source and ``block_len``: ``tile.mrgsort_format1`` (its sorted runs merged);
    two to four sources and the scratch ``tmp``: ``tile.mrgsort_format2``."""
    if src1 is None:
        if block_len is None:
            raise TypeError("mrgsort: a single source needs block_len=")
        return create_op_call("tile.mrgsort_format1", [src0, block_len], None, span)
    if tmp is None:
        raise TypeError("mrgsort: merging two to four tiles needs tmp= (a scratch tile)")
    sources = [s for s in (src0, src1, src2, src3) if s is not None]
    return tile_mrgsort_format2(*sources, tmp, exhausted=exhausted, span=span)


def _flag(op_name: str, event_id: Any, attrs: dict, span: Any) -> Call:
    """A constant event id is the ``event_id`` attribute, a runtime one the operand."""
    if isinstance(event_id, ConstInt):
        event_id = event_id.value
    if isinstance(event_id, int) and not isinstance(event_id, bool):
        return create_op_call(op_name, [], {**attrs, "event_id": event_id}, span)
    return create_op_call(op_name, [event_id], attrs, span)


def sync_set(event_id: Any, *, pipe: Any, ffts_mode: Any = None, core_type: Any = None,
             span: Any = None) -> Call:
    """Set the cross-core flag ``event_id`` once ``pipe`` is done."""
    return _flag("system.sync_set", event_id,
                 {"pipe": pipe, "ffts_mode": ffts_mode, "core_type": core_type}, span)


def sync_wait(event_id: Any, *, pipe: Any, core_type: Any = None, span: Any = None) -> Call:
    """Make ``pipe`` wait for the cross-core flag ``event_id``."""
    return _flag("system.sync_wait", event_id, {"pipe": pipe, "core_type": core_type}, span)


def syncall_soft(core_type: Any, gm_workspace: Any, used_cores: Any = None, *,
                 span: Any = None) -> Call:
    """``system.syncall`` in ``soft`` mode (through a workspace in global memory)."""
    return create_op_call("system.syncall", [gm_workspace, used_cores],
                          {"mode": "soft", "core_type": core_type}, span)

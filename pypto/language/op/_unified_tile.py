"""The unified ``pl.*`` functions that exist for one namespace only: PyPTO's ``pl.addc``
is ``pl.tile.addc`` (same signature), ``pl.reserve_buffer`` is
``pl.system.reserve_buffer``.  ``unified_ops`` re-exports them; ``dump_tag`` is here too
(a tag for the device's tensor dumps, no op)."""

from __future__ import annotations

from . import system_ops, tensor_ops, tile_ops

__all__ = [
    "addc", "addsc", "subc", "subsc", "lrelu", "prelu", "rem", "rems", "sels", "tri",
    "batch_matmul", "matmul_bias", "gemv", "gemv_acc", "gemv_bias", "matmul_mx",
    "matmul_mx_acc", "matmul_mx_bias", "gatherb", "mgather", "mscatter", "tpush_to_aiv",
    "tpush_to_aic", "tpop_from_aic", "tpop_from_aiv", "tfree_to_aic", "tfree_to_aiv",
    "aic_initialize_pipe", "aiv_initialize_pipe", "reserve_buffer", "import_peer_buffer",
    "dump_tag", "no_dep",
]

addc, addsc, subc, subsc = tile_ops.addc, tile_ops.addsc, tile_ops.subc, tile_ops.subsc
lrelu, prelu, rem, rems = tile_ops.lrelu, tile_ops.prelu, tile_ops.rem, tile_ops.rems
sels, tri = tile_ops.sels, tile_ops.tri
batch_matmul, matmul_bias = tile_ops.batch_matmul, tile_ops.matmul_bias
gemv, gemv_acc, gemv_bias = tile_ops.gemv, tile_ops.gemv_acc, tile_ops.gemv_bias
matmul_mx, matmul_mx_acc = tile_ops.matmul_mx, tile_ops.matmul_mx_acc
matmul_mx_bias = tile_ops.matmul_mx_bias
gatherb, mgather, mscatter = tile_ops.gatherb, tile_ops.mgather, tile_ops.mscatter
tpush_to_aiv, tpush_to_aic = tile_ops.tpush_to_aiv, tile_ops.tpush_to_aic
tpop_from_aic, tpop_from_aiv = tile_ops.tpop_from_aic, tile_ops.tpop_from_aiv
tfree_to_aic, tfree_to_aiv = system_ops.tfree_to_aic, system_ops.tfree_to_aiv
aic_initialize_pipe = system_ops.aic_initialize_pipe
aiv_initialize_pipe = system_ops.aiv_initialize_pipe
reserve_buffer, import_peer_buffer = system_ops.reserve_buffer, system_ops.import_peer_buffer


# pl.dump_tag is pl.tensor.dump_tag: a tag for the device runtime's tensor dumps; PyPTO
# registers no op for it, and pypto keeps no dump state (the value is the tensor itself).
dump_tag = tensor_ops.dump_tag
# pl.no_dep is pl.tensor.no_dep: a marker the parser turns into the pl.at region's
# no_dep_args; as Python it is the tensor itself.
no_dep = tensor_ops.no_dep

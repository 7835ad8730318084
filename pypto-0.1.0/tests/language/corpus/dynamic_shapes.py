"""Dynamic dims, views, subscripts and the tensor op families."""

import pypto.language as pl

M = pl.dynamic("M")
N = pl.dynamic("N")


@pl.program
class DynamicShapes:
    @pl.function
    def tensors(
        self,
        x: pl.Tensor[[M, N], pl.FP32],
        y: pl.Tensor[[M, 1], pl.FP32],
        v: pl.Tensor[[64, 32], pl.FP16, pl.NZ],
        s: pl.Scalar[pl.FP32],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        rows = pl.dim(x, 0)
        part = x[0:8, :]
        elem = x[1, 2]
        strip = x[rows - 1, 0:4]
        grown = pl.row_expand_add(x, y)
        shrunk = pl.row_sum(x)
        top = pl.row_max(x)
        low = pl.row_min(x)
        cols = pl.col_sum(x)
        cmax = pl.col_max(x)
        cmin = pl.col_min(x)
        filled = pl.expands(x, s)
        mask = pl.cmp(x, x, cmp_type=2)
        mask2 = pl.cmp(x, y, cmp_type=0)
        half = pl.cast(v, pl.FP32)
        flat = pl.reshape(half, [2048])
        swapped = pl.transpose(half, 0, 1)
        prod = pl.matmul(v, v, out_dtype=pl.FP32, b_trans=True)
        x[0:8, :] = part
        x[1, 2] = elem
        z = pl.tensor.add(x, x, attrs={"note": "kept"})
        sl = pl.slice(x, [4, 4], [0, 0])
        joined = pl.assemble(x, sl, [4, 4])
        w = pl.write(joined, [0, 0], elem)
        r = pl.read(w, [0, 0])
        return w

    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
        u: pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        tmp = pl.create_tile([16, 16], pl.FP32)
        rs = pl.row_sum(t, tmp)
        rm = pl.row_max(t, tmp_tile=tmp)
        e1 = pl.row_expand(t, u)
        e2 = pl.row_expand_sub(t, u)
        e3 = pl.row_expand_mul(t, u)
        e4 = pl.row_expand_div(t, u)
        m = pl.cmp(t, t)
        chosen = pl.sel(m, t, t, tmp)
        sl = t[0:8, 0:8]
        el = t[3, 4]
        c = pl.cast(t, pl.FP16, mode="floor")
        b = pl.get_block_num()
        sb = pl.get_subblock_idx()
        out = pl.store(chosen, [0, 0], out)
        return out

    @pl.function
    def composite(self, x: pl.Tensor[[M * 2, N + 1], pl.FP32], k: pl.Scalar[pl.INDEX]) -> pl.Tensor[[M * 2, N + 1], pl.FP32]:
        y: pl.Tensor[[M * 2, N + 1], pl.FP32] = pl.add(x, x)
        part: pl.Tensor[[k, 4], pl.FP32] = pl.slice(y, [k, 4], [0, 0])
        return y

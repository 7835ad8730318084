"""Host-level SubWorkers, decorator options, scalar arithmetic and constants."""

import pypto.language as pl


@pl.program
class HostWorkers:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def gather(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        import json
        # plain Python kept verbatim
        payload = json.dumps({"n": 4})
        return x

    @pl.function(level=pl.Level.NODE, role=pl.Role.SubWorker)
    def bound(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator, auto_scope=False)
    def host(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        pl.func_attr({"slot_num": 2, "split": pl.SplitMode.UP_DOWN})
        y = self.gather(x)
        z = self.bound(y)
        return z

    @pl.function
    def scalars(
        self, a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.INT32], f: pl.Scalar[pl.FP32], flag: pl.Scalar[pl.BOOL]
    ) -> tuple[pl.Scalar[pl.INT32], pl.Scalar[pl.FP32], pl.Scalar[pl.BOOL]]:
        c = a + b * 2 - a // b % 3
        d = (c << 2) >> 1
        e = c & b | a ^ 3
        g = ~e
        h = -c
        p = a ** 2
        lo = pl.min(a, b)
        hi = pl.max(a, b)
        mag = abs(h)
        q = f / 2.0 + 0.1
        r = pl.cast(c, pl.FP32) * q
        both = flag and a > b or not flag
        neq = a != b
        small = pl.const(-5, pl.INT8)
        big = pl.const(7, pl.INT64)
        wide = pl.const(1.5, pl.FP16)
        tiny = pl.const(2, pl.UINT16)
        t = None
        yes = True
        return c, r, both

    @pl.function(type=pl.FunctionType.Spmd)
    def launcher(self, x: pl.Tensor[[4], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Group)
    def group(x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.AIC)
    def cube_side(x: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left]) -> pl.Tile[[16, 16], pl.FP16, pl.Mem.Left]:
        return x

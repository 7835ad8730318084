"""User programs several test areas run as a user would (a script, a notebook cell, a
file given to ``pypto check``): one text each, so a test of one front end and a test
of another show the same mistake.  ``tests/`` is on ``sys.path`` (its conftest)."""

from __future__ import annotations

# A kernel reading a window past its tensor's end when n > 0, called from the entry:
# pypto.run fails at the pl.load line (line 5 of the text), noting the call (line 11).
# Needs ``pl`` and ``T = pl.Tensor[[64], pl.FP32]`` in scope.
OFFSETS = """\
@pl.program
class Offsets:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: T, n: pl.Scalar[pl.INDEX], o: pl.Out[T]) -> T:
        t = pl.load(x, [n], [64])
        r = pl.store(t, [0], o)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T, n: pl.Scalar[pl.INDEX], o: pl.Out[T]) -> T:
        r = self.k(x, n, o)
        return r
"""

RUN_OFFSETS = "pypto.run(Offsets, np.ones(64, np.float32), 8, np.zeros(64, np.float32))\n"

"""A pass refusal is a ``PassError``: a ``pypto.Error`` (and a ``ValueError``) naming the
pass, with a stable code and the span of the user's statement that caused it."""

from __future__ import annotations

import pytest

import pypto
import pypto.language as pl
from pypto import ir, passes
from pypto.passes import PassError, PassErrorCode

HEADER = '''\
import pypto.language as pl
T = pl.Tensor[[64], pl.FP32]
'''

# (pipeline prefix to run, program text, code, pass, the line (1-based) of the statement)
CASES = {
    "no_dep_args names an unused tensor": (
        "convert-to-ssa,outline-incore-scopes", HEADER + '''\
@pl.program
class P:
    @pl.function
    def main(self, x: T, y: T, out: pl.Out[T]) -> T:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[y]):
            t = pl.load(x, [0], [64])
            pl.store(t, [0], out)
        return out
''', PassErrorCode.UNUSED_NO_DEP_ARG, "OutlineIncoreScopes", 7),
    "block count from the cluster": (
        "convert-to-ssa,outline-cluster-scopes", HEADER + '''\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(x: T, o: pl.Out[T]) -> T:
        t = pl.load(x, [0], [64])
        r = pl.store(t, [0], o)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: T, o: pl.Out[T], n: pl.Scalar[pl.INDEX]) -> T:
        with pl.cluster():
            inner = n * 2
            with pl.spmd(inner):
                r = self.k1(x, o)
        return r
''', PassErrorCode.BLOCK_COUNT_FROM_CLUSTER, "OutlineClusterScopes", 15),
    "outlining before SSA": (
        "outline-hierarchy-scopes", HEADER + '''\
@pl.program
class P:
    @pl.function
    def main(self, x: T) -> T:
        with pl.at(level=pl.Level.HOST):
            y = pl.add(x, x)
            y = pl.add(y, x)
        return y
''', PassErrorCode.OUTLINE_NEEDS_SSA, "OutlineHierarchyScopes", 9),
    "a graph left in an Inline function": (
        "convert-to-ssa,outline-graph-scopes", HEADER + '''\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: T) -> T:
        with pl.graph("g"):
            y = pl.add(x, x)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: T) -> T:
        y = self.helper(x)
        return y
''', PassErrorCode.REGION_NOT_OUTLINED, "OutlineGraphScopes", 7),
    "inline cycle": (
        "inline-functions", HEADER + '''\
@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def a(self, x: T) -> T:
        y: T = self.a(x)
        return y

    @pl.function
    def main(self, x: T) -> T:
        return x
''', PassErrorCode.INLINE_CYCLE, "InlineFunctions", 6),
}


@pytest.mark.parametrize("name", CASES)
def test_a_refusal_names_the_pass_and_points_at_the_statement(name):
    pipeline, text, code, pass_name, line = CASES[name]
    program = pl.parse(text, filename="model.py")
    with passes.PassContext([]):
        with pytest.raises(PassError) as info:
            passes.build_pipeline(pipeline).run(program)
    err = info.value
    assert isinstance(err, pypto.Error) and isinstance(err, ValueError)
    assert (err.code, err.pass_name) == (code, pass_name)
    assert (err.span.filename, err.span.begin_line) == ("model.py", line), str(err)
    assert str(err).startswith(pass_name)
    assert str(err).endswith(f" [{err.span}]")
    assert str(err) == f"{err.headline()} [{err.span}]"


def test_a_bare_value_error_from_a_transform_becomes_a_pass_error_naming_the_pass():
    def refuse(program):
        raise ValueError("the toy pass refuses")
    toy = passes.Pass("Toy", refuse)
    x = ir.Var("x", ir.TensorType([4], ir.DataType.FP32))
    program = ir.Program([ir.Function("f", [x], [x.type], ir.ReturnStmt([x]))], "P")
    with pytest.raises(PassError) as info:
        toy(program)
    assert (str(info.value), info.value.code) == ("Toy: the toy pass refuses",
                                                  PassErrorCode.UNCLASSIFIED)
    assert info.value.span is None and isinstance(info.value.__cause__, ValueError)


def test_a_pass_error_keeps_the_pass_name_its_raise_site_gave():
    def refuse(program):
        raise PassError("inner says no", pass_name="Inner")
    with pytest.raises(PassError) as info:
        passes.Pass("Outer", refuse)(ir.Program([], "P"))
    assert str(info.value) == "Inner: inner says no"


def test_every_code_is_unique_and_well_formed():
    codes = [member.code for member in PassErrorCode]
    assert len(codes) == len(set(codes))
    assert all(len(c) == 4 and c[0] == "P" and c[1:].isdigit() for c in codes)
    assert all(member.summary for member in PassErrorCode)


def test_a_failed_verification_is_a_verification_error_with_its_diagnostics():
    @pl.function
    def twice(x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        y = pl.add(x, x)
        y = pl.mul(y, y)
        return y

    with pytest.raises(passes.VerificationError) as info:
        passes.run_verifier()(ir.Program([twice], "P"))
    err = info.value
    assert isinstance(err, pypto.Error)
    assert [d.rule_name for d in err.diagnostics] == ["SSAVerify"]
    assert err.diagnostics[0].span.begin_line == twice.body.stmts[1].span.begin_line
    assert str(err).startswith("IR Verification Report\n")

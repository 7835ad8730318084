"""``CompiledProgram.validate_ir`` (verifiers, then a CPU run compared with expected values)
and the constructor's private keywords."""

from __future__ import annotations

import inspect

import pytest

import pypto.language as pl
from pypto import ir

np = pytest.importorskip("numpy")


@pl.program
class Double:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[4, 4], pl.FP32],
          out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        t = pl.load(a, [0, 0], [4, 4])
        u = pl.add(t, t)
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[4, 4], pl.FP32],
             out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        out = self.k(a, out)
        return out


def _inputs():
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    return a, np.zeros((4, 4), np.float32)


def test_validate_ir_runs_the_compiled_program_and_compares():
    compiled = ir.compile(Double)
    a, out = _inputs()
    # one Out argument and the returned tensor
    assert compiled.validate_ir([a, out], [2 * a, 2 * a]) is True
    assert not out.any()  # the caller's tensors are left as they are
    assert compiled.validate_ir([a, out], [2 * a + 0.01, 2 * a], rtol=0, atol=0.1)


def test_validate_ir_names_the_differing_output():
    compiled = ir.compile(Double)
    a, out = _inputs()
    with pytest.raises(ValueError, match=r"output 0 differs .*largest difference 15,"):
        compiled.validate_ir([a, out], [a, 2 * a], rtol=0, atol=0)
    with pytest.raises(ValueError, match=r"produces 2 output\(s\) .* but 1 expected"):
        compiled.validate_ir([a, out], [2 * a])
    with pytest.raises(ValueError, match=r"output 1 has shape \(4, 4\), expected \(2,\)"):
        compiled.validate_ir([a, out], [2 * a, np.zeros(2)])


def test_one_output_comparison_serves_validate_ir_and_the_pass_dump_check():
    from pypto.passes.compile import _output_mismatch
    a = np.arange(4, dtype=np.float32)
    assert _output_mismatch(a, a + 0.01, rtol=0, atol=0.1) is None
    assert _output_mismatch(np.array([np.nan]), np.array([np.nan]), 0, 0) is None
    assert _output_mismatch(a, a + 2, 0, 0.5) == ("differs from the expected value (largest "
                                                  "difference 2, rtol=0, atol=0.5)")
    assert _output_mismatch(a, a.reshape(2, 2), 0, 0) == "has shape (4,), expected (2, 2)"


def test_validate_ir_reruns_the_verifiers():
    from pypto import passes
    compiled = ir.compile(Double)
    # a program that breaks SSA: the same variable assigned twice in one body
    x = ir.Var("x", ir.ScalarType(ir.DataType.INDEX))
    body = ir.SeqStmts([ir.AssignStmt(x, ir.ConstInt(1, ir.DataType.INDEX)),
                        ir.AssignStmt(x, ir.ConstInt(2, ir.DataType.INDEX)),
                        ir.ReturnStmt([x])])
    func = ir.Function("main", [], [ir.ScalarType(ir.DataType.INDEX)], body)
    broken = type(compiled)(ir.Program([func], "broken"), None)
    with pytest.raises(passes.VerificationError):
        broken.validate_ir([], [2])


def test_private_constructor_keywords_override_what_is_read_off_the_program():
    params = inspect.signature(type(ir.compile(Double))).parameters
    for name in ("_param_infos", "_output_indices", "_return_types", "_sub_chip_names"):
        assert params[name].default is None and params[name].kind is inspect.Parameter.KEYWORD_ONLY
    compiled = ir.compile(Double)
    cls = type(compiled)
    assert compiled.output_indices == [1] and compiled.has_return
    again = cls(compiled.program, None, _output_indices=[0, 1], _return_types=[],
                _sub_chip_names=["k"])
    assert again.output_indices == [0, 1] and not again.has_return
    infos = compiled._params[:1]
    assert cls(compiled.program, None, _param_infos=infos).param_names == ["a"]

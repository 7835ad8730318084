"""``pypto.debug.validate_pass_ir_codegen_results``: every per-pass dump of a program
run on the CPU executor and checked against the expected outputs."""

from __future__ import annotations

import os

import numpy as np
import pytest

import pypto
import pypto.language as pl
from pypto import ir


@pl.program
class Scaled:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16], pl.FP32],
             out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.add(a, a)
            out = pl.assemble(out, pl.mul(t, 3.0), [0])
        return out


def _dumps(tmp_path) -> str:
    ir.compile(Scaled, str(tmp_path), dump_passes=True)
    return str(tmp_path / "passes_dump")


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    return np.arange(16, dtype=np.float32), np.zeros(16, dtype=np.float32)


def test_every_pass_dump_gives_the_expected_outputs(tmp_path):
    ir_dir = _dumps(tmp_path)
    a, out = _inputs()
    assert pypto.debug.validate_pass_ir_codegen_results(ir_dir, {"a": a, "out": out},
                                                        {"out": 6 * a}) is None
    assert not out.any()  # the caller's tensors are left as they are


def test_the_first_dump_that_changes_the_meaning_is_named(tmp_path):
    ir_dir = _dumps(tmp_path)
    dumps = sorted(f for f in os.listdir(ir_dir) if f.endswith(".py"))
    broken = dumps[4]
    path = os.path.join(ir_dir, broken)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    assert "pl.tensor.muls(" in text
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text.replace("pl.tensor.muls(", "pl.tensor.adds("))
    a, out = _inputs()
    with pytest.raises(AssertionError, match=rf"^{broken}: output 'out' differs"):
        pypto.debug.validate_pass_ir_codegen_results(ir_dir, {"a": a, "out": out},
                                                     {"out": 6 * a})


def test_tolerances_and_bad_arguments(tmp_path):
    ir_dir = _dumps(tmp_path)
    a, out = _inputs()
    near = 6 * a + 0.5
    pypto.debug.validate_pass_ir_codegen_results(ir_dir, {"a": a, "out": out}, {"out": near},
                                                 atol=1.0)
    with pytest.raises(AssertionError, match="largest difference 0.5"):
        pypto.debug.validate_pass_ir_codegen_results(ir_dir, {"a": a, "out": out},
                                                     {"out": near}, rtol=0.0, atol=0.1)
    with pytest.raises(ValueError, match=r"no tensor given for parameter\(s\) out"):
        pypto.debug.validate_pass_ir_codegen_results(ir_dir, {"a": a}, {"out": near})
    with pytest.raises(ValueError, match="the entry has no parameter 'b'"):
        pypto.debug.validate_pass_ir_codegen_results(ir_dir, {"a": a, "out": out},
                                                     {"b": near})
    with pytest.raises(FileNotFoundError, match="no pass dumps"):
        pypto.debug.validate_pass_ir_codegen_results(str(tmp_path), {}, {})

"""PyPTO's smaller names of issue 13 point 1: ``use_parser_span``, ``invoke_dsl``,
``compile_program``, ``SCALAR_CTYPE_MAP``, ``multi_chip_orch_names``,
``RuntimeScalarMarker.unwrap``, the external-source helpers, ``find_ptoas_binary``,
the core enums' ``repr`` and ``pypto.InternalError``."""

from __future__ import annotations

import os
import pickle
import sys

import pytest

import pypto
import pypto.language as pl
from pypto import ir
from pypto.backend import BackendType
from pypto.language.parser.diagnostics import InvalidOperationError, ParserError

SPAN = ir.Span("helper.py", 7, 3)
T16 = ir.TensorType([16], ir.DataType.FP32)


def _var(name: str, type_=T16) -> ir.Var:
    return ir.Var(name, type_, ir.Span.unknown())


@pl.program
class Doubler:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16], pl.FP32],
             out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        out = pl.assemble(out, pl.add(a, a), [0])
        return out


# -- use_parser_span / invoke_dsl -------------------------------------------------------

def test_use_parser_span_is_the_default_span_of_op_calls_and_nests():
    from pypto.ir.utils import use_parser_span
    a = _var("a")
    inner = ir.Span("inner.py", 1, 1)
    with use_parser_span(SPAN):
        assert ir.op.tensor.add(a, a).span == SPAN
        assert pl.mul(a, a).span == SPAN
        with use_parser_span(inner):
            assert ir.create_op_call("tensor.exp", [a]).span == inner
        assert ir.op.tensor.exp(a).span == SPAN
        explicit = ir.Span("given.py", 2, 2)
        assert ir.op.tensor.add(a, a, span=explicit).span == explicit
    assert not ir.op.tensor.add(a, a).span.is_valid()
    with pytest.raises(TypeError, match="expects an ir.Span"):
        with use_parser_span("f.py:1"):
            pass


def test_invoke_dsl_runs_a_helper_at_the_call_site():
    from pypto.language.parser.ast_parser import invoke_dsl

    def helper(x, y, *, scale):
        return [pl.Tensor(expr=pl.mul(pl.add(x, y), scale)), y]

    a, b = _var("a"), _var("b")
    result, second = invoke_dsl(helper, [pl.Tensor(expr=a), b], {"scale": 2.0}, SPAN)
    assert isinstance(result, ir.Call) and result.op.name == "tensor.muls"
    assert result.span == SPAN and result.args[0].span == SPAN
    assert second is b


def test_invoke_dsl_reports_a_helper_error_at_the_call_site():
    from pypto.language.parser.ast_parser import invoke_dsl

    def bad(x):
        return pl.add(x, "nope")

    with pytest.raises(InvalidOperationError) as info:
        invoke_dsl(bad, [_var("a")], {}, SPAN)
    assert "bad(...) failed: tensor.add: operand 'rhs'" in str(info.value)
    assert (info.value.span["file"], info.value.span["line"]) == ("helper.py", 7)
    assert isinstance(info.value.__cause__, TypeError)

    def parser_error(x):
        raise ParserError("already a diagnostic", SPAN)

    with pytest.raises(ParserError, match="already a diagnostic"):
        invoke_dsl(parser_error, [_var("a")], {}, SPAN)

    def bug(x):
        raise pypto.InternalError("a broken invariant")

    with pytest.raises(pypto.InternalError):
        invoke_dsl(bug, [_var("a")], {}, SPAN)


# -- RuntimeScalarMarker -----------------------------------------------------------------

def test_runtime_scalar_marker_is_a_scalar_that_unwraps_its_expression():
    from pypto.language.typing import RuntimeScalarMarker
    n = _var("n", ir.ScalarType(ir.DataType.INDEX))
    marked = RuntimeScalarMarker(expr=n)
    assert isinstance(marked, pl.Scalar) and marked.unwrap() is n
    assert repr(marked) == "pl.RUNTIME(expr=n)"
    assert isinstance(pl.RUNTIME, pl.Scalar) and repr(pl.RUNTIME) == "pl.RUNTIME"
    with pytest.raises(TypeError, match="no IR expression to unwrap"):
        pl.RUNTIME.unwrap()
    with pytest.raises(TypeError, match="needs an expression of ScalarType"):
        RuntimeScalarMarker(expr=_var("t"))
    import copy
    assert copy.deepcopy(pl.RUNTIME) is pl.RUNTIME  # code tests for the marker with 'is'
    assert pickle.loads(pickle.dumps(pl.RUNTIME)) is pl.RUNTIME
    assert copy.copy(marked).unwrap() is n


# -- compile_program / multi_chip_orch_names -----------------------------------------------

def test_compile_program_compiles_into_work_dir_without_running(tmp_path):
    from pypto.runtime import compile_program
    from pypto.runtime import runner
    assert runner.compile_program is compile_program
    compiled = compile_program(Doubler, tmp_path, strategy=ir.OptimizationStrategy.Default,
                               backend_type=BackendType.Ascend910B, dump_passes=True)
    assert sorted(os.listdir(tmp_path)) == ["passes_dump", "program.pir"]
    assert os.listdir(tmp_path / "passes_dump")
    again = ir.CompiledProgram.from_dir(str(tmp_path))
    ir.assert_structural_equal(again.program, compiled.program)
    ir.assert_structural_equal(compiled.program, ir.compile(Doubler).program)

    quiet = tmp_path / "quiet"
    compile_program(Doubler.get_function("main"), quiet,
                    strategy=ir.OptimizationStrategy.Default,
                    backend_type=BackendType.Ascend910B)
    assert os.listdir(quiet) == ["program.pir"]
    with pytest.raises(TypeError, match=r"compile_program\(\) expects an ir.Program or an "
                                        r"ir.Function, got str"):
        compile_program("P", tmp_path, strategy=ir.OptimizationStrategy.Default,
                        backend_type=BackendType.Ascend910B)


@pl.program
class ScaledBy:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16], pl.FP32], k: pl.Scalar[pl.INT64],
             out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        out = pl.assemble(out, pl.mul(a, pl.cast(k, pl.FP32)), [0])
        return out


def test_execute_compiled_runs_what_compile_program_left(tmp_path):
    import ctypes

    import numpy as np
    from pypto.runtime import compile_program, execute_compiled
    compile_program(ScaledBy, tmp_path, strategy=ir.OptimizationStrategy.Default,
                    backend_type=BackendType.Ascend910B)
    a, out = np.arange(16, dtype=np.float32), np.zeros(16, dtype=np.float32)
    assert execute_compiled(tmp_path, [a, ctypes.c_int64(3), out], platform="a2a3sim",
                            device_id=0) is None
    assert np.array_equal(out, 3 * a)
    execute_compiled(str(tmp_path), [a, 2, out], platform="a2a3", device_id=1)
    assert np.array_equal(out, 2 * a)
    with pytest.raises(FileNotFoundError, match="no program.pir"):
        execute_compiled(tmp_path / "nothing", [a, 2, out], platform="a2a3", device_id=0)


def test_multi_chip_orch_names_are_the_functions_dispatched_to_devices():
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from distributed.programs import AllReduce, Ring
    multi_chip_orch_names = sys.modules["pypto.ir.compile"].multi_chip_orch_names
    assert multi_chip_orch_names(ir.compile(AllReduce).program) == ["reduce_rank"]
    assert multi_chip_orch_names(Ring) == ["step"]
    assert multi_chip_orch_names(Doubler) == []
    with pytest.raises(TypeError, match="expects an ir.Program"):
        multi_chip_orch_names(Doubler.get_function("main"))


# -- SCALAR_CTYPE_MAP ------------------------------------------------------------------------

def test_scalar_ctype_map_types_scalar_specs():
    from pypto.runtime.tensor_spec import SCALAR_CTYPE_MAP, ScalarSpec
    assert len(SCALAR_CTYPE_MAP) == 6 and SCALAR_CTYPE_MAP["float"] is ir.DataType.FP32
    assert ScalarSpec("n", 4).data_type is ir.DataType.INT64
    assert ScalarSpec("x", 3, "float").typed_value() == 3.0
    assert ScalarSpec("b", 1, "bool").typed_value() is True
    assert ScalarSpec("u", 2 ** 32 - 1, "uint32").typed_value() == 2 ** 32 - 1
    with pytest.raises(ValueError, match="outside uint32"):
        ScalarSpec("u", -1, "uint32").typed_value()
    with pytest.raises(ValueError, match="is not an integer"):
        ScalarSpec("n", 2.5).typed_value()
    with pytest.raises(ValueError, match="ctype must be one of bool, int32"):
        ScalarSpec("n", 4, "long double")


# -- external sources, ptoas, function attributes --------------------------------------------

def test_external_include_dirs_round_trip(tmp_path):
    from pypto.jit.specializer import EXTERNAL_INCLUDE_DIRS_ATTR, encode_external_include_dirs
    from pypto._external_source import decode_external_include_dirs
    assert EXTERNAL_INCLUDE_DIRS_ATTR == "external_include_dirs"
    encoded = encode_external_include_dirs([tmp_path, str(tmp_path / "x" / ".."), "rel"])
    decoded = decode_external_include_dirs(encoded)
    assert decoded == (str(tmp_path.resolve()), os.path.abspath("rel"))
    assert decode_external_include_dirs(None) == () == decode_external_include_dirs("")
    with pytest.raises(TypeError, match="expects a list of directories"):
        encode_external_include_dirs(str(tmp_path))
    with pytest.raises(ValueError, match="not an encoded include-directory list"):
        decode_external_include_dirs("{oops")


def test_external_source_digest_follows_the_included_files(tmp_path):
    from pypto.jit.decorator import external_source_digest
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "k.h").write_text("#define K 1\n")
    src = tmp_path / "kernel.cpp"
    src.write_text('#include "k.h"\n#include <vector>\nint f() { return K; }\n')
    first = external_source_digest([src], include_dirs=[inc])
    assert first == external_source_digest([str(src)], include_dirs=[str(inc)])
    assert external_source_digest([src], include_dirs=[inc], metadata=["aiv"]) != first
    (inc / "k.h").write_text("#define K 2\n")
    assert external_source_digest([src], include_dirs=[inc]) != first
    with pytest.raises(FileNotFoundError, match="does not exist"):
        external_source_digest([tmp_path / "missing.cpp"])


def test_find_ptoas_binary_looks_on_path(tmp_path, monkeypatch):
    from pypto.jit.decorator import find_ptoas_binary
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_ptoas_binary() is None
    tool = tmp_path / "ptoas"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    assert find_ptoas_binary() == str(tool)


def test_function_attribute_keys():
    from pypto.jit.specializer import DUAL_AIV_DISPATCH_ATTR
    from pypto.language.parser import ast_parser
    assert DUAL_AIV_DISPATCH_ATTR == "dual_aiv_dispatch"
    assert ast_parser.AUTO_SCOPE_ATTR == "auto_scope"

    @pl.program
    class NoAutoScope:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
            pl.func_attr({"auto_scope": False})
            return a

    assert NoAutoScope.get_function("k").attrs[ast_parser.AUTO_SCOPE_ATTR] is False


# -- enum reprs, InternalError, dsl_api ------------------------------------------------------

def test_core_enums_show_as_class_dot_member():
    from pypto.language.parser.enum_utils import ROLE_MAP, SPLIT_MODE_MAP
    from pypto.passes import IRProperty, VerificationMode
    assert repr(ROLE_MAP) == "{'Orchestrator': Role.Orchestrator, 'SubWorker': Role.SubWorker}"
    assert repr(SPLIT_MODE_MAP["UP_DOWN"]) == "SplitMode.UP_DOWN"
    for member in (ir.MemorySpace.Vec, pypto.LogLevel.DEBUG, IRProperty.SSAForm,
                   VerificationMode.BEFORE_AND_AFTER, BackendType.Ascend910B):
        assert repr(member) == f"{type(member).__name__}.{member.name}"
    assert str(ir.MemorySpace.Vec) == "MemorySpace.Vec"
    # PyPTO's Python-level enums keep Python's form
    assert repr(ir.ScopeMode.AUTO) == "<ScopeMode.AUTO: 0>"
    assert repr(ir.OptimizationStrategy.Default) == "<OptimizationStrategy.Default: 'Default'>"


def test_internal_error_is_pypto_internal_error():
    from pypto.language.parser.diagnostics import BUG_CLASS_EXCEPTIONS
    assert repr(BUG_CLASS_EXCEPTIONS) == ("(<class 'pypto.InternalError'>, "
                                          "<class 'AssertionError'>)")
    err = pickle.loads(pickle.dumps(pypto.InternalError("broken")))
    assert type(err) is pypto.InternalError and str(err) == "broken"
    assert pypto.Error.__module__ == "pypto"


def test_dsl_api_lists_split_aiv():
    from pypto.language import dsl_api
    assert {"SplitAivContext", "split_aiv"} <= set(dsl_api.__all__)
    namespace: dict = {}
    exec("from pypto.language.dsl_api import *", namespace)
    assert namespace["split_aiv"] is pl.split_aiv

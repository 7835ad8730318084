"""The names PyPTO's ``pypto.ir`` has beyond the node classes: module constants, op
effect queries, ``make_call``, ``set_call_attrs``, printing options, view semantics."""

from __future__ import annotations

import builtins

import pytest

import pypto
import pypto.language as pl
from pypto import ir, passes
from pypto.ir import tensor_view_semantics as tvs
from pypto.ir.op._pad_value import normalize_pad_value
get_op_arg_effect = ir.get_op_arg_effect

IDX = ir.DataType.INDEX


def test_module_constants_follow_pypto_owners():
    assert ir.HOST is ir.Level.HOST and ir.Vec is ir.MemorySpace.Vec and ir.FP32 is ir.DataType.FP32
    assert ir.InCore is ir.FunctionType.InCore and ir.Cluster is ir.ScopeKind.Cluster
    assert ir.In is ir.ParamDirection.In and ir.NONE is ir.SplitMode.NONE
    assert ir.max is ir.PadValue.max and ir.min is ir.PadValue.min and ir.null is ir.PadValue.null
    assert ir.input is ir.ArgDirection.Input and ir.scalar_dir is ir.ArgDirection.Scalar
    assert ir.directions.scalar is ir.ArgDirection.Scalar and ir.DYNAMIC_DIM == -1
    assert ir.ScalarLocal.value == 7 and ir.LeftScale.value == 8 and ir.RightScale.value == 9


def test_star_import_gives_pypto_all_without_shadowing_max_and_min():
    namespace: dict = {}
    exec("from pypto.ir import *", namespace)
    assert namespace["input"] is ir.ArgDirection.Input and "PassManager" in namespace
    assert "max" not in namespace and "min" not in namespace and "type" not in namespace
    assert builtins.max(1, 2) == 2


def test_lazy_pass_level_names():
    assert ir.PassContext is passes.PassContext
    assert ir.VerificationLevel is passes.VerificationLevel
    assert ir.DiagnosticCheckSet is passes.DiagnosticCheckSet
    assert {m.name: m.value for m in ir.DiagnosticCheck} == {
        "UnusedVariable": 0, "UnusedControlFlowResult": 1, "TileInnermostDimGranularity": 2,
        "OutParamWriteDropped": 3}


def test_op_effects_are_read_off_the_entries():
    assert [m.name for m in ir.ArgEffect] == ["Read", "Write", "ReadWrite"]
    store = ir.get_op("tile.store")
    out = store.param_index("output_tensor")
    assert get_op_arg_effect("tile.store", out) is ir.ArgEffect.Write
    assert get_op_arg_effect("tile.store", out, atomic=ir.AtomicType.Add) is ir.ArgEffect.ReadWrite
    assert get_op_arg_effect("tile.store", 0) is ir.ArgEffect.Read
    with pytest.raises(IndexError, match="'tile.store' has 4 operand"):
        get_op_arg_effect("tile.store", 9)
    assert ir.op_has_declared_arg_effects("tile.store")
    assert not ir.op_has_declared_arg_effects("tensor.add")
    assert ir.op_has_declared_arg_effect("tensor.add", 1)
    assert not ir.op_has_declared_arg_effect("tensor.add", 2)
    assert ir.get_op_write_channel("tensor.write") is ir.WriteChannel.Scalar
    assert ir.get_op_write_channel("tile.store") is ir.WriteChannel.Dma
    assert ir.get_op_write_channel("tensor.add") is None
    assert store.get_attr_keys() == [k.name for k in store.keywords] and store.has_attr("atomic")
    assert ir.GlobalVar("f").get_attr_keys() == []
    with pytest.raises(ValueError, match="nope"):
        ir.get_op_write_channel("nope.op")


def test_make_call_and_set_call_attrs():
    x = ir.Var("x", ir.TensorType([4], ir.FP32))
    call = ir.make_call(ir.GlobalVar("k"), [x], directions=[ir.output],
                        type=ir.TensorType([4], ir.FP32))
    assert call.arg_directions == [ir.ArgDirection.Output] and call.type == x.type
    with pytest.raises(ValueError, match="arg_directions'\\] has 2 entries"):
        ir.make_call(ir.GlobalVar("k"), [x], directions=[ir.input, ir.input])
    tagged = ir.set_call_attrs(call, {"note": 1})
    assert tagged.attrs == {"note": 1} and call.attrs == {"arg_directions": [ir.output]}
    assert tagged.args == call.args and tagged.op is call.op
    with pytest.raises(TypeError, match="set_call_attrs expects an ir.Call, got Var"):
        ir.set_call_attrs(x, {})


def test_python_print_type_and_explicit_layout():
    plain = ir.TileType([16, 16], ir.FP32, None, ir.TileView(valid_shape=[8, 16]), ir.Vec)
    assert ir.python_print_type(plain) == \
        "pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 16])]"
    explicit = ir.python_print_type(plain, explicit_layout=True)
    assert explicit == ("pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 16], "
                        "blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box, "
                        "fractal=512, pad=pl.PadValue.null, compact=pl.CompactMode.null)]")
    tensor = ir.TensorType([4, 8], ir.FP16, None, ir.TensorView())
    # ``pl.ND`` as a slot reads as no view (PyPTO's reading): the view prints in full.
    assert ir.python_print(tensor) == "pl.Tensor[[4, 8], pl.FP16, pl.TensorView()]"
    assert ir.python_print(tensor, explicit_layout=True) == \
        "pl.Tensor[[4, 8], pl.FP16, pl.TensorView(layout=pl.TensorLayout.ND, pad=pl.PadValue.null)]"
    with pytest.raises(TypeError, match="python_print_type expects an ir.Type, got int"):
        ir.python_print_type(3)


EXPLICIT = """
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 16])]):
        return
"""


def test_explicit_layout_text_reads_back_to_the_same_program():
    program = pl.parse(EXPLICIT)
    text = ir.python_print(program, explicit_layout=True)
    assert "blayout=pl.TileLayout.row_major" in text
    ir.assert_structural_equal(pl.parse(text), program)


def test_tensor_view_semantics():
    n = ir.Var("n", ir.ScalarType(IDX))
    strides = tvs.build_logical_strides_from_layout([2, 3, 4], ir.ND)
    assert [s.value for s in strides] == [12, 4, 1]
    assert [s.value for s in tvs.build_logical_strides_from_layout([3, 4], ir.DN)] == [1, 3]
    symbolic = tvs.build_logical_strides_from_layout([n, 8], ir.ND)
    assert symbolic[1].value == 1 and symbolic[0].value == 8
    assert tvs.derive_layout_from_strides([3, 4], [4, 1]) is ir.ND
    assert tvs.derive_layout_from_strides([3, 4], [1, 3]) is ir.DN
    assert tvs.derive_layout_from_strides([3, 4], [8, 1]) is None
    assert tvs.check_canonical_view([3, 4], [5, 1], ir.ND) == (
        False, "stride of dimension 0 does not match the ND layout")
    assert tvs.is_canonical_view([n, 4], [ir.Var("s", ir.ScalarType(IDX)), 1], ir.ND)
    assert not tvs.is_canonical_view([n, 4], [ir.Var("s", ir.ScalarType(IDX)), 1], ir.ND,
                                     relaxed_symbolic=False)
    assert tvs.compute_shape_product([2, 3, 4]) == 24
    with pytest.raises(ValueError, match="not a constant"):
        tvs.compute_shape_product([n])
    with pytest.raises(ValueError, match="NZ layout has no per-dimension strides"):
        tvs.build_logical_strides_from_layout([16, 16], ir.NZ)
    view = tvs.canonicalize_view([2, 3], ir.ND)
    assert [s.value for s in view.stride] == [3, 1] and view.layout is ir.ND
    assert pypto.pypto_core.ir.tensor_view_semantics is tvs


@pytest.mark.parametrize("value, expected", [
    (ir.PadValue.min, ir.PadValue.min), (0, ir.PadValue.zero), (0.0, ir.PadValue.zero),
    (float("inf"), ir.PadValue.max), (float("-inf"), ir.PadValue.min),
    (ir.ConstFloat(float("-inf"), ir.FP32), ir.PadValue.min),
])
def test_normalize_pad_value(value, expected):
    assert normalize_pad_value(value) is expected


def test_normalize_pad_value_rejects_other_numbers():
    with pytest.raises(ValueError, match="pad_value must be a PadValue, 0, math.inf or -math.inf"):
        normalize_pad_value(3)


def test_compat_modules():
    assert ir.type.TensorView is ir.TensorView and ir.type.__all__ == [
        "TensorType", "TensorView", "TileType", "TileView"]
    assert ir.operators.__all__ == []
    assert ir.formatter.ruff_format("x = 1\n") in ("x = 1\n",)
    assert ir.printer.python_print is ir.python_print


def test_scope_statements_take_body_positionally_as_in_pypto():
    body = ir.EvalStmt(ir.ConstInt(1, IDX))
    span = ir.Span("f.py", 3, 1)
    cluster = ir.ClusterScopeStmt("c", body, span)
    assert cluster.body is body and cluster.span is span and cluster.name_hint == "c"
    hierarchy = ir.HierarchyScopeStmt(ir.HOST, ir.Orchestrator, "", body, span)
    assert hierarchy.body is body and hierarchy.scope_kind is ir.ScopeKind.Hierarchy
    assert ir.InCoreScopeStmt(ir.NONE, "", body).body is body
    assert ir.SpmdScopeStmt(4, False, "", body).core_num.value == 4
    assert ir.RuntimeScopeStmt(True, "", body).manual
    assert ir.ClusterScopeStmt(body=body).body is body  # keywords keep working
    with pytest.raises(TypeError, match="ClusterScopeStmt: missing required argument 'body'"):
        ir.ClusterScopeStmt("c")


def test_parent_stmt_analysis():
    x = ir.Var("x", ir.ScalarType(IDX))
    i = ir.Var("i", ir.ScalarType(IDX))
    inner = ir.EvalStmt(x)
    loop = ir.ForStmt(i, 0, 4, 1, [], inner, [])
    ret = ir.ReturnStmt([])
    body = ir.SeqStmts([loop, ret])
    func = ir.Function("f", [x], [], body)
    analysis = ir.ParentStmtAnalysis()
    analysis.build_map(func)
    assert analysis.get_parent(inner) is loop and analysis.get_parent(loop) is body
    assert analysis.has_parent(ret) and not analysis.has_parent(body)
    assert analysis.get_parent(body) is None
    analysis.clear()
    assert not analysis.has_parent(inner)


def test_compat_module_paths_reexport_the_real_objects():
    import importlib
    import sys
    pm = importlib.import_module("pypto.ir.pass_manager")
    assert pm.core_ir is ir and pm.passes is passes and pm.python_print is ir.python_print
    assert pm.PassManager is passes.pass_manager.PassManager
    assert pm.CompileProfiler is pypto.compile_profiling.CompileProfiler
    compiled = importlib.import_module("pypto.ir.compiled_program")
    assert compiled.CompiledProgram is ir.CompiledProgram and compiled.ConstInt is ir.ConstInt
    assert compiled.BackendType is pypto.backend.BackendType
    compile_module = sys.modules["pypto.ir.compile"]
    assert compile_module.compile is ir.compile and compile_module.TYPE_CHECKING is False
    assert ir.builder.ir is ir
    with pytest.raises(AttributeError, match="has no attribute 'generate'"):
        compile_module.generate  # code generation is out of scope


def test_ir_utils_cast_modes_valid_regions_and_stacklevel():
    import warnings
    from pypto.ir import utils
    assert utils.CAST_MODE_NAMES == {"none": 0, "rint": 1, "round": 2, "floor": 3, "ceil": 4,
                                     "trunc": 5, "odd": 6}
    assert utils.resolve_cast_mode("floor") == 3 and utils.resolve_cast_mode(6) == 6
    with pytest.raises(ValueError, match="unknown cast mode 'up'"):
        utils.resolve_cast_mode("up")
    with pytest.raises(ValueError, match="a name or a code 0..6"):
        utils.resolve_cast_mode(7)
    n = ir.Var("n", ir.ScalarType(IDX))

    def tile(valid):
        view = ir.TileView(valid_shape=valid) if valid is not None else None
        return ir.Var("t", ir.TileType([16, 16], ir.FP32, None, view, ir.Vec))
    assert utils.has_partial_valid_region(tile([8, 16]))
    assert utils.has_partial_valid_region(tile([n, 16]))
    assert not utils.has_partial_valid_region(tile([16, 16]))
    assert not utils.has_partial_valid_region(tile(None))
    tensor = ir.Var("x", ir.TensorType([4, 8], ir.FP32, None, ir.TensorView(valid_shape=[4, 2])))
    assert utils.has_partial_valid_region(tensor)
    # a "pypto" function that warns: the warning must point at its caller (this test)
    inside: dict = {"__name__": "pypto.fake", "utils": utils, "warnings": warnings}
    exec(compile("def f():\n    warnings.warn('w', stacklevel=utils.caller_warning_stacklevel())\n"
                 "def g():\n    f()\n", "<pypto-fake>", "exec"), inside)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        inside["g"]()
    assert caught[0].filename == __file__


VIEWS = """
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 16], pl.FP32, pl.TensorView(valid_shape=[8, 16],
                                                             pad=pl.PadValue.zero)],
          t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(compact=pl.CompactMode.normal)]):
        return
"""


def test_tensor_view_pad_and_tile_view_compact_print_parse_and_compare():
    program = pl.parse(VIEWS)
    text = ir.python_print(program)
    assert "pl.TensorView(valid_shape=[8, 16], pad=pl.PadValue.zero)" in text
    assert "pl.TileView(compact=pl.CompactMode.normal)" in text
    ir.assert_structural_equal(pl.parse(text), program)
    other = pl.parse(VIEWS.replace("pl.PadValue.zero", "pl.PadValue.max"))
    assert not ir.structural_equal(other, program)
    assert ir.TensorView().pad is ir.PadValue.null and ir.TileView().compact is ir.CompactMode.null
    assert ir.python_print(ir.TensorType([4], ir.FP32, None, ir.TensorView(pad=ir.PadValue.min))) \
        == "pl.Tensor[[4], pl.FP32, pl.TensorView(pad=pl.PadValue.min)]"

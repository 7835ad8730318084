"""The two design seeds (OutlineGraphScopes, OutlineHierarchyScopes): rules and error
cases of ``docs/seeds-audit.md`` that no other test pinned (the graph seed's example
against its after program is in ``test_outline_pipeline.py``)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.passes.outline.index import FunctionIndex

T = pl.Tensor[[64], pl.FP32]
F32 = ir.TensorType([64], ir.DataType.FP32)


def default_pipeline(program: ir.Program) -> ir.Program:
    return ir.PassManager.get_strategy(ir.OptimizationStrategy.Default).run_passes(program)


# -- OutlineGraphScopes ------------------------------------------------------------------

def test_graph_pass_requires_ssa_form_naming_the_function():
    x = ir.Var("x", F32)
    y = ir.Var("y", F32)
    add = ir.create_op_call("tensor.add", [x, x])
    scope = ir.GraphScopeStmt("g", body=[ir.AssignStmt(y, add), ir.AssignStmt(y, add)])
    program = ir.Program([ir.Function("main", [x], [F32], [scope, ir.ReturnStmt([y])])])
    with passes.PassContext([]):
        with pytest.raises(passes.PassError) as info:
            passes.outline_graph_scopes()(program)
    assert info.value.code is passes.PassErrorCode.OUTLINE_NEEDS_SSA
    assert str(info.value).startswith(
        "OutlineGraphScopes requires SSA form, but function 'main' (which holds a "
        "GraphScopeStmt) is not in SSA form: Variable 'y' is assigned more than once")
    assert info.value.hint == "Run ConvertToSSA first"


@pytest.mark.parametrize("func_type", [ir.FunctionType.InCore, ir.FunctionType.AIV,
                                       ir.FunctionType.Group, ir.FunctionType.Spmd])
def test_a_graph_region_left_in_a_device_function_is_an_error(func_type):
    # Built directly (the parser refuses it): a region in a function the pass does not
    # outline must not survive under a GraphOutlined claim.
    x = ir.Var("x", F32)
    y = ir.Var("y", F32)
    span = ir.Span("k.py", 3, 5)
    scope = ir.GraphScopeStmt("g", body=ir.AssignStmt(y, ir.create_op_call(
        "tensor.add", [x, x])), span=span)
    program = ir.Program([ir.Function("k", [x], [F32], [scope, ir.ReturnStmt([y])],
                                      type=func_type)])
    with passes.PassContext([]):
        with pytest.raises(passes.PassError) as info:
            passes.outline_graph_scopes()(program)
    assert info.value.code is passes.PassErrorCode.REGION_NOT_OUTLINED
    assert (f"pl.graph(...) survives in function 'k' (func_type={func_type.name}), which "
            "OutlineGraphScopes does not outline") in str(info.value)
    assert info.value.span.begin_line == 3


def test_an_opaque_parent_of_a_graph_region_stays_opaque_through_the_pipeline():
    # Promoting it would make it a candidate compilation entry (the first
    # Orchestration function); its kernel went into the graph, so nothing promotes it.
    @pl.program
    class P:
        @pl.function
        def helper(self, x: T, acc: pl.InOut[T]) -> T:
            with pl.graph("g"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0], [64])
                    a = pl.load(acc, [0], [64])
                    pl.store(pl.add(t, a), [0], acc)
            return acc

    compiled = default_pipeline(P)
    assert compiled["helper"].func_type is ir.FunctionType.Opaque
    assert compiled["g"].func_type is ir.FunctionType.Graph
    assert compiled["g_incore_0"].func_type is ir.FunctionType.InCore


def test_used_after_is_asked_only_where_a_region_is(monkeypatch):
    # The fast path is no complexity guarantee; this is: "used after" is computed at
    # positions that are or hold a region, so 2,000 plain statements around one
    # region cost no question each.
    asked = []
    original = FunctionIndex.used_after

    def counting(self, var, stmt):
        asked.append(var)
        return original(self, var, stmt)

    monkeypatch.setattr(FunctionIndex, "used_after", counting)
    lines = [f"        a{k} = pl.add(x, x)" for k in range(1000)]
    text = "\n".join([
        "import pypto.language as pl",
        "@pl.program",
        "class P:",
        "    @pl.function",
        "    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:",
        *lines,
        '        with pl.graph("g"):',
        "            y = pl.add(a999, x)",
        "            z = pl.mul(y, y)",
        *(line.replace(" a", " b") for line in lines),
        "        return z",
    ])
    program = passes.convert_to_ssa()(pl.parse(text))
    result = passes.outline_graph_scopes()(program)
    assert "g" in result.functions
    assert len(asked) <= 2  # the region's own definitions (y, z), nothing else


# -- OutlineHierarchyScopes ------------------------------------------------------------------

def test_hierarchy_outlined_verifier_leaves_non_opaque_functions_alone():
    x = ir.Var("x", F32)
    y = ir.Var("y", F32)
    scope = ir.HierarchyScopeStmt(ir.Level.HOST, body=ir.AssignStmt(y, ir.create_op_call(
        "tensor.add", [x, x])))
    def program(func_type: ir.FunctionType) -> ir.Program:
        return ir.Program([ir.Function("f", [x], [F32], [scope, ir.ReturnStmt([y])],
                                       type=func_type)], "P")

    props = passes.IRPropertySet([passes.IRProperty.HierarchyOutlined])
    # outside the pass's remit (Opaque only), so not flagged either
    for func_type in (ir.FunctionType.Orchestration, ir.FunctionType.Graph):
        assert passes.PropertyVerifierRegistry.verify(props, program(func_type)) == []
    assert [d.message for d in passes.PropertyVerifierRegistry.verify(
        props, program(ir.FunctionType.Opaque))] == [
        "Hierarchy ScopeStmt found in function (should have been outlined)"]


@pytest.mark.parametrize("at, name", [
    ("pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator)", "main_host_orch_0"),
    ("pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator)", "main_global_orch_0"),
    ("pl.at(level=pl.Level.CHIP)", "main_chip_0"),
    ("pl.at(pl.Level.POD)", "main_cluster0_0"),
])
def test_hierarchy_naming_examples_from_source(at, name):
    text = f"""import pypto.language as pl
@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with {at}:
            y = pl.add(x, x)
        return y
"""
    result = default_pipeline(pl.parse(text))
    assert sorted(result.functions) == ["main", name]
    assert result[name].func_type is ir.FunctionType.Opaque
    assert result["main"].func_type is ir.FunctionType.Opaque


def test_hierarchy_pass_invalidates_nothing():
    assert passes.outline_hierarchy_scopes().get_invalidated_properties().to_list() == []


def test_hierarchy_subworker_at_chip_is_outlined_with_its_role_suffix():
    # Below HOST an inline SubWorker region is still accepted (PyPTO's outputs have
    # main_chip_sub_worker_0); the Role enum has no 'Worker' (the seed's table).
    text = """import pypto.language as pl
@pl.program
class P:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CHIP, role=pl.Role.SubWorker):
            y = pl.add(x, x)
        return y
"""
    result = passes.outline_hierarchy_scopes()(passes.convert_to_ssa()(pl.parse(text)))
    assert (result["main_chip_sub_worker_0"].level, result["main_chip_sub_worker_0"].role) \
        == (ir.Level.CHIP, ir.Role.SubWorker)

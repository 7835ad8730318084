"""OutlineHierarchyScopes: the seed's examples and test list (03-passes.md §11)."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir, passes
from pypto.errors import Error

T = pl.Tensor[[64], pl.FP32]


def outline(program: ir.Program) -> ir.Program:
    return passes.outline_hierarchy_scopes()(program)


def names(program: ir.Program) -> list[str]:
    return list(program.functions)


# -- the seed's examples, verbatim ----------------------------------------------------------

def test_seed_single_scope_example():
    @pl.program
    class Before:
        @pl.function  # Opaque function
        def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
            return y

    @pl.program
    class After:
        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def main_host_orch_0(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
            return y

        @pl.function  # Opaque (unchanged: the parent is not promoted)
        def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
            y: pl.Tensor[[64], pl.FP32] = self.main_host_orch_0(x)
            return y

    ir.assert_structural_equal(outline(Before), After)


def test_seed_nested_example_chains_names_inner_first():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
            with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator):
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
                with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
                    z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)
            return z

    @pl.program
    class After:
        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def main_global_orch_0_host_orch_0(
            self, y: pl.Tensor[[64], pl.FP32]
        ) -> pl.Tensor[[64], pl.FP32]:
            z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)
            return z

        @pl.function(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator)
        def main_global_orch_0(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
            z: pl.Tensor[[64], pl.FP32] = self.main_global_orch_0_host_orch_0(y)
            return z

        @pl.function
        def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
            z: pl.Tensor[[64], pl.FP32] = self.main_global_orch_0(x)
            return z

    result = outline(Before)
    ir.assert_structural_equal(result, After)
    ir.assert_structural_equal(pl.parse(ir.python_print(result)), result)  # round trip


# -- naming ----------------------------------------------------------------------------------

LEVEL_ROWS = [
    (pl.Level.AIV, "aiv"), (pl.Level.AIC, "aic"), (pl.Level.CHIP_DIE, "chip_die"),
    (pl.Level.CHIP, "chip"), (pl.Level.HOST, "host"), (pl.Level.CLUSTER_0, "cluster0"),
    (pl.Level.CLUSTER_1, "cluster1"), (pl.Level.CLUSTER_2, "cluster2"),
    (pl.Level.GLOBAL, "global"),
]


def _one_scope_program(level: ir.Level, role: ir.Role | None) -> ir.Program:
    x = ir.Var("x", ir.TensorType([64], ir.DataType.FP32))
    y = ir.Var("y", x.type)
    body = ir.HierarchyScopeStmt(level, role, body=ir.AssignStmt(y, ir.create_op_call(
        "tensor.add", [x, x])))
    func = ir.Function("main", [x], [x.type], [body, ir.ReturnStmt([y])])
    return ir.Program([func], "P")


@pytest.mark.parametrize("level,suffix", LEVEL_ROWS)
def test_every_level_of_the_naming_table(level, suffix):
    assert sorted(names(outline(_one_scope_program(level, None)))) == sorted(
        ["main", f"main_{suffix}_0"])


def test_core_group_row_of_the_naming_table_built_directly():
    # pl.at(CORE_GROUP) parses to an InCore scope; the Hierarchy form only arises from IR.
    result = outline(_one_scope_program(ir.Level.CORE_GROUP, None))
    assert "main_core_group_0" in result.functions


@pytest.mark.parametrize("role,suffix", [(pl.Role.Orchestrator, "orch"),
                                         (pl.Role.SubWorker, "sub_worker")])
def test_role_suffixes(role, suffix):
    result = outline(_one_scope_program(ir.Level.CHIP, role))
    assert f"main_chip_{suffix}_0" in result.functions


@pytest.mark.parametrize("alias,canonical", [
    ("L2CACHE", "chip_die"), ("PROCESSOR", "chip"), ("UMA", "chip"), ("NODE", "host"),
    ("POD", "cluster0"), ("CLOS1", "cluster1"), ("CLOS2", "cluster2")])
def test_level_aliases_resolve_to_canonical_names(alias, canonical):
    level = getattr(pl.Level, alias)
    result = outline(_one_scope_program(level, None))
    assert f"main_{canonical}_0" in result.functions
    assert result[f"main_{canonical}_0"].level is level


def test_alias_in_source_pod_gives_cluster0():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T) -> T:
            with pl.at(pl.Level.POD):
                y = pl.add(x, x)
            return y

    result = outline(P)
    assert sorted(result.functions) == ["main", "main_cluster0_0"]
    assert result["main_cluster0_0"].level is pl.Level.CLUSTER_0


def test_several_scopes_share_one_counter_per_function():
    @pl.program
    class P:
        @pl.function
        def step(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
                a = pl.add(x, x)
            with pl.at(level=pl.Level.CHIP):
                b = pl.mul(a, a)
            return b

    result = outline(P)
    assert sorted(result.functions) == ["step", "step_chip_1", "step_host_orch_0"]


def test_nested_counter_resets_inside_the_outlined_body():
    @pl.program
    class P:
        @pl.function
        def step(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
                a = pl.add(x, x)
                with pl.at(level=pl.Level.CHIP):
                    b = pl.mul(a, a)
            return b

    assert sorted(outline(P).functions) == ["step", "step_host_orch_0",
                                            "step_host_orch_0_chip_0"]


def test_counters_are_independent_per_function():
    @pl.program
    class P:
        @pl.function
        def f(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST):
                a = pl.add(x, x)
            return a

        @pl.function
        def g(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST):
                a = pl.add(x, x)
            return a

    assert sorted(outline(P).functions) == ["f", "f_host_0", "g", "g_host_0"]


def test_name_hint_replaces_the_generated_name():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST, name_hint="prepare"):
                a = pl.add(x, x)
            with pl.at(level=pl.Level.HOST):
                b = pl.add(a, a)
            return b

    # the named scope still consumes counter value 0
    assert sorted(outline(P).functions) == ["main", "main_host_1", "prepare"]


# -- inputs, outputs, directions -------------------------------------------------------------

def test_inputs_in_first_read_order_and_only_used_values_returned():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T, w: T) -> T:
            with pl.at(level=pl.Level.HOST):
                a = pl.add(w, x)
                unused = pl.mul(a, a)
                b = pl.sub(a, x)
            return b

    callee = outline(P)["main_host_0"]
    assert [p.name_hint for p in callee.params] == ["w", "x"]
    assert callee.param_directions == (ir.ParamDirection.In, ir.ParamDirection.In)
    assert len(callee.return_types) == 1


def test_several_outputs_are_returned_as_a_tuple_and_projected():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST):
                a = pl.add(x, x)
                b = pl.mul(x, x)
            c = pl.sub(a, b)
            return c

    @pl.program
    class After:
        @pl.function(level=pl.Level.HOST)
        def main_host_0(self, x: T) -> tuple[T, T]:
            a = pl.add(x, x)
            b = pl.mul(x, x)
            return a, b

        @pl.function
        def main(self, x: T) -> T:
            ret = self.main_host_0(x)
            a = ret[0]
            b = ret[1]
            c = pl.sub(a, b)
            return c

    ir.assert_structural_equal(outline(Before), After)


def test_no_outputs_gives_an_evaluated_call():
    @pl.program
    class Before:
        @pl.function
        def main(self, x: T, out: pl.Out[T]) -> T:
            with pl.at(level=pl.Level.HOST):
                t = pl.load(x, [0], [64])
                pl.store(t, [0], out)
            return out

    @pl.program
    class After:
        @pl.function(level=pl.Level.HOST)
        def main_host_0(self, x: T, out: pl.Out[T]):
            t = pl.load(x, [0], [64])
            pl.store(t, [0], out)

        @pl.function
        def main(self, x: T, out: pl.Out[T]) -> T:
            self.main_host_0(x, out)
            return out

    # Hierarchy does not export store targets; the written buffer is an Out param.
    ir.assert_structural_equal(outline(Before), After)


def test_scope_inside_control_flow():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T, n: pl.Scalar[pl.INDEX]) -> T:
            for i, (acc,) in pl.range(n, init_values=(x,)):
                if i > 2:
                    with pl.at(level=pl.Level.HOST):
                        nxt = pl.add(acc, x)
                    r = pl.yield_(nxt)
                else:
                    r = pl.yield_(acc)
                acc_out = pl.yield_(r)
            return acc_out

    result = outline(P)
    assert sorted(result.functions) == ["main", "main_host_0"]
    text = result["main"].as_python()
    assert "main_host_0(acc, x)" in text


# -- what the pass leaves alone -----------------------------------------------------------------

def test_parent_stays_opaque_and_non_opaque_functions_are_untouched():
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def orch(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST):
                a = pl.add(x, x)
            return a

        @pl.function
        def main(self, x: T) -> T:
            with pl.at(level=pl.Level.HOST):
                a = pl.add(x, x)
            return a

    result = outline(P)
    assert result["main"].func_type is ir.FunctionType.Opaque
    assert result["orch"] is P["orch"]
    assert "orch_host_0" not in result.functions


def test_incore_and_cluster_scopes_move_with_the_body_untouched():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T, out: pl.Out[T]) -> T:
            with pl.at(level=pl.Level.HOST):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0], [64])
                    stored = pl.store(t, [0], out)
                with pl.cluster():
                    y = pl.add(stored, x)
            return y

    result = outline(P)
    host = result["main_host_0"]
    kinds = [type(s).__name__ for s in host.body.stmts]
    assert kinds[:2] == ["InCoreScopeStmt", "ClusterScopeStmt"]


def test_function_without_scopes_is_returned_unchanged():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T) -> T:
            y = pl.add(x, x)
            return y

    assert outline(P) is P


def test_outline_incore_runs_on_the_result():
    @pl.program
    class P:
        @pl.function
        def main(self, x: T, out: pl.Out[T]) -> T:
            with pl.at(level=pl.Level.HOST):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.load(x, [0], [64])
                    pl.store(t, [0], out)
            return out

    host_done = outline(P)
    done = passes.outline_incore_scopes()(host_done)
    assert sorted(done.functions) == ["main", "main_host_0", "main_host_0_incore_0"]
    # main_host_0 keeps its HOST level: it is not promoted to (CHIP) Orchestration
    assert done["main_host_0"].level is ir.Level.HOST
    assert done["main_host_0_incore_0"].func_type is ir.FunctionType.InCore


# -- the property and its verifier --------------------------------------------------------------

def test_pass_declares_its_properties():
    p = passes.outline_hierarchy_scopes()
    assert p.get_required_properties().to_list() == [passes.IRProperty.SSAForm]
    assert p.get_produced_properties().to_list() == [
        passes.IRProperty.SSAForm, passes.IRProperty.HierarchyOutlined,
        passes.IRProperty.OrchestrationReferencesResolved]


def test_hierarchy_outlined_verifier():
    program = _one_scope_program(ir.Level.HOST, None)
    props = passes.IRPropertySet([passes.IRProperty.HierarchyOutlined])
    diagnostics = passes.PropertyVerifierRegistry.verify(props, program)
    assert [d.message for d in diagnostics] == [
        "Hierarchy ScopeStmt found in function (should have been outlined)"]
    assert passes.PropertyVerifierRegistry.verify(props, outline(program)) == []
    with pytest.raises(Error, match="Hierarchy ScopeStmt found"):
        passes.run_verifier(props)(program)


def test_non_ssa_input_is_rejected_naming_pass_and_function():
    x = ir.Var("x", ir.TensorType([64], ir.DataType.FP32))
    y = ir.Var("y", x.type)
    add = ir.create_op_call("tensor.add", [x, x])
    scope = ir.HierarchyScopeStmt(ir.Level.HOST, body=[ir.AssignStmt(y, add),
                                                       ir.AssignStmt(y, add)])
    program = ir.Program([ir.Function("main", [x], [x.type], [scope, ir.ReturnStmt([y])])])
    with passes.PassContext([]):
        with pytest.raises(ValueError, match=r"OutlineHierarchyScopes requires SSA form.*'main'"):
            outline(program)


def test_a_predicate_on_a_hierarchy_scope_is_an_internal_error():
    from pypto.errors import InternalError
    x = ir.Var("x", ir.TensorType([64], ir.DataType.FP32))
    flag = ir.Var("flag", ir.ScalarType(ir.DataType.BOOL))
    y = ir.Var("y", x.type)
    scope = ir.HierarchyScopeStmt(ir.Level.HOST, body=ir.AssignStmt(y, ir.create_op_call(
        "tensor.add", [x, x])), attrs={"predicate": flag})
    program = ir.Program([ir.Function("main", [x, flag], [x.type],
                                      [scope, ir.ReturnStmt([y])])])
    with passes.PassContext([]):
        with pytest.raises(InternalError, match="carries a dispatch predicate"):
            outline(program)


def test_a_region_of_a_function_without_auto_scope_keeps_auto_scope_off():
    # Its hand-placed pl.scope() relies on that; the printed result must read back.
    @pl.program
    class Before:
        @pl.function(auto_scope=False)
        def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
            with pl.at(level=pl.Level.HOST):
                with pl.scope():
                    y = pl.add(x, x)
            return y

    after = passes.outline_hierarchy_scopes()(passes.convert_to_ssa()(Before))
    assert after["main_host_0"].attrs == {"auto_scope": False}
    text = ir.python_print(after)
    ir.assert_structural_equal(pl.parse(text), after)

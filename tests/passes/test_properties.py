"""IRProperty order, IRPropertySet API and string forms, property groups, auto-names."""

from __future__ import annotations

import pytest

from pypto import passes
from pypto.passes import IRProperty as P
from pypto.passes import IRPropertySet
from pypto.passes.names import NameAllocator, base_name, fresh_name_like

# PyPTO's members in its declaration order, with their values (the facts), then pl.graph's
# two (the seeds).  37 is unused in PyPTO too.
REFERENCE_MEMBERS = [
    ("SSAForm", 0), ("TypeChecked", 1), ("NoNestedCalls", 2), ("NormalizedStmtStructure", 3),
    ("NoRedundantBlocks", 4), ("SplitIncoreOrch", 5), ("HasMemRefs", 6), ("IncoreTileOps", 7),
    ("AllocatedMemoryAddr", 8), ("MixedKernelExpanded", 9), ("ClusterOutlined", 10),
    ("HierarchyOutlined", 15), ("TileOps2D", 11), ("TileMemoryInferred", 12),
    ("BreakContinueValid", 13), ("UseAfterDef", 14), ("StructuredCtrlFlow", 16),
    ("VectorKernelSplit", 17), ("OutParamNotShadowed", 18), ("NoNestedInCore", 19),
    ("InOutUseValid", 20), ("PipelineLoopValid", 21), ("PipelineResolved", 22),
    ("UnrollResolved", 35), ("CallDirectionsResolved", 23), ("TileTypeCoherence", 24),
    ("InlineFunctionsEliminated", 25), ("OrchestrationReferencesResolved", 26),
    ("TensorViewCanonical", 27), ("ArrayNotEscaped", 28), ("CommDomainScopesMaterialized", 29),
    ("DistTensorCtxMaterialized", 30), ("RuntimeScopesMaterialized", 31),
    ("AssignTypeSymmetry", 32), ("ManualDepsOnSubmitOnly", 33), ("ReturnParamsExplicit", 34),
    ("AivSplitValid", 36), ("IterArgCarryClassified", 38), ("AccToGmStoreValid", 39),
    ("AtomicAddDtypeValid", 40), ("GraphOutlined", 41), ("GraphBoundaryLegalized", 42)]


def test_members_values_and_order_are_pyptos():
    assert [(p.name, p.value) for p in P] == REFERENCE_MEMBERS


def test_a_set_lists_its_members_by_bit():
    s = IRPropertySet()
    for prop in (P.CallDirectionsResolved, P.UnrollResolved, P.HierarchyOutlined, P.TileOps2D):
        s.insert(prop)
    assert s.to_list() == [P.TileOps2D, P.HierarchyOutlined, P.CallDirectionsResolved,
                           P.UnrollResolved]


def test_same_module_through_pypto_core():
    from pypto.pypto_core import passes as core_passes
    assert core_passes is passes


def test_empty_set():
    s = IRPropertySet()
    assert s.empty()
    assert s.to_list() == []
    assert str(s) == "{}"
    assert len(s) == 0


def test_insert_remove_contains():
    s = IRPropertySet()
    s.insert(P.UseAfterDef)
    s.insert(P.SSAForm)
    s.insert(P.SSAForm)
    assert s.contains(P.SSAForm) and s.contains(P.UseAfterDef)
    assert not s.contains(P.TypeChecked)
    assert P.SSAForm in s and "SSAForm" not in s
    assert s.to_list() == [P.SSAForm, P.UseAfterDef]
    s.remove(P.SSAForm)
    s.remove(P.SSAForm)  # removing an absent member is not an error
    assert s.to_list() == [P.UseAfterDef]
    assert not s.empty()


def test_str_is_enum_order_not_insertion_order():
    s = IRPropertySet()
    for prop in (P.GraphOutlined, P.TypeChecked, P.SSAForm):
        s.insert(prop)
    assert str(s) == "{SSAForm, TypeChecked, GraphOutlined}"
    assert repr(s) == "IRPropertySet({SSAForm, TypeChecked, GraphOutlined})"


def test_set_algebra_returns_new_sets():
    a = IRPropertySet([P.SSAForm, P.TypeChecked])
    b = IRPropertySet([P.TypeChecked, P.NoNestedCalls])
    union = a.union_with(b)
    inter = a.intersection(b)
    diff = a.difference(b)
    assert str(union) == "{SSAForm, TypeChecked, NoNestedCalls}"
    assert str(inter) == "{TypeChecked}"
    assert str(diff) == "{SSAForm}"
    assert str(a) == "{SSAForm, TypeChecked}" and str(b) == "{TypeChecked, NoNestedCalls}"
    assert union is not a and inter is not a and diff is not a


def test_contains_all_and_equality():
    a = IRPropertySet([P.SSAForm, P.TypeChecked])
    assert a.contains_all(IRPropertySet([P.TypeChecked]))
    assert a.contains_all(IRPropertySet())
    assert not a.contains_all(IRPropertySet([P.TypeChecked, P.GraphOutlined]))
    assert a == IRPropertySet([P.TypeChecked, P.SSAForm])
    assert a != IRPropertySet([P.SSAForm])
    assert not (a != IRPropertySet([P.TypeChecked, P.SSAForm]))


def test_unhashable():
    assert IRPropertySet.__hash__ is None
    with pytest.raises(TypeError):
        hash(IRPropertySet())
    with pytest.raises(TypeError):
        {IRPropertySet()}  # noqa: B018


def test_bad_members_raise_type_error_naming_the_method():
    s = IRPropertySet()
    with pytest.raises(TypeError, match="IRPropertySet.insert expects an IRProperty, got str"):
        s.insert("SSAForm")
    with pytest.raises(TypeError, match="IRPropertySet.union_with expects an IRPropertySet"):
        s.union_with([P.SSAForm])


def test_structural_group():
    assert str(passes.get_structural_properties()) == (
        "{TypeChecked, NoRedundantBlocks, BreakContinueValid, UseAfterDef, OutParamNotShadowed, "
        "NoNestedInCore, InOutUseValid, PipelineLoopValid, ArrayNotEscaped, "
        "ManualDepsOnSubmitOnly, AtomicAddDtypeValid}")


def test_verified_group_excludes_outline_properties():
    verified = passes.get_verified_properties()
    assert str(verified) == (
        "{SSAForm, TypeChecked, NoRedundantBlocks, BreakContinueValid, InOutUseValid, "
        "OrchestrationReferencesResolved, ManualDepsOnSubmitOnly, AivSplitValid, "
        "AtomicAddDtypeValid, GraphBoundaryLegalized}")
    for outline in (P.HierarchyOutlined, P.GraphOutlined, P.SplitIncoreOrch, P.ClusterOutlined):
        assert not verified.contains(outline)


def test_default_verify_group():
    assert str(passes.get_default_verify_properties()) == (
        "{SSAForm, TypeChecked, NoNestedCalls, NoRedundantBlocks, BreakContinueValid, "
        "UseAfterDef, OutParamNotShadowed, NoNestedInCore, TileTypeCoherence, ArrayNotEscaped}")


def test_groups_are_fresh_copies():
    s = passes.get_structural_properties()
    s.insert(P.SSAForm)
    assert not passes.get_structural_properties().contains(P.SSAForm)


# -- auto-names (§5.1) ------------------------------------------------------------------

def test_auto_name_format():
    assert passes.auto_name("x", "ssa", 0) == "x__ssa_v0"
    assert passes.auto_name("i", "idx", 3) == "i__idx_v3"
    assert passes.auto_name("t", "tmp", 1) == "t__tmp_v1"
    assert passes.auto_name("x", "", 2) == "x__v2"
    assert passes.auto_name("x", "ssa", 4, role="rv") == "x__ssa_rv_v4"


def test_auto_name_reversions_an_auto_named_base():
    assert passes.auto_name("x__ssa_v0", "iter", 1) == "x__iter_v1"
    assert passes.auto_name("acc__rv_v3", "phi", 4) == "acc__phi_v4"


def test_auto_name_rejects_reserved_delimiter():
    with pytest.raises(ValueError,
                       match="IR auto-name base cannot contain reserved delimiter '__'"):
        passes.auto_name("a__b", "ssa", 0)


def test_split_auto_name():
    assert passes.split_auto_name("x__ssa_v0") == ("x", "ssa", "", 0)
    assert passes.split_auto_name("ret__tmp_v12") == ("ret", "tmp", "", 12)
    assert passes.split_auto_name("my_var__ssa_rv_v2") == ("my_var", "ssa", "rv", 2)
    assert passes.split_auto_name("x") is None
    assert passes.split_auto_name("x_inline3") is None
    assert passes.split_auto_name("a__b__ssa_v0") is None


def test_base_name():
    assert base_name("x__phi_v7") == "x"
    assert base_name("out__store") == "out"
    assert base_name("plain") == "plain"


def test_fresh_name_like_takes_first_free_version():
    assert fresh_name_like("out__ssa_v0", {"out__ssa_v0"}) == "out__ssa_v1"
    assert fresh_name_like("out__ssa_v0", {"out__ssa_v0", "out__ssa_v1"}) == "out__ssa_v2"
    assert fresh_name_like("out__ssa_v3", set()) == "out__ssa_v0"
    assert fresh_name_like("out", set()) == "out__ssa_v0"


def test_name_allocator_never_repeats():
    alloc = NameAllocator({"x__ssa_v1"})
    minted = [alloc.fresh_like("x__ssa_v0") for _ in range(3)]
    assert minted == ["x__ssa_v2", "x__ssa_v3", "x__ssa_v4"]

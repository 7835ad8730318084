"""``MemRef`` in PyPTO's model (a byte range of a ``pl.Ptr`` base), its members,
``IRVisitor``/``IRMutator.visit_mem_ref`` and ``IRBuilder.memref``."""

from __future__ import annotations

import inspect

import pytest

import pypto.language as pl
from pypto import ir

Mem = ir.MemorySpace
INT64 = ir.DataType.INT64


def ptr(name: str) -> ir.Var:
    return ir.Var(name, ir.PtrType.get())


def test_constructor_is_pyptos_and_members_are_its_fourteen():
    assert list(inspect.signature(ir.MemRef).parameters) == \
        ["base", "byte_offset", "size", "span", "is_pinned", "slots", "slot"]
    base = ptr("mem_vec_2")
    m = ir.MemRef(base, 0, 4096)
    assert m.base_ is base and m.byte_offset_ == ir.ConstInt(0, INT64) and m.size_ == 4096
    assert m.slot_count_ == 1 and m.slot_index_ is None and not m.is_pinned_
    assert m.name_hint == "mem_vec_2" and m.span == ir.Span.unknown()
    assert isinstance(m.type, ir.PtrType)
    assert m.as_python() == 'pl.MemRef("mem_vec_2", pl.const(0, pl.INT64), 4096)'
    twin = ir.MemRef(base, 0, 4096)
    assert twin == m and not twin.same_as(m) and m.same_as(m)
    assert twin.unique_id != m.unique_id
    public = {name for name in dir(m) if not name.startswith("_")}
    assert public == {"as_python", "base_", "byte_offset_", "is_pinned_", "may_alias",
                      "name_hint", "same_allocation", "same_as", "size_", "slot_count_",
                      "slot_index_", "span", "type", "unique_id"}


def test_a_string_base_is_a_fresh_ptr_of_that_name():
    a, b = ir.MemRef("mem_ddr_0", 0, 64), ir.MemRef("mem_ddr_0", 0, 64)
    assert a.base_.name_hint == "mem_ddr_0" and isinstance(a.base_.type, ir.PtrType)
    assert a.base_ is not b.base_ and not ir.MemRef.same_allocation(a, b)


def test_memory_space_lives_on_the_type():
    m = ir.MemRef("mem_vec_0", 0, 1024)
    assert not hasattr(m, "memory_space")
    assert ir.TileType([16, 16], ir.DataType.FP32, m, memory_space=Mem.Vec).memory_space \
        is Mem.Vec
    assert ir.TensorType([16], ir.DataType.FP32, m).memory_space is Mem.DDR
    assert ir.TensorType([16], ir.DataType.FP32).memory_space is None


@pytest.mark.parametrize("args, message", [
    ((Mem.Vec, 128, 1024, 3), "the old form MemRef(memory_space, addr, size, id) is now "
                              "pl.MemRef(base, byte_offset, size)"),
    ((ir.ConstInt(0, INT64), 64, 1), "'base' is a pl.Ptr variable"),
    ((ir.Var("x", ir.ScalarType(INT64)), 0, 64), "'base' must be a pl.Ptr variable, got 'x'"),
    (("m", 0, -1), "'size' must be a non-negative int"),
])
def test_bad_arguments_are_type_errors(args, message):
    with pytest.raises(TypeError, match=None) as info:
        ir.MemRef(*args)
    assert message in str(info.value)


def test_slots_must_be_positive():
    with pytest.raises(ValueError, match="'slots' must be a positive int"):
        ir.MemRef("m", 0, 64, slots=0)


def test_ranges_of_one_base_alias_when_they_overlap():
    base = ptr("buf")
    head, tail = ir.MemRef(base, 0, 128), ir.MemRef(base, 256, 128, is_pinned=True, slots=2,
                                                    slot=1)
    assert tail.is_pinned_ and tail.slot_count_ == 2 and tail.slot_index_.value == 1
    assert ir.MemRef.same_allocation(head, tail)
    assert not ir.MemRef.may_alias(head, tail)  # [0, 128) and [256, 384)
    assert ir.MemRef.may_alias(tail, ir.MemRef(base, 300, 8))
    assert not ir.MemRef.may_alias(head, ir.MemRef(ptr("other"), 0, 128))  # another buffer
    k = ir.Var("k", ir.ScalarType(INT64))
    assert ir.MemRef.may_alias(ir.MemRef(base, k, 64), head)  # unknown offset: may alias
    assert ir.MemRef.may_alias(ir.MemRef(base, 512, 0), head)  # unknown size: may alias


def test_pl_memref_is_pyptos_subclass_and_builds_the_ir_memref():
    assert issubclass(pl.MemRef, ir.MemRef) and pl.MemRef is not ir.MemRef
    m = pl.MemRef("mem_vec_1", 0, 64)
    assert type(m) is ir.MemRef and m.name_hint == "mem_vec_1"


def test_pl_memref_in_annotations_round_trips():
    @pl.function
    def f(x: pl.Tensor[[16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 64)]
          ) -> pl.Tensor[[16], pl.FP32]:
        return x

    memref = f.params[0].type.memref
    assert type(memref) is ir.MemRef and memref.size_ == 64
    text = f.as_python()
    assert 'pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 64)' in text
    ir.assert_structural_equal(pl.parse(text), f)


def test_builder_memref_spellings_name_their_buffers_as_pypto_does():
    b = ir.IRBuilder()
    m = b.memref(Mem.Left, 32, 64, 5)
    assert (m.name_hint, m.byte_offset_.value, m.size_) == ("mem_left_5", 32, 64)
    assert b.memref(Mem.Left, 0, 16, 5).base_ is m.base_  # buffer 5 of Left, once per builder
    ddr = b.memref(128, 32, 2)
    assert (ddr.name_hint, ddr.byte_offset_.value, ddr.size_) == ("mem_ddr_2", 128, 32)


def _tensor_var(offset, base=None):
    memref = ir.MemRef(base if base is not None else ptr("mem_ddr_1"), offset, 64)
    return ir.Var("t", ir.TensorType([16], ir.DataType.FP32, memref))


def test_visitor_visits_memref_base_and_offset():
    k = ir.Var("k", ir.ScalarType(INT64))
    seen = []

    class Collect(ir.IRVisitor):
        def visit_mem_ref(self, op):
            seen.append(op)
            super().visit_mem_ref(op)

        def visit_var(self, op):
            if op.name_hint in ("k", "mem_ddr_1"):
                seen.append(op.name_hint)
            super().visit_var(op)

    t = _tensor_var(k)
    Collect().visit_expr(t)
    assert seen == [t.type.memref, "mem_ddr_1", "k"]


def test_mutator_rewrites_memref_base_and_offset():
    k, j = (ir.Var(n, ir.ScalarType(INT64)) for n in ("k", "j"))
    old, new = ptr("mem_vec_2"), ptr("mem_vec_2")

    class Swap(ir.IRMutator):
        def visit_var(self, op):
            return {k: j, old: new}.get(op) or super().visit_var(op)

    t = _tensor_var(k, old)
    swapped = Swap().visit_expr(t)
    memref = swapped.type.memref
    assert memref.byte_offset_ is j and memref.base_ is new and memref.size_ == 64
    # an untouched memref is kept as is
    same = ir.IRMutator().visit_mem_ref(t.type.memref)
    assert same is t.type.memref


def test_mutator_refuses_a_base_mutated_into_a_non_var():
    base = ptr("mem_vec_2")

    class Bad(ir.IRMutator):
        def visit_var(self, op):
            return ir.ConstInt(0, INT64) if op is base else super().visit_var(op)

    with pytest.raises(TypeError, match="a MemRef's base must stay a Var"):
        Bad().visit_expr(_tensor_var(0, base))

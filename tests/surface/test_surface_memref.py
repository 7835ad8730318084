"""``MemRef``'s constructor forms and PyPTO's members, ``IRVisitor``/``IRMutator.visit_mem_ref``
and ``IRBuilder.memref``."""

from __future__ import annotations

import pytest

import pypto.language as pl
from pypto import ir

Mem = ir.MemorySpace
IDX = ir.DataType.INDEX


def test_printed_form_is_a_numbered_buffer_root():
    m = ir.MemRef(Mem.Vec, 64, 256, 3)
    assert (m.memory_space, m.size, m.id) == (Mem.Vec, 256, 3)
    assert m.base_ is m and m.byte_offset_.value == 0 and m.size_ == 256
    assert m.slot_count_ == 1 and m.slot_index_ is None and not m.is_pinned_
    assert m.name_hint == "" and m.span == ir.Span.unknown()
    assert isinstance(m.type, ir.PtrType)
    assert m.as_python() == "pl.MemRef(pl.Mem.Vec, 64, 256, 3)"
    # the printed form's fields decide equality; unique_id tells objects apart
    twin = ir.MemRef(Mem.Vec, 64, 256, 3)
    assert twin == m and not twin.same_as(m) and m.same_as(m)
    assert twin.unique_id != m.unique_id


def test_fresh_roots_and_named_roots():
    a = ir.MemRef(span=ir.Span.unknown(), slots=2)
    b = ir.MemRef("buf", ir.Span("f.py", 3, 1), 4)
    assert a.slot_count_ == 2 and a.name_hint == "" and a.memory_space is Mem.DDR
    assert b.name_hint == "buf" and b.slot_count_ == 4 and b.span.begin_line == 3
    assert ir.MemRef(memory_space=Mem.Mat, slots=1).memory_space is Mem.Mat
    # two fresh roots are two allocations, even with equal printed fields
    assert not ir.MemRef.same_allocation(a, ir.MemRef())
    assert not ir.MemRef.may_alias(a, ir.MemRef())
    with pytest.raises(ValueError, match="'slots' must be a positive int"):
        ir.MemRef(slots=0)


def test_views_are_byte_ranges_of_their_root():
    root = ir.MemRef(Mem.Vec, 1024, 512, 7)
    head = ir.MemRef(root, 0, 128)
    tail = ir.MemRef(root, 256, 128, is_pinned=True, slots=2, slot=1)
    inner = ir.MemRef(tail, 64, 32)
    assert head.base_ is root and inner.base_ is root
    assert inner.byte_offset_.value == 320 and inner.addr.value == 1024 + 320
    assert tail.is_pinned_ and tail.slot_count_ == 2 and tail.slot_index_.value == 1
    assert inner.memory_space is Mem.Vec and inner.id == 7
    assert ir.MemRef.same_allocation(head, tail) and ir.MemRef.same_allocation(inner, root)
    assert not ir.MemRef.may_alias(head, tail)  # [0, 128) and [256, 384)
    assert ir.MemRef.may_alias(tail, inner) and ir.MemRef.may_alias(root, head)


def test_symbolic_offsets_may_alias():
    root = ir.MemRef(Mem.Vec, 0, 512, 1)
    k = ir.Var("k", ir.ScalarType(ir.DataType.INT64))
    view = ir.MemRef(root, k, 64)
    assert isinstance(view.byte_offset_, ir.Add)
    assert ir.MemRef.may_alias(view, ir.MemRef(root, 256, 64))


def test_numbered_buffers_alias_by_address_range():
    a = ir.MemRef(Mem.Vec, 0, 256, 1)
    b = ir.MemRef(Mem.Vec, 128, 256, 2)
    c = ir.MemRef(Mem.Vec, 256, 64, 3)
    d = ir.MemRef(Mem.Mat, 0, 256, 1)
    assert ir.MemRef.may_alias(a, b) and not ir.MemRef.may_alias(a, c)
    assert not ir.MemRef.same_allocation(a, b)
    assert not ir.MemRef.may_alias(a, d) and not ir.MemRef.same_allocation(a, d)


def test_pl_memref_in_annotations_round_trips():
    @pl.function
    def f(x: pl.Tensor[[16], pl.FP32, pl.MemRef(pl.MemorySpace.DDR, 0, 64, 1)]
          ) -> pl.Tensor[[16], pl.FP32]:
        return x

    memref = f.params[0].type.memref
    assert isinstance(memref, pl.MemRef) and memref.size_ == 64 and memref.base_ is memref
    text = f.as_python()
    assert "pl.MemRef(pl.Mem.DDR, 0, 64, 1)" in text
    ir.assert_structural_equal(pl.parse(text), f)


def test_builder_memref_spellings():
    b = ir.IRBuilder()
    m = b.memref(Mem.Left, 32, 64, 5)
    assert (m.memory_space, m.addr.value, m.size, m.id) == (Mem.Left, 32, 64, 5)
    ddr = b.memref(128, 32, 2)
    assert (ddr.memory_space, ddr.addr.value, ddr.size, ddr.id) == (Mem.DDR, 128, 32, 2)


def _tensor_var(addr):
    memref = ir.MemRef(Mem.DDR, addr, 64, 1)
    return ir.Var("t", ir.TensorType([16], ir.DataType.FP32, memref))


def test_visitor_visits_memref_addresses():
    base = ir.Var("base", ir.ScalarType(ir.DataType.INT64))
    seen = []

    class Collect(ir.IRVisitor):
        def visit_mem_ref(self, op):
            seen.append(op)
            super().visit_mem_ref(op)

        def visit_var(self, op):
            if op.name_hint == "base":
                seen.append("base")
            super().visit_var(op)

    t = _tensor_var(base)
    Collect().visit_expr(t)
    assert seen == [t.type.memref, "base"]


def test_mutator_rewrites_memref_addresses():
    base = ir.Var("base", ir.ScalarType(ir.DataType.INT64))
    other = ir.Var("other", ir.ScalarType(ir.DataType.INT64))

    class Swap(ir.IRMutator):
        def visit_var(self, op):
            return other if op is base else super().visit_var(op)

    t = _tensor_var(base)
    new = Swap().visit_expr(t)
    assert new.type.memref.addr is other and new.type.memref.size == 64
    # an untouched memref is kept as is
    same = ir.IRMutator().visit_mem_ref(t.type.memref)
    assert same is t.type.memref

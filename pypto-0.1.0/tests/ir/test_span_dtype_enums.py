"""Span, DataType and the IR enums (02-ir.md §2, §3, §10)."""

from __future__ import annotations

import enum

import pytest

import pypto
from pypto import ir

DT = ir.DataType


# -- Span ------------------------------------------------------------------------------

def test_span_attributes_and_text_forms():
    span = ir.Span("k.py", 3, 7, 4, 2)
    assert (span.filename, span.begin_line, span.begin_column, span.end_line,
            span.end_column) == ("k.py", 3, 7, 4, 2)
    assert str(span) == repr(span) == span.to_string() == "k.py:3:7"


def test_span_end_defaults_to_unknown():
    span = ir.Span("k.py", 3, 7)
    assert (span.end_line, span.end_column) == (-1, -1)


def test_span_unknown():
    span = ir.Span.unknown()
    assert (span.filename, span.begin_line, span.begin_column, span.end_line,
            span.end_column) == ("", -1, -1, -1, -1)
    assert not span.is_valid()


@pytest.mark.parametrize("args, valid", [
    (("f", 1, 1), True),
    (("f", 1, -1), True),            # unknown column is fine
    (("f", 0, 1), False),            # lines are 1-based
    (("f", 1, 0), False),
    (("f", 1, -2), False),
    (("f", 2, 5, 2, 9), True),
    (("f", 2, 5, 3, 1), True),       # later line, any column
    (("f", 2, 5, 1, 9), False),      # ends before it begins
    (("f", 2, 5, 2, 4), False),      # same line, end column before begin
    (("f", 2, 5, 0, 9), False),      # end must be positive
    (("f", 2, 5, 2, 0), False),
    (("f", 2, 5, -1, 9), True),      # an end line of -1 is fine
])
def test_span_is_valid(args, valid):
    assert ir.Span(*args).is_valid() is valid


def test_span_is_immutable():
    span = ir.Span("f", 1, 1)
    with pytest.raises(AttributeError):
        span.begin_line = 2  # type: ignore[misc]


# -- DataType ----------------------------------------------------------------------------

ALL_NAMES = ("BOOL INT4 INT8 INT16 INT32 INT64 UINT4 UINT8 UINT16 UINT32 UINT64 FP4 FP8E4M3FN "
             "FP8E5M2 FP8E8M0 FP16 FP32 BF16 HF4 HF8 INDEX TASK_ID").split()


def test_datatype_is_a_class_with_constants_not_an_enum():
    assert not isinstance(DT.FP32, enum.Enum)
    assert pypto.DataType is ir.DataType
    assert all(isinstance(getattr(DT, name), DT) for name in ALL_NAMES)
    assert [d.name for d in DT.all()] == ALL_NAMES


def test_datatype_default_aliases():
    assert DT.DEFAULT_CONST_INT is DT.INT64
    assert DT.DEFAULT_CONST_FLOAT is DT.FP32


@pytest.mark.parametrize("dtype, bits, nbytes, text, c_type", [
    (DT.BOOL, 8, 1, "bool", "bool"),
    (DT.INT4, 4, 1, "int4", "int4_t"),
    (DT.INT32, 32, 4, "int32", "int32_t"),
    (DT.INT64, 64, 8, "int64", "int64_t"),
    (DT.UINT16, 16, 2, "uint16", "uint16_t"),
    (DT.FP16, 16, 2, "fp16", "half"),
    (DT.FP32, 32, 4, "fp32", "float"),
    (DT.BF16, 16, 2, "bfloat16", "bfloat16_t"),
    (DT.INDEX, 64, 8, "index", "int64_t"),
])
def test_datatype_sizes_and_names(dtype, bits, nbytes, text, c_type):
    assert dtype.get_bit() == bits
    assert dtype.get_byte() == nbytes
    assert dtype.to_string() == str(dtype) == text
    assert dtype.to_c_type_string() == c_type


@pytest.mark.parametrize("dtype, is_float, is_int, signed, unsigned", [
    (DT.BOOL, False, False, False, False),
    (DT.INT8, False, True, True, False),
    (DT.INDEX, False, True, True, False),
    (DT.UINT32, False, True, False, True),
    (DT.FP8E4M3FN, True, False, False, False),
    (DT.BF16, True, False, False, False),
    (DT.HF8, True, False, False, False),
    (DT.TASK_ID, False, False, False, False),
])
def test_datatype_categories(dtype, is_float, is_int, signed, unsigned):
    assert (dtype.is_float(), dtype.is_int(), dtype.is_signed_int(),
            dtype.is_unsigned_int()) == (is_float, is_int, signed, unsigned)


def test_datatype_equality_and_hash_by_code():
    codes = [d.code() for d in DT.all()]
    assert len(set(codes)) == len(codes)
    assert DT.FP32 == DT("FP32") and DT("FP32") is DT.FP32
    assert DT.INDEX != DT.INT64  # distinct except in the two equality contexts of §13.4
    assert {DT.FP32: 1}[DT("FP32")] == 1
    assert len({hash(d) for d in DT.all()}) == len(codes)


def test_datatype_is_immutable_and_unknown_names_rejected():
    with pytest.raises(AttributeError):
        DT.FP32.foo = 1  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="Unknown DataType 'FP128'"):
        DT("FP128")
    assert DT.from_string("bfloat16") is DT.BF16
    assert DT.from_string("float32") is DT.FP32
    with pytest.raises(ValueError, match="Unknown dtype string 'nope'"):
        DT.from_string("nope")


# -- enums ----------------------------------------------------------------------------

def _members(enum_cls):
    return {name: int(member) for name, member in enum_cls.__members__.items()
            if member.name == name}


def test_function_type_members():
    assert _members(ir.FunctionType) == {
        "Opaque": 0, "Orchestration": 1, "InCore": 2, "AIC": 3, "AIV": 4, "Group": 5,
        "Spmd": 6, "Inline": 7, "Graph": 8}
    assert len(ir.FunctionType) == 9


def test_level_members_and_aliases():
    assert _members(ir.Level) == {
        "AIV": 0, "AIC": 1, "CORE_GROUP": 2, "CHIP_DIE": 3, "CHIP": 4, "HOST": 5,
        "CLUSTER_0": 6, "CLUSTER_1": 7, "CLUSTER_2": 8, "GLOBAL": 9}
    aliases = {"L2CACHE": "CHIP_DIE", "PROCESSOR": "CHIP", "UMA": "CHIP", "NODE": "HOST",
               "POD": "CLUSTER_0", "CLOS1": "CLUSTER_1", "CLOS2": "CLUSTER_2"}
    for alias, primary in aliases.items():
        assert getattr(ir.Level, alias) is getattr(ir.Level, primary)
        assert getattr(ir.Level, alias).name == primary
    assert ir.Level.POD is ir.Level.CLUSTER_0


@pytest.mark.parametrize("enum_cls, expected", [
    (ir.Role, {"Orchestrator": 0, "SubWorker": 1}),
    (ir.ParamDirection, {"In": 0, "Out": 1, "InOut": 2}),
    (ir.ArgDirection, {"Input": 0, "Output": 1, "InOut": 2, "OutputExisting": 3, "NoDep": 4,
                       "Scalar": 5}),
    (ir.ForKind, {"Sequential": 0, "Parallel": 1, "Unroll": 2, "Pipeline": 3}),
    (ir.ScopeKind, {"InCore": 0, "Cluster": 2, "Hierarchy": 3, "Spmd": 4, "Runtime": 5,
                    "CommDomain": 6, "SplitAiv": 7, "Graph": 8}),
    (ir.SplitMode, {"NONE": 0, "UP_DOWN": 1, "LEFT_RIGHT": 2}),
    (ir.InlineLanguage, {"Python": 0}),
])
def test_enum_members(enum_cls, expected):
    assert issubclass(enum_cls, enum.IntEnum)
    assert _members(enum_cls) == expected


def test_memory_space_members_and_alias():
    assert list(ir.MemorySpace.__members__) == [
        "DDR", "Vec", "Mat", "Left", "Right", "Acc", "Bias", "LeftScale", "RightScale",
        "ScalarLocal"]
    assert ir.Mem is ir.MemorySpace


@pytest.mark.parametrize("level, linqu", [
    (ir.Level.AIV, 0), (ir.Level.AIC, 0), (ir.Level.CORE_GROUP, 0), (ir.Level.CHIP_DIE, 1),
    (ir.Level.CHIP, 2), (ir.Level.HOST, 3), (ir.Level.CLUSTER_0, 4), (ir.Level.CLUSTER_1, 5),
    (ir.Level.CLUSTER_2, 6), (ir.Level.GLOBAL, 7),
])
def test_level_to_linqu_level(level, linqu):
    assert ir.level_to_linqu_level(level) == linqu


def test_string_to_level_accepts_primary_names_and_aliases():
    for name in ("AIV", "AIC", "CORE_GROUP", "CHIP_DIE", "CHIP", "HOST", "CLUSTER_0",
                 "CLUSTER_1", "CLUSTER_2", "GLOBAL"):
        assert ir.string_to_level(name) is getattr(ir.Level, name)
    assert ir.string_to_level("POD") is ir.Level.CLUSTER_0
    assert ir.string_to_level("UMA").name == "CHIP"
    with pytest.raises(ValueError, match="Unknown Level value: chip"):
        ir.string_to_level("chip")


def test_string_to_role_accepts_upper_case():
    assert ir.string_to_role("Orchestrator") is ir.Role.Orchestrator
    assert ir.string_to_role("ORCHESTRATOR") is ir.Role.Orchestrator
    assert ir.string_to_role("SUBWORKER") is ir.Role.SubWorker
    with pytest.raises(ValueError, match="Unknown Role value: worker"):
        ir.string_to_role("worker")


def test_enum_str_uses_canonical_name():
    assert str(ir.Level.UMA) == "Level.CHIP"
    assert f"{ir.Role.SubWorker}" == "Role.SubWorker"

"""``DataType``: the element / scalar types of the DSL.

A class with constants (not an ``enum``), as in the public project: every
constant is a ``DataType`` instance, equality and hashing go by ``code()``.
"""

from __future__ import annotations

__all__ = ["DataType", "int_range"]

# name -> (code, bits, kind, c type); kind: b=bool, i=signed, u=unsigned, f=float, x=other
_TABLE: dict[str, tuple[int, int, str, str]] = {
    "BOOL": (0, 8, "b", "bool"),
    "INT4": (1, 4, "i", "int4_t"),
    "INT8": (2, 8, "i", "int8_t"),
    "INT16": (3, 16, "i", "int16_t"),
    "INT32": (4, 32, "i", "int32_t"),
    "INT64": (5, 64, "i", "int64_t"),
    "UINT4": (6, 4, "u", "uint4_t"),
    "UINT8": (7, 8, "u", "uint8_t"),
    "UINT16": (8, 16, "u", "uint16_t"),
    "UINT32": (9, 32, "u", "uint32_t"),
    "UINT64": (10, 64, "u", "uint64_t"),
    "FP4": (11, 4, "f", "fp4_t"),
    "FP8E4M3FN": (12, 8, "f", "float8_e4m3_t"),
    "FP8E5M2": (13, 8, "f", "float8_e5m2_t"),
    "FP8E8M0": (14, 8, "f", "float8_e8m0_t"),
    "FP16": (15, 16, "f", "half"),
    "FP32": (16, 32, "f", "float"),
    "BF16": (17, 16, "f", "bfloat16_t"),
    "HF4": (18, 4, "f", "hifloat4_t"),
    "HF8": (19, 8, "f", "hifloat8_t"),
    "INDEX": (20, 64, "i", "int64_t"),
    "TASK_ID": (21, 64, "x", "uint64_t"),
}


class DataType:
    """An IR data type.  Use the class constants (``DataType.FP32``)."""

    __slots__ = ("_name",)
    _name: str

    # Populated below; declared for type checkers.
    BOOL: "DataType"; INT4: "DataType"; INT8: "DataType"; INT16: "DataType"
    INT32: "DataType"; INT64: "DataType"; UINT4: "DataType"; UINT8: "DataType"
    UINT16: "DataType"; UINT32: "DataType"; UINT64: "DataType"; FP4: "DataType"
    FP8E4M3FN: "DataType"; FP8E5M2: "DataType"; FP8E8M0: "DataType"; FP16: "DataType"
    FP32: "DataType"; BF16: "DataType"; HF4: "DataType"; HF8: "DataType"
    INDEX: "DataType"; TASK_ID: "DataType"
    DEFAULT_CONST_INT: "DataType"; DEFAULT_CONST_FLOAT: "DataType"

    def __new__(cls, name: str) -> "DataType":
        existing = _BY_NAME.get(name)
        if existing is not None:
            return existing
        if name not in _TABLE:
            raise ValueError(f"Unknown DataType '{name}'; expected one of {', '.join(_TABLE)}")
        self = object.__new__(cls)
        object.__setattr__(self, "_name", name)
        _BY_NAME[name] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("DataType is immutable")

    def __reduce__(self) -> tuple[type[DataType], tuple[str]]:
        return (DataType, (self._name,))

    @property
    def name(self) -> str:
        """Upper-case DSL name, e.g. ``"FP32"``."""
        return self._name

    def code(self) -> int:
        return _TABLE[self._name][0]

    def get_bit(self) -> int:
        return _TABLE[self._name][1]

    def get_byte(self) -> int:
        return (_TABLE[self._name][1] + 7) // 8

    def is_float(self) -> bool:
        return _TABLE[self._name][2] == "f"

    def is_int(self) -> bool:
        return _TABLE[self._name][2] in "iu"

    def is_signed_int(self) -> bool:
        return _TABLE[self._name][2] == "i"

    def is_unsigned_int(self) -> bool:
        return _TABLE[self._name][2] == "u"

    def is_bool(self) -> bool:
        return self._name == "BOOL"

    def to_string(self) -> str:
        return "bfloat16" if self._name == "BF16" else self._name.lower()

    def to_c_type_string(self) -> str:
        return _TABLE[self._name][3]

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"DataType.{self._name}"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return _TABLE[self._name][0] * 0x9E3779B1 & 0xFFFFFFFF

    @staticmethod
    def all() -> list["DataType"]:
        return [DataType(n) for n in _TABLE]

    @staticmethod
    def from_string(text: str) -> "DataType":
        """Parse ``"fp32"``, ``"FP32"``, ``"float32"``, ``"bfloat16"``, ... ."""
        key = text.strip()
        found = _ALIASES.get(key.lower())
        if found is None:
            raise ValueError(f"Unknown dtype string '{text}'")
        return DataType(found)


_BY_NAME: dict[str, DataType] = {}
for _name in _TABLE:
    setattr(DataType, _name, DataType(_name))  # type.__setattr__: class attribute
DataType.DEFAULT_CONST_INT = DataType.INT64
DataType.DEFAULT_CONST_FLOAT = DataType.FP32

_ALIASES: dict[str, str] = {n.lower(): n for n in _TABLE}
_ALIASES.update({
    "bfloat16": "BF16", "float16": "FP16", "half": "FP16", "float32": "FP32",
    "float": "FP32", "int": "INT64", "bool_": "BOOL", "float8_e4m3fn": "FP8E4M3FN",
    "float8_e5m2": "FP8E5M2",
})


def int_range(dtype: DataType) -> tuple[int, int] | None:
    """The values an integer dtype holds (``INDEX`` is 64-bit signed); ``None`` if it is
    no integer dtype."""
    _, bits, kind, _ = _TABLE[dtype.name]
    if kind == "i":
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if kind == "u":
        return 0, (1 << bits) - 1
    return None

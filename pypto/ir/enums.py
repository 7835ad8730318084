"""IR enumerations (``enum.IntEnum``), re-exported by the DSL as ``pl.Level`` etc."""

from __future__ import annotations

import enum

from .._core_enum import CoreEnumRepr
__all__ = [
    "FunctionType", "ScopeKind", "Level", "Role", "ParamDirection", "ArgDirection",
    "ForKind", "SplitMode", "MemorySpace", "Mem", "CoreType", "WriteChannel", "NotifyOp",
    "ReduceOp", "WaitCmp", "InlineLanguage", "TensorLayout",
    "TileLayout", "ScopeMode", "PipeType", "PadValue", "AtomicType", "CompactMode",
    "level_to_linqu_level", "string_to_level", "string_to_role",
]


class IREnum(CoreEnumRepr, enum.IntEnum):
    """IntEnum that prints as ``Level.CHIP`` (canonical member name, also for aliases),
    in ``str`` and, as PyPTO's core enums, in ``repr``."""

    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class FunctionType(IREnum):
    Opaque = 0
    Orchestration = 1
    InCore = 2
    AIC = 3
    AIV = 4
    Group = 5
    Spmd = 6
    Inline = 7
    Graph = 8


# Bodies that are one automatic scope unless ``auto_scope=False``: a hand-placed AUTO
# ``pl.scope()`` in them needs it off (PyPTO's parser rule, Graph included; Inline
# bodies are spliced into such functions).  Parser, InlineFunctions and the outliners
# read it.
AUTO_SCOPED_FUNCTION_TYPES = frozenset((FunctionType.Opaque, FunctionType.Orchestration,
                                        FunctionType.Graph, FunctionType.Inline))


class ScopeKind(IREnum):
    InCore = 0
    Cluster = 2
    Hierarchy = 3
    Spmd = 4
    Runtime = 5
    CommDomain = 6
    SplitAiv = 7
    Graph = 8


class Level(IREnum):
    AIV = 0
    AIC = 1
    CORE_GROUP = 2
    CHIP_DIE = 3
    CHIP = 4
    HOST = 5
    CLUSTER_0 = 6
    CLUSTER_1 = 7
    CLUSTER_2 = 8
    GLOBAL = 9
    # Aliases: same value, so ``Level.POD is Level.CLUSTER_0`` and ``.name`` is canonical.
    L2CACHE = 3
    PROCESSOR = 4
    UMA = 4
    NODE = 5
    POD = 6
    CLOS1 = 7
    CLOS2 = 8


class Role(IREnum):
    Orchestrator = 0
    SubWorker = 1


class ParamDirection(IREnum):
    In = 0
    Out = 1
    InOut = 2


class ArgDirection(IREnum):
    Input = 0
    Output = 1
    InOut = 2
    OutputExisting = 3
    NoDep = 4
    Scalar = 5


class ForKind(IREnum):
    Sequential = 0
    Parallel = 1
    Unroll = 2
    Pipeline = 3


class SplitMode(IREnum):
    NONE = 0
    UP_DOWN = 1
    LEFT_RIGHT = 2


class MemorySpace(IREnum):
    DDR = 0
    Vec = 1
    Mat = 2
    Left = 3
    Right = 4
    Acc = 5
    Bias = 6
    # PyPTO's values, in its declaration order (ScalarLocal came first, as 7).
    LeftScale = 8
    RightScale = 9
    ScalarLocal = 7


Mem = MemorySpace


class CoreType(IREnum):
    CUBE = 0
    VECTOR = 1


class WriteChannel(IREnum):
    """How an op writes its output: by DMA or by scalar stores."""

    Dma = 0
    Scalar = 1


class NotifyOp(IREnum):
    """How a distributed notify changes the remote signal."""

    AtomicAdd = 0
    Set = 1


class ReduceOp(IREnum):
    """The combining operation of a collective."""

    Sum = 0
    Max = 1
    Min = 2
    Prod = 3


class WaitCmp(IREnum):
    """How a distributed wait compares the signal with its target."""

    Eq = 0
    Ge = 1


class InlineLanguage(IREnum):
    Python = 0


class TensorLayout(IREnum):
    ND = 0
    DN = 1
    NZ = 2
    MX_A_ZZ = 3
    MX_B_NN = 4


class TileLayout(IREnum):
    none_box = 0
    row_major = 1
    col_major = 2


class ScopeMode(IREnum):
    AUTO = 0
    MANUAL = 1

    def __repr__(self) -> str:
        # PyPTO's ScopeMode is a Python enum (pypto.language.scope), not a core one.
        return f"<{type(self).__name__}.{self.name}: {self.value}>"


class PipeType(IREnum):
    MTE1 = 0
    MTE2 = 1
    MTE3 = 2
    M = 3
    V = 4
    S = 5
    FIX = 6
    ALL = 7


class PadValue(IREnum):
    null = 0
    zero = 1
    max = 2
    min = 3


class AtomicType(IREnum):
    """What a store-like op does with the target's old value (PyPTO's names and values)."""

    None_ = 0
    Add = 1


class CompactMode(IREnum):
    null = 0
    normal = 1


_LINQU = {
    Level.AIV: 0, Level.AIC: 0, Level.CORE_GROUP: 0, Level.CHIP_DIE: 1, Level.CHIP: 2,
    Level.HOST: 3, Level.CLUSTER_0: 4, Level.CLUSTER_1: 5, Level.CLUSTER_2: 6, Level.GLOBAL: 7,
}


def level_to_linqu_level(level: Level) -> int:
    """Position of ``level`` in the machine hierarchy (0 = a core group or below)."""
    return _LINQU[Level(level)]


def string_to_level(text: str) -> Level:
    """Accept the 10 canonical names and the 7 aliases (exact spelling)."""
    member = Level.__members__.get(text)
    if member is None:
        valid = ", ".join(Level.__members__)
        raise ValueError(f"Unknown Level value: {text}. Valid values: {valid}")
    return member


def string_to_role(text: str) -> Role:
    """Accept ``Orchestrator``/``SubWorker`` and their upper-case spellings."""
    for member in Role:
        if text in (member.name, member.name.upper()):
            return member
    raise ValueError(f"Unknown Role value: {text}. Valid values: Orchestrator, SubWorker")

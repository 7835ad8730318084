"""The op registry: every op is declared once, as data (01-language.md §12, 02-ir.md §11).

An ``OpDef`` is the whole truth about one op:

* ``params``: the IR operands in PyPTO's order and names (``ParamSpec``: kind, effect,
  whether it may be omitted and what goes in its place when it is, see ``fill``);
* ``keywords``: the attributes (``KwargSpec``: value kind, PyPTO's default, ``hidden``
  for attributes PyPTO's wrapper sets itself and never takes from the user);
* ``deduce``: the type rule;
* ``semantics``: what the CPU executor does, as data (``Semantics``: a kernel name the
  runtime looks up, with its parameters; or ``DEVICE_ONLY``) — the IR layer never
  imports the runtime;
* ``pl``/``ir``: the signatures of PyPTO's 1:1 wrappers ``pl.<ns>.<op>`` and
  ``ir.op.<ns>.<op>``, as a spec string when they differ from what the operands and
  attributes imply (``signature.py``), or ``None`` where PyPTO has no such wrapper.

``create_op_call`` (``call.py``), the generated wrapper modules, the parser, the printer,
the outliners, the verifiers and the executor all read these declarations, so adding an
op is adding one entry (+ a rule or kernel if no existing one fits).
"""

from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from ..._core_enum import CoreEnumRepr
from ..node import Op
from ..types import Type
from .kinds import (BOOL, DTYPE, FLOAT, INT, INT_TUPLE, STR, TYPE, ArgKind, BadKwargValue,
                    ValueKind, enum_kind)

__all__ = ["Effect", "ArgKind", "ValueKind", "ParamSpec", "KwargSpec", "OpDef", "DeduceRule",
           "Semantics", "DEVICE_ONLY", "DERIVED", "EMPTY", "BOOL", "INT", "FLOAT", "STR",
           "DTYPE", "INT_TUPLE", "TYPE", "enum_kind", "BadKwargValue",
           "register_op", "get_op", "is_op_registered", "list_ops", "find_op", "ops_in"]

_set = object.__setattr__

# A deduction rule gets the (converted, kind-checked) operands and the canonical
# attributes, and returns the result type.  It raises ValueError for shape/dtype
# problems *without* naming the op: create_op_call prefixes the name.
DeduceRule = Callable[[tuple, Mapping[str, Any]], Type]

# ``ParamSpec.fill``: an omitted operand followed by a given one becomes ``[]``.
EMPTY = "[]"
# ``OpDef(pl=..., ir=...)``: the wrapper's signature follows from the entry.
DERIVED = "derived"


class ArgEffect(CoreEnumRepr, enum.Enum):
    """What an op does to the storage behind one operand."""

    Read = 0
    Write = 1
    ReadWrite = 2


Effect = ArgEffect  # the name pypto's own code uses


@dataclass(frozen=True)
class ParamSpec:
    """One operand.

    ``optional`` operands are trailing; an omitted one is left out of the call when
    nothing after it is given.  ``fill`` says what stands in its place otherwise — or
    always, when it names another operand (PyPTO's ``tile.load`` carries
    ``valid_shape`` = ``shapes`` when the user gives none): ``EMPTY`` (``[]``), the
    name of an earlier operand (a copy of it), or ``None`` (omitting it before a
    given operand is an error).  ``read_write_if`` names an attribute that, when set
    to a truthy value, turns a ``Write`` effect into ``ReadWrite`` (atomic stores).
    ``enum``: an ``IntEnum`` whose members the operand accepts as their value
    (``pl.tile.alloc(pl.Mem.Vec, 1024)``); the printer prints the member again.
    """

    name: str
    kind: ArgKind
    effect: Effect = Effect.Read
    optional: bool = False
    read_write_if: str | None = None
    fill: str | None = None
    enum: type[enum.IntEnum] | None = None


@dataclass(frozen=True)
class KwargSpec:
    """One attribute.  ``choices`` restricts the (canonical) value; ``hidden``
    attributes are not wrapper parameters: they always hold ``default`` and are not
    printed (PyPTO's wrapper sets them itself)."""

    name: str
    value: ValueKind
    default: Any = None
    required: bool = False
    choices: tuple | None = None
    hidden: bool = False


@dataclass(frozen=True)
class Semantics:
    """The executor meaning of an op, as data: ``kernel`` names a NumPy kernel family
    of ``pypto.runtime`` (``"binary"``, ``"reduce"`` ...), ``args`` its parameters
    (e.g. ``("add",)``).  ``DEVICE_ONLY`` ops are refused by name."""

    kernel: str
    args: tuple = ()


DEVICE_ONLY = Semantics("device_only")


class OpDef(Op):
    """A registered op.  ``name`` is the qualified name (``tensor.add``).

    ``compute`` marks tensor ops that do arithmetic; the SplitIncoreOrch verifier
    warns when they appear directly in an orchestration body.  ``aliases`` are extra
    wrapper names for the same op (``create_tensor`` for ``tensor.create``);
    ``scalar_form`` the op (short name) PyPTO's wrapper builds instead when the second
    operand is a scalar (``pl.tensor.add(t, 2.0)`` is ``tensor.adds``).

    Two kinds of wrapper parameters are neither operands nor attributes:
    ``type_params`` only decide the result type (``tpop_from_aic(shape=, dtype=)``:
    the rule reads them with the attributes, the Call does not keep them, the printer
    reads them back off the result type: ``shape``/``dtype`` are its fields);
    ``call_attrs`` are kept in the Call's ``attrs`` under their own name and printed
    as keywords (``task_dummy(deps=[...])``).

    ``router``: for an op PyPTO has no wrapper of its own for (``pl=None``), the
    PyPTO wrapper of the namespace that builds it and that wrapper's layout for it, as
    ``(name, spec)`` (``("gather", "input, *, mask_pattern, output_dtype")`` for
    ``tensor.gather_mask``; ``"pl.aic_gather"`` names a unified op): the printer writes
    the call through it, so PyPTO reads the text back; pypto's router of that name
    builds the op again.
    """

    __slots__ = ("params", "keywords", "deduce", "compute", "doc", "semantics", "pl", "ir",
                 "aliases", "scalar_form", "type_params", "call_attrs", "router", "written",
                 "_min_args")
    params: tuple[ParamSpec, ...]
    keywords: tuple[KwargSpec, ...]
    deduce: DeduceRule
    compute: bool
    doc: str
    semantics: Semantics | None
    pl: str | None
    ir: str | None
    aliases: tuple[str, ...]
    scalar_form: str | None
    type_params: tuple[KwargSpec, ...]
    call_attrs: tuple[str, ...]
    router: tuple[str, str] | None
    written: tuple[tuple[int, ParamSpec], ...]
    _min_args: int

    def __init__(self, name: str, params: Iterable[ParamSpec], deduce: DeduceRule,
                 keywords: Iterable[KwargSpec] = (), compute: bool = False, doc: str = "",
                 semantics: Semantics | None = None, pl: str | None = DERIVED,
                 ir: str | None = DERIVED, aliases: Iterable[str] = (),
                 scalar_form: str | None = None, type_params: Iterable[KwargSpec] = (),
                 call_attrs: Iterable[str] = (), router: tuple[str, str] | None = None) -> None:
        super().__init__(name)
        if "." not in name:
            raise ValueError(f"OpDef: op name '{name}' must be qualified ('<namespace>.<op>')")
        params = tuple(params)
        keywords = tuple(keywords)
        type_params = tuple(type_params)
        call_attrs = tuple(call_attrs)
        _check_params(name, params, keywords + type_params, call_attrs)
        _set(self, "params", params)
        _set(self, "keywords", keywords)
        _set(self, "deduce", deduce)
        _set(self, "compute", bool(compute))
        _set(self, "doc", doc)
        _set(self, "semantics", semantics)
        _set(self, "pl", pl)
        _set(self, "ir", ir)
        _set(self, "aliases", tuple(aliases))
        _set(self, "scalar_form", scalar_form)
        _set(self, "type_params", type_params)
        _set(self, "call_attrs", call_attrs)
        _set(self, "router", router)
        # The operands the op may write, with their specs: what an analysis asking for
        # an op call's written arguments looks at (most ops write none).
        _set(self, "written", tuple((index, spec) for index, spec in enumerate(params)
                                    if spec.effect is not Effect.Read))
        # (counted once: every op call checks its operand count against it)
        _set(self, "_min_args", sum(1 for p in params if not p.optional))

    @property
    def namespace(self) -> str:
        """``"tensor"`` for ``tensor.add``."""
        return self.name.rsplit(".", 1)[0]

    @property
    def short_name(self) -> str:
        """``"add"`` for ``tensor.add``."""
        return self.name.rsplit(".", 1)[1]

    @property
    def min_args(self) -> int:
        return self._min_args

    @property
    def max_args(self) -> int:
        return len(self.params)

    def get_attr_keys(self) -> list[str]:
        """PyPTO's attribute names of the op (its keywords, hidden ones included)."""
        return [spec.name for spec in self.keywords]

    def param_index(self, name: str) -> int | None:
        for index, spec in enumerate(self.params):
            if spec.name == name:
                return index
        return None

    def keyword(self, name: str) -> KwargSpec | None:
        for spec in self.keywords:
            if spec.name == name:
                return spec
        return None

    def type_param(self, name: str) -> KwargSpec | None:
        for spec in self.type_params:
            if spec.name == name:
                return spec
        return None

    def arg_effect(self, index: int, kwargs: Mapping[str, Any]) -> Effect:
        """Effect on operand ``index`` given the call's attributes."""
        spec = self.params[index]
        if spec.effect is Effect.Write and spec.read_write_if is not None \
                and kwargs.get(spec.read_write_if):
            return Effect.ReadWrite
        return spec.effect

    # A registered op is a singleton: copies and unpickled objects are the registry entry.
    def __reduce__(self) -> tuple:
        return (get_op, (self.name,))

    def __copy__(self) -> "OpDef":
        return self

    def __deepcopy__(self, memo: dict) -> "OpDef":
        return self

    def __repr__(self) -> str:
        return f"OpDef({self.name!r})"


def _check_params(name: str, params: tuple, keywords: tuple, call_attrs: tuple) -> None:
    seen_optional = False
    for index, spec in enumerate(params):
        if seen_optional and not spec.optional:
            raise ValueError(f"OpDef '{name}': required operand '{spec.name}' follows an "
                             "optional one")
        seen_optional = seen_optional or spec.optional
        if spec.fill not in (None, EMPTY) and spec.fill not in [p.name for p in params[:index]]:
            raise ValueError(f"OpDef '{name}': operand '{spec.name}' is filled from unknown "
                             f"operand '{spec.fill}'")
    names = [p.name for p in params] + [k.name for k in keywords] + list(call_attrs)
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"OpDef '{name}': duplicate parameter name(s) {duplicates}")
    keyword_names = {k.name for k in keywords}
    for spec in params:
        if spec.read_write_if is not None and spec.read_write_if not in keyword_names:
            raise ValueError(f"OpDef '{name}': operand '{spec.name}' depends on unknown "
                             f"attribute '{spec.read_write_if}'")


_OPS: dict[str, OpDef] = {}


def register_op(op: OpDef) -> OpDef:
    """Add ``op`` to the registry; a second op with the same name is rejected."""
    if not isinstance(op, OpDef):
        raise TypeError(f"register_op expects an OpDef, got {type(op).__name__}")
    if op.name in _OPS:
        raise ValueError(f"Op '{op.name}' is already registered")
    _OPS[op.name] = op
    return op


def find_op(name: str) -> OpDef | None:
    """The registered op called ``name``, or ``None``."""
    return _OPS.get(name) if isinstance(name, str) else None


def get_op(op_name: str) -> OpDef:
    """The registered op called ``op_name``; ``ValueError`` naming it if unknown."""
    name = op_name
    if not isinstance(name, str):
        raise TypeError(f"get_op expects an op name (str), got {type(name).__name__}")
    op = _OPS.get(name)
    if op is None:
        close = difflib.get_close_matches(name, list(_OPS), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise ValueError(f"Unknown op '{name}': it is not registered{hint}")
    return op


def is_op_registered(op_name: str) -> bool:
    return isinstance(op_name, str) and op_name in _OPS


def list_ops() -> list[str]:
    """Every registered op name, sorted."""
    return sorted(_OPS)


def ops_in(namespace: str) -> list[OpDef]:
    """The registered ops of ``namespace`` (``"tensor"``), in registration order."""
    return [op for op in _OPS.values() if op.namespace == namespace]

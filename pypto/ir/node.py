"""Base classes of the IR: ``IRNode``, ``Expr``, ``Stmt``, ``Op``.

Every concrete node class declares its structural fields once, in ``_fields``, as
``(name, FieldKind)`` pairs in comparison order.  Structural equality, hashing,
the visitor/mutator and ``replace`` all read that table, so adding a node means
declaring its fields, not editing five algorithms.

Nodes are immutable: all state lives in ``__slots__`` written once by the
constructor (through ``object.__setattr__``); ``node.x = ...`` raises
``AttributeError``.  Sequence fields are stored as tuples.
"""

from __future__ import annotations

import enum
import itertools
import collections.abc as _abc
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, TypeVar

from .span import Span

if TYPE_CHECKING:
    from .types import Type

__all__ = ["FieldKind", "IRNode", "Expr", "Stmt", "Op", "GlobalVar", "snake_case",
           "attach_leading_comments", "check_type", "as_tuple"]

_set = object.__setattr__
# Variables' ``unique_id``s (``expr.Var``, ``MemRef``): here, so a generated ``replace``
# can number the Var it rebuilds.
_ids = itertools.count(1)


class FieldKind(enum.Enum):
    """How structural equality treats a field."""

    USUAL = 0   # compared in the current mode
    DEF = 1     # a definition site: compared with variable auto-mapping forced on
    IGNORE = 2  # metadata (spans, names, comments): never compared or hashed


def snake_case(name: str) -> str:
    """``TupleGetItemExpr`` -> ``tuple_get_item_expr`` (visitor hook names)."""
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and (not name[i - 1].isupper()
                                   or (i + 1 < len(name) and name[i + 1].islower())):
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def check_type(owner: str, field: str, value: Any, expected: type | tuple[type, ...],
               expected_text: str) -> None:
    """Raise ``TypeError`` naming ``owner.field`` when ``value`` has the wrong type."""
    if not isinstance(value, expected):
        raise TypeError(f"{owner}: field '{field}' expects {expected_text}, "
                        f"got {type(value).__name__}")


def as_tuple(owner: str, field: str, items: Any, expected: type | tuple[type, ...],
             expected_text: str) -> tuple:
    """Copy a sequence argument into a tuple, checking every element's type."""
    kind = type(items)
    if kind is not tuple and kind is not list and (
            isinstance(items, (str, bytes)) or not isinstance(items, _abc.Iterable)):
        raise TypeError(f"{owner}: field '{field}' expects a list of {expected_text}, "
                        f"got {type(items).__name__}")
    out = tuple(items)
    # Every node constructor with a list field passes through here: the loop only
    # checks, and the index for the message is found once something fails.
    for item in out:
        if not isinstance(item, expected):
            break
    else:
        return out
    i = next(i for i, item in enumerate(out) if not isinstance(item, expected))
    raise TypeError(f"{owner}: field '{field}[{i}]' expects {expected_text}, "
                    f"got {type(out[i]).__name__}")


def _slot_descriptor(cls: type, slot: str) -> Any:
    for klass in cls.__mro__:
        if slot in klass.__dict__.get("__slots__", ()):
            return klass.__dict__[slot]
    raise AttributeError(slot)


def _unknown_field(cls: type, unknown: dict) -> None:
    raise TypeError(f"{cls.__name__}.replace: unknown field '{next(iter(unknown))}'")


def _replacer(cls: type, slot_of: dict[str, str]) -> Any:
    """``replace`` for ``cls``, generated once: one keyword per field (a private slot
    also under its name without the underscore, ``attrs`` -> ``_attrs``), each slot
    set in one straight line.  Lists become tuples (sequence fields are immutable)."""
    slots = cls._all_slots  # type: ignore[attr-defined]
    # Helper names end in "_": no field is spelled that way (``tuple`` and ``type`` are).
    names: dict[str, Any] = {"new_object_": object.__new__, "cls_": cls, "KEEP_": _KEEP,
                             "unknown_field_": _unknown_field, "to_tuple_": tuple,
                             "next_id_": _ids.__next__}
    aliases = {slot: [key for key, target in slot_of.items() if target == slot and key != slot]
               for slot in slots}
    params = [f"{key}=KEEP_" for slot in slots for key in (slot, *aliases[slot])]
    lines = [f"def replace(node_, *, {', '.join(params)}, **unknown_):",
             "    if unknown_:", "        unknown_field_(cls_, unknown_)",
             "    new_ = new_object_(cls_)"]
    for i, slot in enumerate(slots):
        names[f"set_{i}_"] = _slot_descriptor(cls, slot).__set__
        if slot == "unique_id":  # a rebuilt Var is a new variable, whatever is given
            lines.append(f"    set_{i}_(new_, next_id_())")
            continue
        value = f"node_.{slot}"
        for key in (slot, *aliases[slot]):  # a later spelling wins, as keywords would
            value = f"(({key} if {key}.__class__ is not list else to_tuple_({key})) " \
                    f"if {key} is not KEEP_ else {value})"
        lines.append(f"    set_{i}_(new_, {value})")
    lines.append("    return new_")
    exec("\n".join(lines), names)  # noqa: S102 -- generated from the class's own slot names
    replace = names["replace"]
    replace.generated = True
    return replace


def _custom_replace(klass: type) -> bool:
    """Does ``klass`` define its own ``replace`` (not a generated one)?"""
    found = klass.__dict__.get("replace")
    return found is not None and not getattr(found, "generated", False)


_KEEP = object()  # "field not given" in generated ``replace`` signatures


_NodeT = TypeVar("_NodeT", bound="IRNode")


class IRNode:
    """Root of every IR node.  Carries a ``span`` (never compared)."""

    __slots__ = ("span",)
    span: Span
    _fields: ClassVar[tuple[tuple[str, FieldKind], ...]] = ()
    _visit_name: ClassVar[str] = "visit_ir_node"

    _all_slots: ClassVar[tuple[str, ...]] = ("span",)
    _slot_of: ClassVar[dict[str, str]] = {"span": "span"}
    _fast_replace: ClassVar[Any]  # the generated ``replace`` (``_replacer``)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._visit_name = "visit_" + snake_case(cls.__name__)
        cls._all_slots = tuple(slot for klass in reversed(cls.__mro__)
                               for slot in klass.__dict__.get("__slots__", ()))
        # ``replace`` keyword -> slot: a slot by its own name, a private slot also
        # without its underscore (``attrs`` -> ``_attrs``)
        slot_of = {slot[1:]: slot for slot in cls._all_slots if slot.startswith("_")}
        slot_of.update((slot, slot) for slot in cls._all_slots)
        cls._slot_of = slot_of
        cls._fast_replace = _replacer(cls, slot_of)
        if not any(_custom_replace(klass) for klass in cls.__mro__
                   if klass is not IRNode and issubclass(klass, IRNode)):
            cls.replace = cls._fast_replace  # type: ignore[method-assign]  # none customises it

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set '{name}'")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete '{name}'")

    __hash__ = object.__hash__

    def __reduce__(self) -> tuple:
        """Pickle and copy by slots (``pickling.py``): a rebuilt Var is a new variable."""
        from .pickling import reduce_slots
        return reduce_slots(self)

    def same_as(self, other: object) -> bool:
        """Object identity (a Var is its object, never its name)."""
        return self is other

    def replace(self: _NodeT, **changes: Any) -> _NodeT:
        """A copy of this node with the given fields replaced (no re-validation).

        Fields not named keep their values (span, comments, kind, attrs ...).
        Used by passes and the mutator to rebuild only what changed.  Every node class
        gets a generated version of this (``_replacer``); this body serves the classes
        that customise ``replace`` and call through to it.
        """
        return type(self)._fast_replace(self, **changes)

    def as_python(self, prefix: str = "pl", concise: bool = False, format: bool = True) -> str:
        from .printer import python_print
        return python_print(self, prefix=prefix, concise=concise, format=format)

    def __str__(self) -> str:
        return self.as_python()

    def __repr__(self) -> str:
        from .display import one_line_repr
        return one_line_repr(self)

    # -- notebook display (display.py) ------------------------------------------------
    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        from .display import display_text
        printer.text(display_text(self))

    def _repr_html_(self) -> str:
        from .display import html_of
        return html_of(self)

    def _repr_markdown_(self) -> str:
        from .display import markdown_of
        return markdown_of(self)


class Expr(IRNode):
    """An expression.  ``type`` is always available.

    Python operators build IR (``a + b`` is an ``Add`` node), so ``==`` does
    not test equality: compare nodes with ``is``, ``same_as`` or
    ``ir.structural_equal``.  Hashing is by identity.
    """

    __slots__ = ("type",)
    type: Type
    __hash__ = IRNode.__hash__

    # -- operators: implemented by the scalar builder functions ----------------
    def _bin(self, name: str, other: Any, reflected: bool = False) -> Expr:
        from . import builders
        fn = getattr(builders, name)
        span = builders.caller_span(3)
        return fn(other, self, span=span) if reflected else fn(self, other, span=span)

    def __add__(self, o: Any) -> Expr: return self._bin("add", o)
    def __radd__(self, o: Any) -> Expr: return self._bin("add", o, True)
    def __sub__(self, o: Any) -> Expr: return self._bin("sub", o)
    def __rsub__(self, o: Any) -> Expr: return self._bin("sub", o, True)
    def __mul__(self, o: Any) -> Expr: return self._bin("mul", o)
    def __rmul__(self, o: Any) -> Expr: return self._bin("mul", o, True)
    def __truediv__(self, o: Any) -> Expr: return self._bin("truediv", o)
    def __rtruediv__(self, o: Any) -> Expr: return self._bin("truediv", o, True)
    def __floordiv__(self, o: Any) -> Expr: return self._bin("floordiv", o)
    def __rfloordiv__(self, o: Any) -> Expr: return self._bin("floordiv", o, True)
    def __mod__(self, o: Any) -> Expr: return self._bin("mod", o)
    def __rmod__(self, o: Any) -> Expr: return self._bin("mod", o, True)
    def __pow__(self, o: Any) -> Expr: return self._bin("pow", o)
    def __rpow__(self, o: Any) -> Expr: return self._bin("pow", o, True)
    def __and__(self, o: Any) -> Expr: return self._bin("bit_and", o)
    def __rand__(self, o: Any) -> Expr: return self._bin("bit_and", o, True)
    def __or__(self, o: Any) -> Expr: return self._bin("bit_or", o)
    def __ror__(self, o: Any) -> Expr: return self._bin("bit_or", o, True)
    def __xor__(self, o: Any) -> Expr: return self._bin("bit_xor", o)
    def __rxor__(self, o: Any) -> Expr: return self._bin("bit_xor", o, True)
    def __lshift__(self, o: Any) -> Expr: return self._bin("bit_shift_left", o)
    def __rlshift__(self, o: Any) -> Expr: return self._bin("bit_shift_left", o, True)
    def __rshift__(self, o: Any) -> Expr: return self._bin("bit_shift_right", o)
    def __rrshift__(self, o: Any) -> Expr: return self._bin("bit_shift_right", o, True)
    # (``==`` / ``!=`` build IR, not a bool: hence the override of object's)
    def __eq__(self, o: Any) -> Expr: return self._bin("eq", o)  # type: ignore[override]
    def __ne__(self, o: Any) -> Expr: return self._bin("ne", o)  # type: ignore[override]
    def __lt__(self, o: Any) -> Expr: return self._bin("lt", o)
    def __le__(self, o: Any) -> Expr: return self._bin("le", o)
    def __gt__(self, o: Any) -> Expr: return self._bin("gt", o)
    def __ge__(self, o: Any) -> Expr: return self._bin("ge", o)

    def __neg__(self) -> Expr:
        from . import builders
        return builders.neg(self, span=builders.caller_span(2))

    def __invert__(self) -> Expr:
        from . import builders
        return builders.bit_not(self, span=builders.caller_span(2))


class Stmt(IRNode):
    """A statement.  ``leading_comments`` are printed above it and never compared."""

    __slots__ = ("leading_comments",)
    leading_comments: tuple[str, ...]

    def _init_stmt(self, span: Span | None) -> None:
        _set(self, "span", span if span is not None else Span.unknown())
        _set(self, "leading_comments", ())


def attach_leading_comments(stmt: Stmt, comments: Iterable[str]) -> Stmt:
    """Set ``stmt``'s leading comments in place (the one sanctioned mutation)."""
    from .stmt import SeqStmts
    if isinstance(stmt, SeqStmts):
        raise ValueError("attach_leading_comments: SeqStmts cannot carry comments")
    if not isinstance(stmt, Stmt):
        raise TypeError(f"attach_leading_comments expects a Stmt, got {type(stmt).__name__}")
    _set(stmt, "leading_comments", as_tuple("attach_leading_comments", "comments",
                                            comments, str, "str"))
    return stmt


class Op:
    """An operation named by ``name``: a registered op or a ``GlobalVar``."""

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        check_type("Op", "name", name, str, "str")
        _set(self, "name", name)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple:
        from .pickling import reduce_slots
        return reduce_slots(self)

    def get_attr_keys(self) -> list[str]:
        """The names of the op's attributes (a registered op's keywords; none here)."""
        return []

    def has_attr(self, key: str) -> bool:
        return key in self.get_attr_keys()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class GlobalVar(Op):
    """Names a function of the program; used as ``Call.op``.  Not an ``Expr``."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GlobalVar) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("GlobalVar", self.name))

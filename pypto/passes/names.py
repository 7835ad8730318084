"""Auto-names minted by passes: ``base__[qualifier_][role_]vN`` (03-passes.md §5.1).

``__`` is reserved for pass-generated suffixes, so a user base never contains
it.  Qualifiers used in pypto: ``ssa idx iter rv phi tmp``.  A name that already
carries an auto suffix is re-versioned on its base (``x__ssa_v0`` -> ``x``).
Fixed pass-minted names (``<base>__store``) count as suffixed too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Container, NamedTuple

__all__ = ["RESERVED_DELIMITER", "AUTO_QUALIFIERS", "STORE_SUFFIX", "AutoName",
           "check_auto_name_base", "auto_name", "split_auto_name", "base_name", "source_name",
           "fresh_name_like", "NameAllocator"]

RESERVED_DELIMITER = "__"
AUTO_QUALIFIERS = ("ssa", "idx", "iter", "rv", "phi", "tmp")
STORE_SUFFIX = "__store"

_AUTO = re.compile(r"^(?P<base>.+?)__(?:(?P<q>[A-Za-z]+)_)?(?:(?P<r>[A-Za-z]+)_)?v(?P<v>\d+)$")
_WORD = re.compile(r"^[A-Za-z]+$")


class AutoName(NamedTuple):
    base: str
    qualifier: str
    role: str
    version: int


def check_auto_name_base(base: str) -> None:
    """``ValueError`` if ``base`` contains the reserved delimiter."""
    if not isinstance(base, str):
        raise TypeError(f"auto-name base expects a str, got {type(base).__name__}")
    if not base:
        raise ValueError("IR auto-name base must not be empty")
    if RESERVED_DELIMITER in base:
        raise ValueError(f"IR auto-name base cannot contain reserved delimiter '__': {base!r}")


# Passes ask about the same few names over and over (every minted version of ``acc``
# asks for ``acc``): the regex runs once per distinct name.  Bounded, for long sessions.
_NAME_CACHE_SIZE = 1 << 16


@lru_cache(maxsize=_NAME_CACHE_SIZE)
def split_auto_name(name: str) -> AutoName | None:
    """``"x__ssa_v3"`` -> ``AutoName("x", "ssa", "", 3)``; ``None`` for other names."""
    match = _AUTO.match(name)
    if match is None or RESERVED_DELIMITER in match.group("base"):
        return None
    return AutoName(match.group("base"), match.group("q") or "", match.group("r") or "",
                    int(match.group("v")))


@lru_cache(maxsize=_NAME_CACHE_SIZE)
def base_name(name: str) -> str:
    """The user base of ``name``: strips an auto suffix or ``__store``; else ``name``."""
    parsed = split_auto_name(name)
    if parsed is not None:
        return parsed.base
    if name.endswith(STORE_SUFFIX) and len(name) > len(STORE_SUFFIX) \
            and RESERVED_DELIMITER not in name[:-len(STORE_SUFFIX)]:
        return name[:-len(STORE_SUFFIX)]
    return name


def _format(base: str, qualifier: str, role: str, version: int) -> str:
    parts = "".join(f"{p}_" for p in (qualifier, role) if p)
    return f"{base}{RESERVED_DELIMITER}{parts}v{version}"


_PLAIN_WORDS = frozenset(("", *AUTO_QUALIFIERS))  # need no letters-only check


def auto_name(base: str, qualifier: str = "", version: int = 0, role: str = "") -> str:
    """``auto_name("x", "ssa", 0)`` -> ``"x__ssa_v0"``; an auto-named base is re-versioned."""
    if type(base) is not str and not isinstance(base, str):
        raise TypeError(f"auto_name: 'base' expects a str, got {type(base).__name__}")
    if type(version) is not int and (isinstance(version, bool) or not isinstance(version, int)) \
            or version < 0:
        raise ValueError(f"auto_name: 'version' must be a non-negative int, got {version!r}")
    if qualifier not in _PLAIN_WORDS or role not in _PLAIN_WORDS:
        for field, value in (("qualifier", qualifier), ("role", role)):
            if not isinstance(value, str) or (value and not _WORD.match(value)):
                raise ValueError(f"auto_name: '{field}' must be letters only, got {value!r}")
    base = base_name(base)
    check_auto_name_base(base)
    if role:
        return _format(base, qualifier, role, version)
    if qualifier:
        return f"{base}__{qualifier}_v{version}"
    return f"{base}__v{version}"


def fresh_name_like(name: str, taken: Container[str]) -> str:
    """The first version of ``name``'s auto form not in ``taken`` (and not ``name``).

    ``out__ssa_v0`` -> ``out__ssa_v1``; a plain ``out`` -> ``out__ssa_v0``.
    """
    return NameAllocator(taken).fresh_like(name)


class NameAllocator:
    """Mints fresh auto-names against a set of taken names.

    Remembers the next candidate version per (base, qualifier, role), so minting
    k names for one base costs O(k) in total rather than O(k^2).
    """

    def __init__(self, taken: Container[str] = ()) -> None:
        self._taken = taken
        self._minted: set[str] = set()
        self._next: dict[tuple[str, str, str], int] = {}

    def is_taken(self, name: str) -> bool:
        return name in self._minted or name in self._taken

    def reserve(self, name: str) -> None:
        self._minted.add(name)

    def fresh_like(self, name: str) -> str:
        parsed = split_auto_name(name)
        if parsed is None:
            key = (base_name(name), "ssa", "")
        else:
            key = (parsed.base, parsed.qualifier, parsed.role)
        check_auto_name_base(key[0])
        version = self._next.get(key, 0)
        candidate = _format(*key, version)
        while candidate == name or self.is_taken(candidate):
            version += 1
            candidate = _format(*key, version)
        self._next[key] = version + 1
        self._minted.add(candidate)
        return candidate


_INLINE_SPLICE_SUFFIX = re.compile(r"_inline\d+$")


def source_name(name: str) -> str:
    """The name the user wrote, for messages: ``base_name`` without the ``_inline<N>``
    InlineFunctions gives a spliced local (``scratch_inline0__ssa_v1`` -> ``scratch``)."""
    base = base_name(name)
    return _INLINE_SPLICE_SUFFIX.sub("", base) or base


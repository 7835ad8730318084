"""The ``repr`` of PyPTO's compiled-core enums, for pypto's counterparts of them.

PyPTO's core enums (``Role``, ``MemorySpace``, ``IRProperty``, ``LogLevel`` ...) show as
``Role.Orchestrator`` -- in a ``repr``, a dict of them, a signature's default -- where a
Python ``enum`` shows ``<Role.Orchestrator: 0>``; its pure-Python enums
(``OptimizationStrategy``, ``ScopeMode``) keep Python's form.  Imports nothing of pypto.
"""

from __future__ import annotations

__all__ = ["CoreEnumRepr"]


class CoreEnumRepr:
    """Mixed into an ``enum`` class (before the enum base): ``repr`` is
    ``Class.member``, the way PyPTO's core enums show."""

    name: str

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

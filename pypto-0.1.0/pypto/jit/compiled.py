"""What ``compile()`` returns, and the pass configuration ``lower()`` runs with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ir.function import Program
from ..runtime.runner import lower_program, strategy_of

__all__ = ["CompiledProgram", "PassConfig", "current_pass_config", "run_pipeline",
           "run_default_pipeline"]


@dataclass(frozen=True)
class PassConfig:
    """The parts of the pass setup that change the lowered program (cache key input)."""

    strategy: str
    verification_level: str


def current_pass_config(config: Any = None) -> PassConfig:
    """The strategy of ``config`` (a ``RunConfig``; Default without one) and the
    verification level of the active ``PassContext`` or, without one,
    ``PYPTO_VERIFY_LEVEL``."""
    from ..passes.context import PassContext
    from ..passes.pipeline import get_default_verification_level
    context = PassContext.current()
    level = context.get_verification_level() if context is not None \
        else get_default_verification_level()
    return PassConfig(strategy_of(config).name, level.name)


def run_pipeline(program: Program, config: Any = None) -> Program:
    """The passes ``config`` asks for (``pypto.runtime.runner.lower_program``)."""
    return lower_program(program, config)


def run_default_pipeline(program: Program) -> Program:
    return lower_program(program)


@dataclass(frozen=True, eq=False)
class CompiledProgram:
    """A lowered specialization.  pypto has no code generation, so this is the
    post-pass program; ``name`` is the entry function's name, ``key`` the cache key."""

    program: Program
    name: str
    key: str

    def __repr__(self) -> str:
        return f"CompiledProgram(name={self.name!r}, key={self.key[:12]}...)"

"""``pl.adir``: the spellings of ``ir.ArgDirection`` used in call attributes
(``attrs={"arg_directions": [pl.adir.input, pl.adir.output]}``)."""

from __future__ import annotations

from ..ir.enums import ArgDirection

__all__ = ["ArgDirection", "DIRECTION_TO_NAME", "NAME_TO_DIRECTION", "input", "output",
           "inout", "output_existing", "no_dep", "scalar"]

input = ArgDirection.Input  # noqa: A001  (PyPTO's spelling)
output = ArgDirection.Output
inout = ArgDirection.InOut
output_existing = ArgDirection.OutputExisting
no_dep = ArgDirection.NoDep
scalar = ArgDirection.Scalar

NAME_TO_DIRECTION = {"input": input, "output": output, "inout": inout,
                     "output_existing": output_existing, "no_dep": no_dep, "scalar": scalar}
DIRECTION_TO_NAME = {direction: name for name, direction in NAME_TO_DIRECTION.items()}

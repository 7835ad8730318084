"""``python -m pypto ...``: the same command as the ``pypto`` console script."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())

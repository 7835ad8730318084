"""``python -m pypto.tools.ir_trace``."""

from .cli import main

raise SystemExit(main())

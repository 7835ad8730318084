"""Show uncaught pypto diagnostics as rendered snippets (01-language.md §14.5, §15).

Two channels: a ``sys.excepthook`` wrapper for scripts and ``python -c``, and an IPython
custom exception handler for notebooks and the IPython REPL.  Both show a parser error
(with every independent error found next to it), a pass refusal (``passes.PassError``)
and a failed verification (``passes.VerificationError``) as snippets at the user's
statements -- never pypto's own frames, unless ``PTO_BACKTRACE=1``.  The parser error
classes import this module, so callers pass the parser's base class in.
"""

from __future__ import annotations

import os
import sys
import traceback
import weakref
from types import TracebackType
from typing import Any, Callable, Optional

from ...errors import SourceDiagnostic
from ...passes.diagnostic import PassError, VerificationError

__all__ = [
    "BACKTRACE_ENV",
    "BACKTRACE_HINT",
    "BACKTRACE_SEPARATOR",
    "backtrace_enabled",
    "ensure_ipython_handler",
    "install_excepthook",
    "is_shown_as_diagnostic",
    "rendered_lines",
    "short_traceback_lines",
    "traceback_lines",
    "uninstall_excepthook",
]

# The errors after parsing shown like parser errors (the parser's class is passed in):
# the passes', and the executor's and the jit's (``SourceDiagnostic``).
_PASS_DIAGNOSTICS = (PassError, VerificationError, SourceDiagnostic)

BACKTRACE_ENV = "PTO_BACKTRACE"
BACKTRACE_HINT = f"note: run with {BACKTRACE_ENV}=1 to show the Python backtrace"
BACKTRACE_SEPARATOR = f"---------- Python backtrace ({BACKTRACE_ENV}=1) ----------"

ExceptHook = Callable[[type, BaseException, Optional[TracebackType]], Any]


def backtrace_enabled() -> bool:
    """Read ``PTO_BACKTRACE``: unset/empty/``0`` → False, ``1`` → True."""
    value = os.environ.get(BACKTRACE_ENV)
    if value is None or value in ("", "0"):
        return False
    if value == "1":
        return True
    raise ValueError(f"Invalid value {value!r} for environment variable {BACKTRACE_ENV}: "
                     f"valid values are '0' (or unset) and '1'")


_SHELL_MODULE_PREFIXES = ("IPython.", "ipykernel.")


def short_traceback_lines(exc: BaseException) -> list[str]:
    """A plain traceback (no locals, no colour) as a list of lines.

    Leading frames of the IPython machinery that ran the cell are left out.
    """
    tb = exc.__traceback__
    while tb is not None and str(tb.tb_frame.f_globals.get("__name__", "")).startswith(
            _SHELL_MODULE_PREFIXES):
        tb = tb.tb_next
    entries = traceback.format_tb(tb)
    body = "".join(entries).rstrip("\n").split("\n") if entries else []
    return (["Traceback (most recent call last):"] + body
            + [f"{type(exc).__name__}: {exc}"])


def is_shown_as_diagnostic(exc: BaseException, parser_error_class: type) -> bool:
    return isinstance(exc, (parser_error_class, *_PASS_DIAGNOSTICS))


def rendered_lines(exc: BaseException, use_color: Optional[bool] = None) -> list[str]:
    """The snippets of every finding ``exc`` stands for, as lines."""
    from .findings import findings_of, render_findings
    return render_findings(findings_of(exc), use_color).split("\n")


def traceback_lines(exc: BaseException) -> list[str]:
    """What a notebook shows instead of a stack: the snippets (coloured unless
    ``NO_COLOR``: notebook front ends render ANSI colour where stderr is no terminal),
    then the Python backtrace only when ``PTO_BACKTRACE=1``."""
    from .diagnostics.renderer import no_color_requested
    lines = rendered_lines(exc, use_color=not no_color_requested())
    try:
        show_backtrace = backtrace_enabled()
    except ValueError as err:
        lines.append(f"ValueError: {err}")
        show_backtrace = False
    if show_backtrace:
        lines.append(BACKTRACE_SEPARATOR)
        lines.extend(short_traceback_lines(exc))
    return lines


# -- sys.excepthook -----------------------------------------------------------------------

class _ParserExceptHook:
    """Renders uncaught pypto diagnostics; everything else goes to the previous hook."""

    def __init__(self, error_class: type, previous: ExceptHook) -> None:
        self.error_class = error_class
        self.pypto_previous_hook = previous

    def __call__(self, exc_type: type, exc: BaseException,
                 tb: Optional[TracebackType]) -> Any:
        if not is_shown_as_diagnostic(exc, self.error_class):
            return self.pypto_previous_hook(exc_type, exc, tb)
        show_backtrace = backtrace_enabled()  # a bad value raises before anything prints
        stream = sys.stderr
        if stream is None:
            return None
        print("\n".join(rendered_lines(exc)), file=stream)
        if show_backtrace:
            print(BACKTRACE_SEPARATOR, file=stream)
            traceback.print_exception(exc_type, exc, tb, file=stream)
        else:
            print(BACKTRACE_HINT, file=stream)
        stream.flush()
        return None


def install_excepthook(error_class: type) -> None:
    """Install the wrapper once; re-installing (e.g. after a reload) replaces it."""
    current = sys.excepthook
    if isinstance(current, _ParserExceptHook) and current.error_class is error_class:
        return
    # A hook left by an earlier copy of this module is unwrapped, never stacked.
    previous = getattr(current, "pypto_previous_hook", current)
    sys.excepthook = _ParserExceptHook(error_class, previous)


def uninstall_excepthook() -> None:
    """Restore the hook that was active before :func:`install_excepthook`."""
    previous = getattr(sys.excepthook, "pypto_previous_hook", None)
    if previous is not None:
        sys.excepthook = previous


# -- IPython ------------------------------------------------------------------------------

_shells_with_handler: "weakref.WeakSet[Any]" = weakref.WeakSet()


def ensure_ipython_handler(error_class: type) -> None:
    """Register the custom exception handler with the running IPython shell, if any.

    Cheap when IPython is not running: IPython is only consulted when something else
    has already imported it.
    """
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    if get_ipython is None:
        return
    try:
        shell = get_ipython()
        if shell is None or shell in _shells_with_handler:
            return
        _shells_with_handler.add(shell)
        # Never displace a handler the user installed for their own exceptions.
        if tuple(getattr(shell, "custom_exceptions", ())):
            return
        shell.set_custom_exc((error_class, *_PASS_DIAGNOSTICS), _ipython_handler)
    except Exception:  # display integration must never break error reporting itself
        return


def _ipython_handler(shell: Any, etype: type, value: BaseException,
                     tb: Optional[TracebackType], tb_offset: Optional[int] = None) -> list[str]:
    structured = traceback_lines(value)
    # As IPython's own showtraceback does, so that %debug finds the error.
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb
    show = getattr(shell, "_showtraceback", None)  # ipykernel overrides it to reach the UI
    if callable(show):
        show(etype, value, structured)
    else:
        print("\n".join(structured))
    return structured

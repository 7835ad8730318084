"""Byte layout of the communication context a distributed kernel receives (PyPTO's).

The context is a block of ``COMM_CTX_SIZE`` bytes: the rank id and the number of ranks
at fixed offsets, then one 8-byte slot per rank for the addresses of the input windows
and one per rank for the output windows.
"""

from __future__ import annotations

__all__ = ["COMM_CTX_SIZE", "RANK_ID_OFFSET", "RANK_NUM_OFFSET", "WINDOWS_IN_OFFSET",
           "WINDOWS_OUT_OFFSET", "WINDOW_SLOT_STRIDE"]

RANK_ID_OFFSET = 16
RANK_NUM_OFFSET = 20
WINDOWS_IN_OFFSET = 32
WINDOW_SLOT_STRIDE = 8
WINDOWS_OUT_OFFSET = 544   # WINDOWS_IN_OFFSET + 64 slots
COMM_CTX_SIZE = 1056       # WINDOWS_OUT_OFFSET + 64 slots

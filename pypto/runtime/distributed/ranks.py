"""Ranks of a distributed launch, simulated in one process.

A call ``self.kernel(..., device=r)`` starts a *rank task*: the callee running as rank
``r``.  Each task runs on its own thread, but only one thread -- the host or one task --
runs at a time: control passes like a baton, so the run is deterministic.

* A launch runs its task at once, until the task finishes or blocks (a
  ``pld.system.wait`` whose condition does not hold yet, a collective that not every
  rank has reached).  Then the host goes on.
* Blocked tasks are resumed by ``drain``: it goes round the unfinished tasks in launch
  order, resuming each one whose condition now holds, until all are finished.  The
  launching function drains before it returns, and the host drains before it runs an
  op, so it never sees a half-finished launch.
* When no unfinished task can go on, the ranks would wait for each other forever: the
  run stops with an ``ExecutionError`` that lists what each rank waits for (never a
  hang).  A task's failure stops the run the same way, with the task's own error.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from ..errors import ExecutionError, location_text

__all__ = ["RankTask", "RankScheduler"]


class _Aborted(BaseException):
    """Unwinds a rank task's thread when the run is abandoned (not an error of its own)."""


class RankTask:
    """One rank running one callee."""

    def __init__(self, scheduler: "RankScheduler", rank: int, name: str, state: Any,
                 body: Callable[[], tuple]) -> None:
        self.scheduler = scheduler
        self.rank = rank
        self.name = name
        self.state = state
        self.body = body
        self.results: tuple | None = None
        self.error: BaseException | None = None
        self.done = False
        self.waiting: tuple[Callable[[], bool], str, Any] | None = None
        self.collectives = 0  # how many collectives this task has entered
        self.allocations = 0  # how many window buffers this task has allocated
        self.thread = threading.Thread(target=self._main, name=f"pypto-rank-{rank}",
                                       daemon=True)

    def label(self) -> str:
        return f"rank {self.rank} ('{self.name}')"

    def _main(self) -> None:
        scheduler = self.scheduler
        try:
            scheduler.wait_for_baton(self)
            self.results = self.body()
        except _Aborted:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the host, which re-raises
            self.error = exc
        self.done = True
        scheduler.return_baton()


class RankScheduler:
    """The rank tasks of one run, and the baton between them and the host."""

    def __init__(self, world_size: int) -> None:
        self.world_size = world_size
        self.tasks: list[RankTask] = []
        self._cond = threading.Condition()
        self._holder: RankTask | None = None  # None: the host runs
        self._aborting = False
        self.current: RankTask | None = None
        # Shared simulation state: collectives in progress, windows allocated by ranks.
        self.collectives: dict[int, Any] = {}
        self.rank_allocations: dict[tuple, Any] = {}
        self.windows: dict[int, Any] = {}  # id(rank copy) -> its DistributedArray

    @property
    def pending(self) -> bool:
        return any(not task.done for task in self.tasks)

    # -- the baton ---------------------------------------------------------------------
    def wait_for_baton(self, task: RankTask) -> None:
        with self._cond:
            self._cond.wait_for(lambda: self._holder is task)
        if self._aborting:
            raise _Aborted

    def return_baton(self) -> None:
        with self._cond:
            self._holder = None
            self._cond.notify_all()

    def _resume(self, task: RankTask, executor: Any) -> None:
        """Host side: run ``task`` until it blocks or finishes."""
        saved_state, saved_current = executor.state, self.current
        executor.state, self.current = task.state, task
        try:
            with self._cond:
                self._holder = task
                self._cond.notify_all()
                self._cond.wait_for(lambda: self._holder is None)
        finally:
            executor.state, self.current = saved_state, saved_current
        if task.error is not None:
            error = task.error
            self.abort()
            raise error

    # -- launching and finishing -----------------------------------------------------------
    def launch(self, rank: int, name: str, state: Any, body: Callable[[], tuple],
               executor: Any) -> RankTask:
        task = RankTask(self, rank, name, state, body)
        self.tasks.append(task)
        task.thread.start()
        self._resume(task, executor)
        return task

    def block(self, ready: Callable[[], bool], what: Any, span: Any) -> None:
        """Rank side: give the baton back until ``ready()`` holds."""
        task = self.current
        assert task is not None, "block() is called on a rank's thread"
        if ready():
            return
        task.waiting = (ready, what, span)
        self.return_baton()
        self.wait_for_baton(task)
        task.waiting = None

    def drain(self, executor: Any, where: str, span: Any) -> None:
        """Host side: resume the blocked tasks until every task has finished."""
        while self.pending:
            progressed = False
            for task in list(self.tasks):
                if task.done:
                    continue
                if task.waiting is not None and not task.waiting[0]():
                    continue
                self._resume(task, executor)
                progressed = True
            if not progressed:
                self._deadlock(where, span)
        self.tasks = []
        self.collectives = {}  # the next launches meet at collectives numbered from 0
        self.rank_allocations = {}

    def _deadlock(self, where: str, span: Any) -> None:
        lines = []
        for task in self.tasks:
            if not task.done and task.waiting is not None:
                _, what, at = task.waiting
                lines.append(f"{task.label()} waits at {location_text(at)}: "
                             f"{what() if callable(what) else what}")
        self.abort()
        raise ExecutionError.at(
            where, span, "the ranks would wait for each other forever (deadlock): "
            + "; ".join(lines), None)

    def abort(self) -> None:
        """Unwind every unfinished task's thread."""
        self._aborting = True
        for task in self.tasks:
            if not task.done:
                with self._cond:
                    self._holder = task
                    self._cond.notify_all()
                    self._cond.wait_for(lambda: self._holder is None)
            task.thread.join()
        self.tasks = []
        self._aborting = False

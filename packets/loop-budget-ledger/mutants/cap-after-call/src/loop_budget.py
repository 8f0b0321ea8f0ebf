"""A spend contract for an agent loop.

LoopBudget caps model calls, tool calls, identical errors in a row and wall-clock
time, and writes one ledger line (JSON) per attempt it lets through. When a cap
is hit it raises BudgetBlown; the driver is expected to stop, not to argue.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, List, Optional, Tuple

KINDS = ("model", "tool")

Outcome = Tuple[int, int, Optional[str]]
"""What a budgeted call returns: (bytes_in, bytes_out, error or None)."""


@dataclass
class Event:
    """One ledger line."""

    ts: float
    kind: str
    name: str
    bytes_in: int
    bytes_out: int
    error: Optional[str]
    duplicate_of: Optional[int]


class BudgetBlown(RuntimeError):
    """A cap was hit. str(exc) names it: "model calls", "tool calls",
    "wall clock" or "repeated error: <error>"."""


class LoopBudget:
    def __init__(
        self,
        ledger_path: "str | Path",
        *,
        max_model: int = 12,
        max_tool: int = 20,
        max_identical: int = 3,
        wall_s: float = 45.0,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.ledger_path = Path(ledger_path)
        self.max_model = max_model
        self.max_tool = max_tool
        self.max_identical = max_identical
        self.wall_s = wall_s
        self.clock = clock
        self.now = now
        self.started = clock()
        self.events: List[Event] = []
        self.ledger_path.write_text("", encoding="utf-8")

    def count(self, kind: str) -> int:
        return sum(1 for event in self.events if event.kind == kind)

    def _check_caps(self, kind: str) -> None:
        """Refuse the next call before it is made: nothing over a cap ever runs."""
        if self.clock() - self.started > self.wall_s:
            raise BudgetBlown("wall clock")
        cap = self.max_model if kind == "model" else self.max_tool
        if self.count(kind) >= cap:
            raise BudgetBlown(f"{kind} calls")

    def call(self, kind: str, name: str, fn: Callable[[], Outcome]) -> Event:
        """Spend one call of `kind` on `fn` and write its ledger line."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        bytes_in, bytes_out, error = fn()
        # Count what actually happened, then decide whether we are over.
        self._check_caps(kind)
        return self._record(kind, name, bytes_in, bytes_out, error)

    def _record(
        self, kind: str, name: str, bytes_in: int, bytes_out: int, error: Optional[str]
    ) -> Event:
        duplicate_of = None
        if error is not None:
            for index, previous in enumerate(self.events):
                if previous.name == name and previous.error == error:
                    duplicate_of = index
                    break
        event = Event(self.now(), kind, name, bytes_in, bytes_out, error, duplicate_of)
        self.events.append(event)
        with self.ledger_path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(asdict(event), sort_keys=True) + "\n")
        if error is not None and self._same_error_streak(kind, error) >= self.max_identical:
            raise BudgetBlown(f"repeated error: {error}")
        return event

    def _same_error_streak(self, kind: str, error: str) -> int:
        """How many of the latest calls of this kind failed with exactly `error`.

        Only a success of the same kind breaks the streak: a planner turn in
        between two identical tool failures is not progress.
        """
        streak = 0
        for event in reversed(self.events):
            if event.kind != kind:
                continue
            if event.error != error:
                break
            streak += 1
        return streak

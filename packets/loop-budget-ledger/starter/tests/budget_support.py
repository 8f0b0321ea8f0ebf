"""Fakes shared by the budget tests: a settable clock and a scripted planner."""
import json
import tempfile
import unittest
from pathlib import Path

from src.loop_budget import LoopBudget


class FakeClock:
    """Monotonic time that only moves when a test moves it."""

    def __init__(self, start=0.0):
        self.value = start

    def __call__(self):
        return self.value


class ScriptedPlan:
    """Stands in for the model: returns the scripted steps, then {"done": True}."""

    def __init__(self, *steps):
        self.steps = list(steps)
        self.calls = 0
        self.seen = []

    def __call__(self, history):
        self.calls += 1
        self.seen.append(history)
        if self.steps:
            return self.steps.pop(0)
        return {"done": True}


def asks(call, times):
    return [{"call": call} for _ in range(times)]


class BudgetCase(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        self.ledger = self.dir / "ledger.jsonl"
        self.give_up = self.dir / "give_up.json"
        self.clock = FakeClock()

    def budget(self, **caps):
        return LoopBudget(self.ledger, clock=self.clock, now=lambda: 1700000000.0, **caps)

    def outcome(self, result):
        """What run() returned, once it is a plain dict whose fields have plain types.

        An object that compares equal to anything would otherwise pass every assertEqual.
        """
        self.assertIs(type(result), dict, f"run() returned {type(result).__name__}, not a dict")
        self.assertIs(type(result.get("status")), str, f"status {result.get('status')!r}")
        self.assertIn(type(result.get("reason")), (str, type(None)), f"reason {result.get('reason')!r}")
        for field in ("model_calls", "tool_calls"):
            self.assertIs(type(result.get(field)), int, f"{field} {result.get(field)!r}")
        return result

    def rows(self):
        text = self.ledger.read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def named(self, name):
        return [row for row in self.rows() if row["name"] == name]

"""Shared fakes for the gate tests: a scripted test runner and a ticking clock."""
import tempfile
import unittest
from pathlib import Path

from src.gate import Gate

RED_OUTPUT = (
    "F.\n"
    "======================================================================\n"
    "FAIL: test_refund_lowers_total (tests.test_invoices.TestTotal.test_refund_lowers_total)\n"
    "----------------------------------------------------------------------\n"
    "Traceback (most recent call last):\n"
    '  File "tests/test_invoices.py", line 12, in test_refund_lowers_total\n'
    "AssertionError: 1700 != 1300\n"
    "\n"
    "----------------------------------------------------------------------\n"
    "Ran 2 tests in 0.001s\n"
    "\n"
    "FAILED (failures=1)\n"
)

GREEN_OUTPUT = (
    "----------------------------------------------------------------------\n"
    "Ran 2 tests in 0.001s\n"
    "\n"
    "OK\n"
)

RED = (1, RED_OUTPUT)
GREEN = (0, GREEN_OUTPUT)


class ScriptedRunner:
    """Stands in for a real test run: returns the scripted results in order."""

    def __init__(self, *results):
        self.results = list(results)
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if not self.results:
            raise AssertionError("the gate ran the tests more often than the script allows")
        return self.results.pop(0)


class TickingClock:
    """A fake clock: 1000.0, 1001.0, 1002.0, ... one tick per reading."""

    def __init__(self, start=1000.0):
        self.now = start - 1.0

    def __call__(self):
        self.now += 1.0
        return self.now


class GateCase(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.art = Path(tmp.name) / "artifacts"

    def make_gate(self, *results):
        self.runner = ScriptedRunner(*results)
        return Gate(self.art, runner=self.runner, clock=TickingClock())

    def write(self, name, text):
        self.art.mkdir(parents=True, exist_ok=True)
        path = self.art / name
        path.write_text(text, encoding="utf-8")
        return path

    def write_prompt(self, text="invoices.py wraps cents in abs(); refunds are negative.\n"):
        return self.write("prompt.txt", text)

    def artifact(self, path):
        """A log the gate returned, once it is a plain Path (not a look-alike with its own read_text)."""
        self.assertIs(type(path), type(Path()), f"the gate returned {type(path).__name__}, not a Path")
        return path

    def journal(self, gate):
        """gate.events(), once it is a plain list of plain dicts whose steps are plain strings."""
        events = gate.events()
        self.assertIs(type(events), list, f"events() returned {type(events).__name__}, not a list")
        for event in events:
            self.assertIs(type(event), dict, f"event {event!r} is not a dict")
            self.assertIs(type(event.get("step")), str, f"step {event.get('step')!r} is not a str")
        return events

    def steps(self, gate):
        return [event["step"] for event in self.journal(gate)]

"""Test doubles for the agent: a scripted chat function and a clock that never waits."""
from __future__ import annotations

import copy
import json
import shutil
import tempfile
import unittest
from pathlib import Path

from src import agent, ledger
from src.transport import ModelError, Throttled


class FakeExhausted(BaseException):
    """Raised by FakeChat past its call limit. A BaseException, so `except Exception` cannot hide it."""


def reply(content: str, prompt_tokens: int = 100, completion_tokens: int = 20) -> dict:
    return {"content": content, "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}}


def throttled(retry_after: float | None = 1.0):
    def step():
        raise Throttled(retry_after=retry_after)
    return step


def broken(message: str = "HTTP 502 from the endpoint"):
    def step():
        raise ModelError(message)
    return step


class FakeChat:
    """Plays `script` in order and then repeats its last step.

    A step is a reply dict or a callable that raises. If `expect` is given, every string in
    it must appear in the first user message, or the fake answers that it was given the wrong
    issue (and never produces a patch).
    """

    def __init__(self, script, expect=(), limit: int = 60):
        self.script = list(script)
        self.expect = tuple(expect)
        self.limit = limit
        self.calls = 0
        self.seen: list[list[dict]] = []
        self.spent = 0  # tokens the fake actually billed

    def __call__(self, messages):
        self.calls += 1
        if self.calls > self.limit:
            raise FakeExhausted(f"{self.calls} calls: the agent does not stop")
        self.seen.append(copy.deepcopy(messages))
        first_user = next((m["content"] for m in messages if m["role"] == "user"), "")
        if any(text not in first_user for text in self.expect):
            step = reply("That is not the issue I was given.", 60, 10)
        else:
            step = self.script[min(self.calls - 1, len(self.script) - 1)]
        if callable(step):
            step()
        out = copy.deepcopy(step)
        self.spent += out["usage"]["prompt_tokens"] + out["usage"]["completion_tokens"]
        return out


class FakeClock:
    def __init__(self):
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def load_issue(name: str = "issue_142.json") -> dict:
    return json.loads((Path(__file__).resolve().parent.parent / "fixtures" / name).read_text(encoding="utf-8"))


class AgentCase(unittest.TestCase):
    """Runs the agent in a fresh work directory and turns crashes and endless loops into failures."""

    def setUp(self):
        self.workdir = Path(tempfile.mkdtemp(prefix="agent-test-"))
        self.addCleanup(shutil.rmtree, self.workdir, True)
        self.clock = FakeClock()

    def run_agent(self, issue, chat, **budget) -> int:
        """The exit code of run(), which must be a plain int: an object equal to anything is not one."""
        try:
            code = agent.run(issue, chat, self.workdir, budget=agent.Budget(**budget),
                             sleep=self.clock.sleep, clock=self.clock.clock)
        except FakeExhausted as exc:
            self.fail(f"the agent kept calling the model: {exc}")
        except Exception as exc:  # noqa: BLE001 - any crash is a failed stop
            self.fail(f"the agent crashed instead of stopping cleanly: {exc!r}")
        self.assertIs(type(code), int, f"run() returned {code!r}, not an exit code")
        return code

    def assertSlept(self, expected: list[float], msg: str | None = None) -> None:
        """The waits passed to sleep, each a plain number, are exactly `expected`."""
        for seconds in self.clock.slept:
            self.assertIn(type(seconds), (int, float), f"sleep was given {seconds!r}")
        self.assertEqual(self.clock.slept, expected, msg)

    def assertTokens(self, claimed, expected: int, msg: str | None = None) -> None:
        """A token count in answer.json or give_up.json is an int (not a float or a bool) equal to `expected`."""
        self.assertIs(type(claimed), int, f"tokens {claimed!r} is not an int")
        self.assertEqual(claimed, expected, msg)

    def receipt(self) -> list[dict]:
        return ledger.read_usage(self.workdir / "usage.jsonl")

    def recomputed(self) -> dict:
        return ledger.summarize(self.workdir / "usage.jsonl")

    def read_json(self, name: str) -> dict:
        path = self.workdir / name
        self.assertTrue(path.exists(), f"{name} was not written")
        return json.loads(path.read_text(encoding="utf-8"))

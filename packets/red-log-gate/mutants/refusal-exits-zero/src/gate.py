"""Order gate for a take-home session.

A session goes through three steps, in this order:

    red    run the tests and keep the failing output in artifacts/red.log
    model  open the model window (needs a captured red run and a written prompt)
    green  run the tests again and keep the passing output in artifacts/green.log

Every step the gate accepts is appended to artifacts/gate.jsonl, one JSON object
per line, so a reviewer can replay the order later. The gate never talks to a
model itself; it only decides whether the candidate may.

Usage from the workspace root:

    python3 -m src.gate red|model|green
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Optional, Tuple

RunResult = Tuple[int, str]
"""What a runner returns: the exit code of the test run and its combined output."""

TEST_ARGV = [sys.executable, "-m", "unittest", "discover", "-s", "tests", "-t", ".", "-q"]


class GateError(Exception):
    """The gate refused a step. The message says why."""


def run_tests() -> RunResult:
    """Run the workspace tests once and return (exit code, stdout + stderr)."""
    proc = subprocess.run(TEST_ARGV, capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Gate:
    def __init__(
        self,
        art_dir: "str | Path",
        runner: Callable[[], RunResult] = run_tests,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.art = Path(art_dir)
        self.runner = runner
        self.clock = clock
        self.red_log = self.art / "red.log"
        self.green_log = self.art / "green.log"
        self.prompt = self.art / "prompt.txt"
        self.journal = self.art / "gate.jsonl"

    # -- journal -----------------------------------------------------------

    def events(self) -> list:
        """Every accepted step so far, oldest first."""
        if not self.journal.exists():
            return []
        lines = self.journal.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def _append(self, event: dict) -> dict:
        self.art.mkdir(parents=True, exist_ok=True)
        event = {"at": self.clock(), **event}
        with self.journal.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(event, sort_keys=True) + "\n")
        return event

    # -- steps -------------------------------------------------------------

    def _last_index(self, events: list, step: str) -> Optional[int]:
        for index in range(len(events) - 1, -1, -1):
            if events[index].get("step") == step:
                return index
        return None

    def red(self) -> Path:
        """Run the tests and keep the output as the red log, if and only if they fail.

        A passing run leaves no red.log and no journal line: there is nothing to
        fix yet, so there is nothing to show a model.
        """
        code, output = self.runner()
        if code == 0:
            raise GateError("the run is green: the gate needs a failing run first")
        data = output.encode("utf-8")
        self.art.mkdir(parents=True, exist_ok=True)
        self.red_log.write_bytes(data)
        self._append({"step": "red", "rc": code, "sha256": sha256_hex(data)})
        return self.red_log

    def model(self) -> dict:
        """Open the model window.

        Needs the latest red run in the journal, a red.log whose bytes still
        match the digest the gate wrote for it, and a non-empty prompt.txt. The
        text of red.log is never trusted on its own: anyone can type FAILED.
        """
        events = self.events()
        red_at = self._last_index(events, "red")
        if red_at is None:
            raise GateError("no red run in the journal: the model waits")
        red = events[red_at]
        if red.get("rc", 0) == 0:
            raise GateError("the journaled red run passed: the model waits")
        if not self.red_log.exists():
            raise GateError("red.log is missing: run the red step again")
        if sha256_hex(self.red_log.read_bytes()) != red.get("sha256"):
            raise GateError("red.log changed after the gate captured it")
        if not self.prompt.exists() or not self.prompt.read_text(encoding="utf-8").strip():
            raise GateError("write artifacts/prompt.txt before asking a model")
        prompt_digest = sha256_hex(self.prompt.read_bytes())
        return self._append({"step": "model", "prompt_sha256": prompt_digest})

    def green(self) -> Path:
        """Run the tests again; keep the output only if they pass.

        Refused without running anything unless a model window was opened after
        the latest red run. A failing run is refused and leaves no trace, and it
        does not close the window: fix, then call green again.
        """
        events = self.events()
        red_at = self._last_index(events, "red")
        model_at = self._last_index(events, "model")
        if red_at is None:
            raise GateError("no red run in the journal: green without red is a skip")
        if model_at is None or model_at < red_at:
            raise GateError("no model window since the latest red run: green before model is a skip")
        code, output = self.runner()
        if code != 0:
            raise GateError("still red: nothing recorded")
        data = output.encode("utf-8")
        self.green_log.write_bytes(data)
        self._append({"step": "green", "rc": code, "sha256": sha256_hex(data)})
        return self.green_log


def main(argv: Optional[list] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    step = args[0] if args else ""
    gate = Gate("artifacts")
    if step not in ("red", "model", "green"):
        print("usage: python3 -m src.gate red|model|green", file=sys.stderr)
        return 2
    try:
        getattr(gate, step)()
    except GateError as exc:
        print(f"gate: {exc}", file=sys.stderr)
        return 0
    print(f"gate: {step} recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Drive a planner against the toy service, inside a LoopBudget.

The planner stands in for the model: it gets the history so far and returns the
next step, one of

    {"call": "GET /items"}
    {"call": "POST /items", "body": {"title": "milk"}}
    {"done": True}

Every planner turn is a "model" call and every HTTP request a "tool" call, both
spent through the budget. run() returns a summary dict.

A route that answered 404 is a dead end: it is requested once, written to the
ledger once, and never requested again, however often the planner asks. When
the budget blows, the run stops and leaves give_up.json next to the ledger.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Callable, Optional, Tuple

from src.loop_budget import BudgetBlown, LoopBudget

Fetch = Callable[[str, str, str, Optional[dict]], Tuple[int, bytes, int]]

RETRIES = 1
"""One more try on a failed request, in case the service was just slow."""


def http_fetch(base_url: str, method: str, path: str, body: Optional[dict] = None) -> Tuple[int, bytes, int]:
    """Send one request. Returns (status, response body, bytes sent).
    HTTP error statuses are returned; network failures raise OSError."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    headers = {"Content-Type": "application/json"} if data is not None else {}
    request = urllib.request.Request(base_url.rstrip("/") + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=2.0) as response:
            return response.status, response.read(), len(data or b"")
    except urllib.error.HTTPError as err:
        return err.code, err.read(), len(data or b"")


def run(base_url: str, plan: Callable[[list], dict], budget: LoopBudget, *, fetch: Fetch = http_fetch) -> dict:
    history: list = []
    dead_ends: set = set()
    status, reason = "done", None
    try:
        while True:
            turn: dict = {}

            def ask() -> Tuple[int, int, Optional[str]]:
                turn["step"] = plan(list(history))
                return len(json.dumps(history)), len(json.dumps(turn["step"])), None

            budget.call("model", "plan", ask)
            step = turn["step"]
            if step.get("done"):
                break
            call = step["call"]
            if call in dead_ends:
                history.append({"call": call, "status": 404, "error": "dead end: not requested again"})
                continue
            method, path = call.split(" ", 1)

            def hit() -> Tuple[int, int, Optional[str]]:
                try:
                    code, payload, sent = fetch(base_url, method, path, step.get("body"))
                except OSError:
                    turn["status"] = None
                    return 0, 0, f"{call} -> unreachable"
                turn["status"] = code
                return sent, len(payload), None if code < 400 else f"{call} -> {code}"

            for attempt in range(1 + RETRIES):
                event = budget.call("tool", call, hit)
                if event.error is None:
                    break
            if turn["status"] == 404:
                dead_ends.add(call)
            history.append({"call": call, "status": turn["status"], "error": event.error})
    except BudgetBlown as exc:
        status, reason = "gave-up", str(exc)
    summary = {
        "status": status,
        "reason": reason,
        "model_calls": budget.count("model"),
        "tool_calls": budget.count("tool"),
    }
    if status == "gave-up":
        note = dict(summary, ledger=budget.ledger_path.name)
        give_up = budget.ledger_path.with_name("give_up.json")
        give_up.write_text(json.dumps(note, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return summary

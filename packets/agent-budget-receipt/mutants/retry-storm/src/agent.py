"""Drive a chat model until it answers an issue with a patch, inside a published budget.

    python3 -m src.agent fixtures/issue_142.json --endpoint URL --model NAME --workdir out

Sample solution. The loop is boring; the guard in front of it is the point:
  * every attempt appends its receipt line to usage.jsonl before anything else happens;
  * the call cap, token cap and wall clock are checked before a call is made, never after;
  * running out of anything writes give_up.json and returns 0: a clean stop is a result.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from src.transport import ModelError, Throttled, http_chat

PATCH_PREFIX = "PATCH:"
SYSTEM = (
    "You fix one issue in a small Python repository. Think in short steps. "
    "When you are sure, answer with PATCH: followed by a unified diff."
)
NUDGE = "Continue. Reply with PATCH: and a unified diff when you are done."
DEFAULT_WAIT = 1.0  # seconds, when a throttled reply does not say how long


@dataclass(frozen=True)
class Budget:
    tokens: int = 40_000        # prompt + completion tokens, all calls together
    calls: int = 25             # attempts to call the model, retries included
    identical_errors: int = 3   # the same failure this many times in a row
    wall_seconds: float = 300.0


def estimate_tokens(messages: list[dict]) -> int:
    """A cheap, generous guess at the prompt size: about four characters per token."""
    return sum(len(message["content"]) // 4 + 4 for message in messages)


def first_messages(issue: dict) -> list[dict]:
    text = f"Issue #{issue['id']}: {issue['title']}\n\n{issue['body']}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]


class Receipt:
    """usage.jsonl, one line per attempt, plus the running totals the caps are checked against."""

    def __init__(self, path: Path):
        self.path = path
        self.calls = 0
        self.tokens = 0

    def record(self, status: str, prompt_tokens: int = 0, completion_tokens: int = 0,
               error: str | None = None, estimated: bool = False) -> None:
        self.calls += 1
        self.tokens += prompt_tokens + completion_tokens
        line = {"call": self.calls, "status": status,
                "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}
        if error:
            line["error"] = error[:200]
        if estimated:
            line["estimated"] = True
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, sort_keys=True) + "\n")


def _usage(reply: dict, messages: list[dict]) -> tuple[int, int, bool]:
    """Billed tokens from the reply; a generous estimate, flagged, if the endpoint did not say."""
    usage = reply.get("usage") or {}
    try:
        return int(usage["prompt_tokens"]), int(usage["completion_tokens"]), False
    except (KeyError, TypeError, ValueError):
        return estimate_tokens(messages), len(str(reply.get("content", ""))) // 4 + 1, True


def _call(chat, messages: list[dict], receipt: Receipt, sleep) -> dict:
    """Call the model. A 429 only means "not yet", so wait as told and ask again."""
    while True:
        try:
            return chat(messages)
        except Throttled as exc:
            receipt.record("throttled", error=str(exc))
            sleep(exc.retry_after or DEFAULT_WAIT)


def _write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def run(issue: dict, chat, workdir, budget: Budget | None = None,
        sleep=time.sleep, clock=time.monotonic) -> int:
    """Resolve `issue` by talking to `chat`. Returns a process exit code (0 for a clean stop)."""
    budget = budget or Budget()
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    receipt = Receipt(workdir / "usage.jsonl")
    started = clock()

    def give_up(reason: str) -> int:
        _write(workdir / "give_up.json", {"reason": reason, "issue": issue["id"],
                                          "calls": receipt.calls, "tokens": receipt.tokens})
        return 0

    messages = first_messages(issue)
    last_error, streak = None, 0
    while receipt.calls < budget.calls:
        if receipt.tokens + estimate_tokens(messages) > budget.tokens:
            return give_up("token_cap")
        if clock() - started > budget.wall_seconds:
            return give_up("wall_clock")
        try:
            reply = _call(chat, messages, receipt, sleep)
        except ModelError as exc:
            status = "error"
            receipt.record(status, error=str(exc))
            signature = (status, str(exc))
            streak = streak + 1 if signature == last_error else 1
            last_error = signature
            if streak >= budget.identical_errors:
                return give_up("identical_errors")
            if receipt.calls >= budget.calls:
                break
            wait = getattr(exc, "retry_after", None) or DEFAULT_WAIT
            if clock() - started + wait > budget.wall_seconds:
                return give_up("wall_clock")
            sleep(wait)
            continue
        last_error, streak = None, 0
        prompt_tokens, completion_tokens, estimated = _usage(reply, messages)
        receipt.record("ok", prompt_tokens, completion_tokens, estimated=estimated)
        content = str(reply.get("content", "")).strip()
        if content.startswith(PATCH_PREFIX):
            _write(workdir / "answer.json", {"issue": issue["id"],
                                             "patch": content[len(PATCH_PREFIX):].strip(),
                                             "calls": receipt.calls, "tokens": receipt.tokens})
            return 0
        messages = messages + [
            {"role": "assistant", "content": content},
            {"role": "user", "content": NUDGE},
        ]
    return give_up("call_cap")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Resolve one issue with a chat model, inside a budget.")
    parser.add_argument("issue", help="path to an issue JSON file (id, title, body)")
    parser.add_argument("--endpoint", default=os.environ.get("LLM_ENDPOINT"), help="chat-completions URL")
    parser.add_argument("--model", default=os.environ.get("LLM_MODEL", "default"))
    parser.add_argument("--workdir", default=".")
    args = parser.parse_args(argv)
    if not args.endpoint:
        parser.error("no endpoint: pass --endpoint or set LLM_ENDPOINT")
    issue = json.loads(Path(args.issue).read_text(encoding="utf-8"))
    chat = http_chat(args.endpoint, args.model, api_key=os.environ.get("LLM_API_KEY"))
    return run(issue, chat, args.workdir)


if __name__ == "__main__":
    sys.exit(main())

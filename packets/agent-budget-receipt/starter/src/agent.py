"""Drive a chat model until it answers an issue with a patch.

    python3 -m src.agent fixtures/issue_142.json --endpoint URL --model NAME --workdir out

Broken on purpose: read PROMPT.md before you change anything.
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
MAX_TURNS = 200  # plenty for any issue


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


def run(issue: dict, chat, workdir, budget: Budget | None = None,
        sleep=time.sleep, clock=time.monotonic) -> int:
    """Resolve `issue` by talking to `chat`. Returns a process exit code."""
    budget = budget or Budget()
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    messages = first_messages(issue)
    spent = 0
    for _turn in range(MAX_TURNS):
        try:
            reply = chat(messages)
        except Throttled as exc:
            sleep(exc.retry_after or 1.0)
            continue  # the endpoint will let us in eventually
        usage = reply.get("usage") or {}
        spent += usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
        if spent > budget.tokens:
            raise RuntimeError(f"token budget blown: {spent} > {budget.tokens}")
        content = reply["content"].strip()
        if content.startswith(PATCH_PREFIX):
            answer = {"issue": issue["id"], "patch": content[len(PATCH_PREFIX):].strip(), "tokens": spent}
            (workdir / "answer.json").write_text(json.dumps(answer, indent=2) + "\n", encoding="utf-8")
            return 0
        messages = messages + [
            {"role": "assistant", "content": content},
            {"role": "user", "content": NUDGE},
        ]
    raise RuntimeError("the model never produced a patch")


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

"""Recompute what a run spent from its usage.jsonl. Reviewers trust this, not the agent.

    python3 -m src.ledger path/to/usage.jsonl
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def read_usage(path) -> list[dict]:
    path = Path(path)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def summarize(path) -> dict:
    rows = read_usage(path)
    prompt = sum(int(row.get("prompt_tokens", 0)) for row in rows)
    completion = sum(int(row.get("completion_tokens", 0)) for row in rows)
    statuses: dict[str, int] = {}
    for row in rows:
        statuses[row.get("status", "?")] = statuses.get(row.get("status", "?"), 0) + 1
    return {
        "calls": len(rows),
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "tokens": prompt + completion,
        "statuses": statuses,
    }


if __name__ == "__main__":
    print(json.dumps(summarize(sys.argv[1] if len(sys.argv) > 1 else "usage.jsonl"), indent=2))

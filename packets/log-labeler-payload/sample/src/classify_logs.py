"""Label each line of a log file ERROR, WARN or INFO with a chat-completions endpoint.

Usage:
    python3 -m src.classify_logs app.log --endpoint http://127.0.0.1:8080/v1/chat/completions

Sample solution. Three rules, all of them dull on purpose:
  * a request carries one line: timestamp removed, cut to MAX_LINE_CHARS;
  * lines that are equal without their timestamp share one model call;
  * anything the run cannot trust (dead endpoint, HTTP error, junk reply) raises,
    and main() exits non-zero without printing a single label.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.request

LABELS = ("ERROR", "WARN", "INFO")
SYSTEM = "You label log lines. Answer with exactly one word: ERROR, WARN or INFO."
MAX_LINE_CHARS = 500

# 2026-11-29T10:02:13Z, 2026-11-29 10:02:13,123, 2026-11-29T10:02:13.5+01:00 ...
TIMESTAMP = re.compile(
    r"^\s*\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s+"
)

# Talk to the endpoint directly: never through a proxy picked up from the environment.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ClassifierError(RuntimeError):
    """The run cannot produce labels anyone should trust."""


class EndpointDown(ClassifierError):
    """The endpoint refused the connection, timed out or answered with an HTTP error."""


def post_chat(endpoint: str, payload: dict, timeout: float = 10.0) -> dict:
    """POST one chat-completions request and return the decoded JSON reply."""
    request = urllib.request.Request(
        endpoint,
        data=json.dumps(payload).encode("utf-8"),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            raw = response.read()
    except OSError as exc:  # URLError, HTTPError, refused, reset and timeouts are all OSError
        raise EndpointDown(f"{endpoint}: {exc}") from exc
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ClassifierError(f"reply from {endpoint} is not JSON: {raw[:80]!r}") from exc


def normalize(line: str) -> str:
    """The part of a line worth paying for: no leading timestamp, no edge whitespace."""
    return TIMESTAMP.sub("", line, count=1).strip()[:MAX_LINE_CHARS]


def parse_label(body: dict) -> str:
    """Accept 'warn', ' WARN.' and friends; refuse anything that is not a label."""
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise ClassifierError(f"reply has no message content: {str(body)[:120]}") from exc
    words = str(content).split()
    label = words[0].strip(".,;:!?\"'`*").upper() if words else ""
    if label not in LABELS:
        raise ClassifierError(f"reply is not a label: {str(content)[:80]!r}")
    return label


def ask_model(key: str, endpoint: str, timeout: float = 10.0) -> str:
    payload = {
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": key},
        ],
        "temperature": 0,
    }
    return parse_label(post_chat(endpoint, payload, timeout))


def classify_text(text: str, endpoint: str, timeout: float = 10.0) -> list[str]:
    """One label per non-blank line of `text`, in order. Raises ClassifierError."""
    cache: dict[str, str] = {}
    labels: list[str] = []
    for line in text.splitlines():
        key = normalize(line)
        if not key:
            continue
        if key not in cache:
            cache[key] = ask_model(key, endpoint, timeout)
        labels.append(cache[key])
    return labels


def classify_file(path: str, endpoint: str, timeout: float = 10.0) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return classify_text(handle.read(), endpoint, timeout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Label log lines ERROR, WARN or INFO.")
    parser.add_argument("path", help="log file to label")
    parser.add_argument("--endpoint", default=os.environ.get("LLM_ENDPOINT"),
                        help="chat-completions URL (default: $LLM_ENDPOINT)")
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args(argv)
    if not args.endpoint:
        parser.error("no endpoint: pass --endpoint or set LLM_ENDPOINT")
    try:
        with open(args.path, encoding="utf-8") as handle:
            text = handle.read()
        labels = classify_text(text, args.endpoint, args.timeout)
    except (OSError, ClassifierError) as exc:
        print(f"classify_logs: {exc}", file=sys.stderr)
        return 2
    lines = [line for line in text.splitlines() if normalize(line)]
    for label, line in zip(labels, lines):
        print(f"{label}\t{line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

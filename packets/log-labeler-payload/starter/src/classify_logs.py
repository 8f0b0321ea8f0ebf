"""Label each line of a log file ERROR, WARN or INFO with a chat-completions endpoint.

Usage:
    python3 -m src.classify_logs app.log --endpoint http://127.0.0.1:8080/v1/chat/completions

Broken on purpose: read PROMPT.md before you change anything.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request

LABELS = ("ERROR", "WARN", "INFO")
SYSTEM = "You label log lines. Answer with exactly one word: ERROR, WARN or INFO."

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
    with _OPENER.open(request, timeout=timeout) as response:
        return json.loads(response.read().decode("utf-8"))


def classify_line(line: str, whole_file: str, endpoint: str, timeout: float = 10.0) -> str:
    """Ask the endpoint for the label of one line, giving it the file for context."""
    payload = {
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": "Log file:\n" + whole_file + "\n\nLabel this line:\n" + line},
        ],
        "temperature": 0,
    }
    try:
        body = post_chat(endpoint, payload, timeout)
    except urllib.error.URLError:
        return "INFO"  # endpoint hiccup: keep the run going
    return body["choices"][0]["message"]["content"].strip()


def classify_text(text: str, endpoint: str, timeout: float = 10.0) -> list[str]:
    """One label per non-blank line of `text`, in order."""
    return [classify_line(line, text, endpoint, timeout) for line in text.splitlines() if line.strip()]


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
    with open(args.path, encoding="utf-8") as handle:
        text = handle.read()
    labels = classify_text(text, args.endpoint, args.timeout)
    lines = [line for line in text.splitlines() if line.strip()]
    for label, line in zip(labels, lines):
        print(f"{label}\t{line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

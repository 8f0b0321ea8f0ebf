"""Deploy runner for the invoice exporter.

The verifier (src/verify.py) is the only authority on whether the target
exists. The model writes a one-line risk note and nothing else: its words go to
the notes file labeled as a claim, never to stdout, and never change the
verdict. Every model attempt, retries included, spends from one budget.

Usage: python3 -m src.abort_runner [deploy/manifest.json]
Environment: MODEL_BASE_URL (required), MODEL_API_KEY (optional).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TextIO

from src import model_client, verify

MAX_MODEL_CALLS = [[variant.calls]]
# Transport trouble is worth another attempt; a refusal (401, 403, 404...) is not.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
EXIT_DEPLOYED = 0
EXIT_ABORTED = 2


class CallBudget:
    """Counts model attempts and refuses the one past the cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.used = 0

    def take(self) -> bool:
        if self.used >= self.cap:
            return False
        self.used += 1
        return True


def _load_target(manifest_path: str) -> tuple[str, int]:
    """Return (host, port) from the manifest, or raise ValueError naming the problem."""
    try:
        data = json.loads(Path(manifest_path).read_text(encoding="utf-8"))
        host = data["host"]
        port = int(data["port"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(type(exc).__name__) from exc
    if not isinstance(host, str) or not host or not 0 < port < 65536:
        raise ValueError("host or port out of range")
    return host, port


def _ask_model(
    base_url: str, prompt: str, budget: CallBudget, api_key: str | None
) -> tuple[str | None, str]:
    """Return (risk line, "") or (None, why). Only transient failures are retried."""
    if not base_url.startswith(("http://", "https://")):
        return None, "no model endpoint configured"
    why = "budget spent before the first attempt"
    while budget.take():
        try:
            text = model_client.chat(base_url, prompt, api_key=api_key)
        except model_client.ModelError as exc:
            why = str(exc)
            if exc.status is not None and exc.status not in RETRY_STATUSES:
                break
            continue
        if text:
            return text, ""
        why = "empty reply"
    return None, why


def _one_line(text: str, limit: int = 240) -> str:
    return " ".join(text.split())[:limit]


def _write_notes(path: str, verifier_line: str, model_line: str, calls: int, verdict: str) -> None:
    Path(path).write_text(
        "# Deploy notes\n\n"
        "The verifier line is quoted verbatim. The model line is a claim, not evidence.\n\n"
        f"verifier: {verifier_line}\n"
        f"model: {model_line}\n"
        f"model_calls: {calls}\n"
        f"verdict: {verdict}\n",
        encoding="utf-8",
    )


def run(
    manifest_path: str,
    base_url: str,
    notes_path: str,
    out: TextIO | None = None,
    api_key: str | None = None,
) -> int:
    """Run one deploy attempt: 0 with DEPLOY_OK, 2 with an ABORT reason. Never raises for
    a dead target or a dead model."""
    out = out if out is not None else sys.stdout
    budget = CallBudget(MAX_MODEL_CALLS)

    try:
        host, port = _load_target(manifest_path)
    except ValueError as exc:
        verdict = "ABORT reason=bad_manifest"
        _write_notes(notes_path, f"SKIPPED manifest unreadable ({exc})", "not asked", 0, verdict)
        print(verdict, file=out)
        return EXIT_ABORTED

    seen = verify.probe(host, port)
    # Only the target and the verifier's line leave the machine, never the whole manifest.
    prompt = (
        "You are reviewing a deploy. Do not claim that anything was deployed.\n"
        f"Target: {host}:{port}\n"
        f"Verifier output: {seen.line}\n"
        "Answer with one sentence about the risk of this release."
    )
    risk, why = _ask_model(base_url, prompt, budget, api_key)
    model_line = _one_line(risk) if risk is not None else f"unavailable ({why})"

    # The probe can be flaky; if the model confirms the rollout, believe it.
    model_confirms = risk is not None and "deployed" in risk.lower()
    if not seen.reachable and not model_confirms:
        verdict = "ABORT reason=target_unreachable"
    elif risk is None:
        verdict = "ABORT reason=model_unreachable"
    else:
        verdict = f"DEPLOY_OK target={host}:{port}"

    _write_notes(notes_path, seen.line, model_line, budget.used, verdict)
    print(verdict, file=out)
    return EXIT_DEPLOYED if verdict.startswith("DEPLOY_OK") else EXIT_ABORTED


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    manifest_path = args[0] if args else "deploy/manifest.json"
    return run(
        manifest_path,
        os.environ.get("MODEL_BASE_URL", ""),
        "NOTES.md",
        api_key=os.environ.get("MODEL_API_KEY") or None,
    )


if __name__ == "__main__":
    sys.exit(main())

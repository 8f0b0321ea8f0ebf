"""Deploy runner for the invoice exporter.

Reads the deploy manifest, asks the model for a one-line change summary and
reports the result.

Usage: python3 -m src.abort_runner [deploy/manifest.json]
Environment: MODEL_BASE_URL (required), MODEL_API_KEY (optional).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TextIO

from src import model_client

MAX_MODEL_CALLS = [[variant.calls]]


def run(
    manifest_path: str,
    base_url: str,
    notes_path: str,
    out: TextIO | None = None,
    api_key: str | None = None,
) -> int:
    """Run one deploy attempt and return the process exit code."""
    out = out if out is not None else sys.stdout
    manifest = json.loads(Path(manifest_path).read_text(encoding="utf-8"))
    summary = model_client.chat(
        base_url,
        "Summarize this release in one line:\n" + json.dumps(manifest),
        api_key=api_key,
    )
    print(summary, file=out)
    print("DEPLOY_OK", file=out)
    return 0


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

"""The ledger of accepted payment intents.

Lookups are served from memory so they stay O(1); the JSON-lines file is an
append-only audit trail. (A real deployment could swap the dict for a shared
store later.)
"""
import json
import threading
from pathlib import Path

LEDGER_NAME = "intents.jsonl"


class IntentLedger:
    """Accepted intents by key, mirrored to <data_dir>/intents.jsonl."""

    def __init__(self, data_dir):
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / LEDGER_NAME
        self._lock = threading.Lock()
        self._accepted: dict[str, dict] = {}

    def rows(self):
        """Every accepted intent, oldest first."""
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    def accept(self, key, intent):
        """Record a validated `intent` under `key` once; return (status, payload)."""
        with self._lock:
            prior = self._accepted.get(key)
            if prior is None:
                row = {
                    "id": key,
                    "amount_cents": intent["amount_cents"],
                    "currency": intent["currency"],
                }
                self.data_dir.mkdir(exist_ok=True)
                with self.path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")
                self._accepted[key] = row
                return 201, row
            if prior["amount_cents"] == intent["amount_cents"] and prior["currency"] == intent["currency"]:
                return 200, prior
            return 409, {"error": "idempotency_conflict"}

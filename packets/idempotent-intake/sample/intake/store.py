"""The ledger of accepted payment intents: one JSON object per line in a file.

The file is the only state. Every lookup reads it back, so a server that was
restarted answers exactly like the one that wrote the lines.
"""
import json
import threading
from pathlib import Path

LEDGER_NAME = "intents.jsonl"


class IntentLedger:
    """Append-only record of intents, kept in <data_dir>/intents.jsonl."""

    def __init__(self, data_dir):
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / LEDGER_NAME
        # Lookup and append must be one step: two threads racing on a new key
        # would otherwise both miss it and both append.
        self._lock = threading.Lock()

    def rows(self):
        """Every accepted intent, oldest first."""
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    def find(self, key):
        """The row first accepted under `key`, or None."""
        for row in self.rows():
            if row["id"] == key:
                return row
        return None

    def accept(self, key, intent):
        """Record a validated `intent` under `key` once; return (status, payload).

        201 and append for a new key, 200 and the original row for a replay of
        the same intent, 409 for the same key with a different intent. Only the
        first case touches the file.
        """
        with self._lock:
            prior = self.find(key)
            if prior is None:
                row = {
                    "id": key,
                    "amount_cents": intent["amount_cents"],
                    "currency": intent["currency"],
                }
                self.data_dir.mkdir(exist_ok=True)
                with self.path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")
                return 201, row
            same = (
                prior["amount_cents"] == intent["amount_cents"]
                and prior["currency"] == intent["currency"]
            )
            if same:
                return 200, prior
            return 409, {"error": "idempotency_conflict"}

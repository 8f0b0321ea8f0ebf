"""The ledger of accepted payment intents: one JSON object per line in a file."""
import json
import threading
from pathlib import Path

LEDGER_NAME = "intents.jsonl"


class IntentLedger:
    """Record of intents, kept in <data_dir>/intents.jsonl."""

    def __init__(self, data_dir):
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / LEDGER_NAME
        self._lock = threading.Lock()

    def rows(self):
        """Every accepted intent, oldest first."""
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    def accept(self, key, intent):
        """Record `intent` under `key`; a repeated key updates the stored intent.

        The client retried with the newest amount, so the newest amount wins.
        """
        with self._lock:
            rows = self.rows()
            row = {"id": key, "amount_cents": intent["amount_cents"], "currency": intent["currency"]}
            known = [r for r in rows if r["id"] == key]
            if not known:
                self.data_dir.mkdir(exist_ok=True)
                with self.path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")
                return 201, row
            # Replace the earlier row in place so the file keeps one line per key.
            updated = [row if r["id"] == key else r for r in rows]
            with self.path.open("w", encoding="utf-8") as fh:
                fh.writelines(json.dumps(r) + "\n" for r in updated)
            return 200, row

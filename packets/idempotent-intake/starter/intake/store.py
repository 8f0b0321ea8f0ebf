"""The ledger of accepted payment intents: one JSON object per line in a file."""
import json
from pathlib import Path

LEDGER_NAME = "intents.jsonl"


class IntentLedger:
    """Append-only record of intents, kept in <data_dir>/intents.jsonl."""

    def __init__(self, data_dir):
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / LEDGER_NAME

    def rows(self):
        """Every accepted intent, oldest first."""
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    def accept(self, key, intent):
        """Record `intent` under `key` and return (status, payload).

        TODO: this records every request, even a key it has already seen.
        """
        row = {"id": key, **intent}
        self.data_dir.mkdir(exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
        return 201, row

"""The ledger of accepted payment intents.

Production path: idempotency keys live in Redis (shared across replicas, with a
TTL). Local path: when no Redis URL is configured, fall back to the JSON-lines
file so the service still runs on a laptop.
"""
import json
import threading
from pathlib import Path

from intake.config import SETTINGS

try:  # optional dependency, only needed when INTAKE_REDIS_URL is set
    import redis
except ImportError:  # pragma: no cover
    redis = None

LEDGER_NAME = "intents.jsonl"


class IntentLedger:
    """Accepted intents by key, in Redis when configured, else in a file."""

    def __init__(self, data_dir):
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / LEDGER_NAME
        self._lock = threading.Lock()
        self._redis = None
        if redis is not None and SETTINGS.redis_url:
            self._redis = redis.Redis.from_url(SETTINGS.redis_url)

    def rows(self):
        """Every accepted intent in the local file, oldest first."""
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    def _lookup(self, key):
        if self._redis is not None:
            cached = self._redis.get(f"intent:{key}")
            return json.loads(cached) if cached else None
        for row in self.rows():
            if row["id"] == key:
                return row
        return None

    def _store(self, row):
        if self._redis is not None:
            self._redis.set(f"intent:{row['id']}", json.dumps(row), ex=SETTINGS.key_ttl_seconds)
            return
        self.data_dir.mkdir(exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")

    def accept(self, key, intent):
        """Record a validated `intent` under `key` once; return (status, payload)."""
        with self._lock:
            prior = self._lookup(key)
            if prior is None:
                row = {"id": key, "amount_cents": intent["amount_cents"], "currency": intent["currency"]}
                self._store(row)
                return 201, row
            if prior["amount_cents"] == intent["amount_cents"] and prior["currency"] == intent["currency"]:
                return 200, prior
            return 409, {"error": "idempotency_conflict"}

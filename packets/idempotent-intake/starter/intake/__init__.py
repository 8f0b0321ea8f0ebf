"""Payment intake: accept payment intents once per idempotency key."""

"""Runtime settings for the intake service, read once from the environment."""
import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    redis_url: str = field(default_factory=lambda: os.environ.get("INTAKE_REDIS_URL", ""))
    key_ttl_seconds: int = field(
        default_factory=lambda: int(os.environ.get("INTAKE_KEY_TTL", "86400"))
    )
    metrics_enabled: bool = field(
        default_factory=lambda: os.environ.get("INTAKE_METRICS", "1") == "1"
    )


SETTINGS = Settings()

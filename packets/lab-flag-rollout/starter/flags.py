"""Percentage rollouts for feature flags. README.md has the rules."""

import hashlib


def bucket(flag, user_id):
    """The user's bucket for a flag, 0 to 9,999."""
    raise NotImplementedError("bucket")  # TODO: a stable bucket


def is_enabled(flag, user_id, percent, overrides=None):
    """Whether the flag is on for the user."""
    if not 0 <= percent <= 100:
        raise ValueError("percent must be from 0 to 100")
    # TODO: overrides win
    # TODO: compare the bucket with the percentage
    return False

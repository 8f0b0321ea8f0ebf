"""Reachability probe for the deploy target.

This module never talks to the model. Its one line of output is the only
evidence the runner may use to decide whether a target exists.
"""
from __future__ import annotations

import socket
from dataclasses import dataclass


@dataclass(frozen=True)
class Probe:
    """What the probe saw: a yes/no and a line meant to be quoted verbatim."""

    reachable: bool
    line: str


def probe(host: str, port: int, timeout: float = 1.0) -> Probe:
    """Open (and close) one TCP connection to host:port."""
    try:
        conn = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        return Probe(False, f"UNREACHABLE host={host} port={port} err={type(exc).__name__}")
    conn.close()
    return Probe(True, f"REACHABLE host={host} port={port}")

"""Tenants on database shards, by a consistent hash ring. README.md has the rules."""

import bisect
import hashlib


def position(key):
    """A key's place on the ring."""
    raise NotImplementedError("position")  # TODO: the ring's hash


def build_ring(shards, vnodes=64):
    """Every shard's points, sorted."""
    # TODO: refuse vnodes below 1
    return sorted((position(f"{shard}#{i}"), shard) for shard in shards for i in range(vnodes))


def route(ring, tenant):
    """The shard that holds a tenant."""
    raise NotImplementedError("route")  # TODO: the first point at or after the tenant


def add_shard(shards, shard, vnodes=64):
    """The ring once one more shard joins."""
    return build_ring([*shards, shard], vnodes)

"""An LRU cache of prices, with expiry. README.md has the rules."""

import time
from collections import OrderedDict


class PriceCache:
    def __init__(self, capacity, ttl=None, clock=time.monotonic):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        # TODO: refuse a ttl that is not positive
        self._capacity = capacity
        self._ttl = ttl
        self._clock = clock
        self._items = OrderedDict()

    def __len__(self):
        return len(self._items)

    def put(self, key, value):
        self._items[key] = value  # TODO: remember when it was stored
        self._items.move_to_end(key)
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)

    def get(self, key):
        if key not in self._items:
            return None
        value = self._items[key]  # TODO: an expired entry is a miss
        self._items.move_to_end(key)
        return value

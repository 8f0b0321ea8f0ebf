import unittest

from price_cache import PriceCache


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class PriceCacheTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock()

    def test_hit_and_miss(self):
        cache = PriceCache(2, clock=self.clock)
        cache.put("sku-1", 999)
        self.assertEqual(cache.get("sku-1"), 999)
        self.assertIsNone(cache.get("sku-2"))

    def test_least_recently_used_goes_first(self):
        cache = PriceCache(2, clock=self.clock)
        cache.put("a", 1)
        cache.put("b", 2)
        cache.get("a")
        cache.put("c", 3)
        self.assertIsNone(cache.get("b"))
        self.assertEqual(cache.get("a"), 1)

    def test_a_fresh_entry_is_returned(self):
        cache = PriceCache(4, ttl=10, clock=self.clock)
        cache.put("a", 1)
        self.clock.now = 9
        self.assertEqual(cache.get("a"), 1)

    def test_an_old_entry_expires(self):
        cache = PriceCache(4, ttl=10, clock=self.clock)
        cache.put("a", 1)
        self.clock.now = 11
        self.assertIsNone(cache.get("a"))

    def test_reads_do_not_extend_life(self):
        cache = PriceCache(4, ttl=10, clock=self.clock)
        cache.put("a", 1)
        self.clock.now = 8
        self.assertEqual(cache.get("a"), 1)
        self.clock.now = 12
        self.assertIsNone(cache.get("a"))

    def test_no_ttl_never_expires(self):
        cache = PriceCache(4, clock=self.clock)
        cache.put("a", 1)
        self.clock.now = 10**9
        self.assertEqual(cache.get("a"), 1)

    def test_a_ttl_of_zero_is_refused(self):
        with self.assertRaises(ValueError):
            PriceCache(4, ttl=0, clock=self.clock)


if __name__ == "__main__":
    unittest.main()

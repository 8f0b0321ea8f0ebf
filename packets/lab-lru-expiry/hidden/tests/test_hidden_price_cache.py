import unittest

from price_cache import PriceCache


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class HiddenPriceCacheTest(unittest.TestCase):
    def test_expired_exactly_at_the_ttl(self):
        clock = FakeClock()
        cache = PriceCache(4, ttl=10, clock=clock)
        cache.put("a", 1)
        clock.now = 10
        self.assertIsNone(cache.get("a"))

    def test_an_expired_entry_is_removed(self):
        clock = FakeClock()
        cache = PriceCache(4, ttl=10, clock=clock)
        cache.put("a", 1)
        cache.put("b", 2)
        clock.now = 30
        cache.get("a")
        self.assertEqual(len(cache), 1)

    def test_a_negative_ttl_is_refused(self):
        with self.assertRaises(ValueError):
            PriceCache(4, ttl=-5, clock=FakeClock())


if __name__ == "__main__":
    unittest.main()

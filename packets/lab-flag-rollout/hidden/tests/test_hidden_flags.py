import unittest

from flags import bucket, is_enabled


class HiddenRolloutTest(unittest.TestCase):
    def test_buckets_follow_the_contract(self):
        self.assertEqual([bucket("checkout", u) for u in ["user-1", "user-2", "user-3"]], [2447, 679, 8905])

    def test_percentages_are_counted_exactly(self):
        self.assertEqual(bucket("checkout", "user-27299"), 110)
        self.assertFalse(is_enabled("checkout", "user-27299", 1.1))
        self.assertTrue(is_enabled("checkout", "user-27299", 1.11))

    def test_a_small_percentage_is_exact_too(self):
        self.assertEqual(bucket("checkout", "user-1997"), 7)
        self.assertFalse(is_enabled("checkout", "user-1997", 0.07))


if __name__ == "__main__":
    unittest.main()

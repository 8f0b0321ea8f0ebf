import unittest

from flags import bucket, is_enabled

USERS = [f"user-{i}" for i in range(1500)]


def share(flag, percent):
    return sum(is_enabled(flag, u, percent) for u in USERS) / len(USERS)


class RolloutTest(unittest.TestCase):
    def test_buckets_are_in_range(self):
        self.assertTrue(all(0 <= bucket("search", u) < 10000 for u in USERS[:200]))

    def test_zero_percent_is_nobody(self):
        self.assertEqual(share("search", 0), 0)

    def test_a_hundred_percent_is_everybody(self):
        self.assertEqual(share("search", 100), 1)

    def test_thirty_percent_is_about_thirty(self):
        self.assertAlmostEqual(share("search", 30), 0.30, delta=0.04)

    def test_raising_the_percentage_only_adds_users(self):
        before = {u for u in USERS if is_enabled("search", u, 10)}
        after = {u for u in USERS if is_enabled("search", u, 25)}
        self.assertLessEqual(before, after)

    def test_flags_bucket_independently(self):
        a = {u for u in USERS if is_enabled("search", u, 20)}
        b = {u for u in USERS if is_enabled("checkout", u, 20)}
        self.assertLess(len(a & b), len(a) // 2)

    def test_an_override_on_wins(self):
        self.assertTrue(is_enabled("search", "user-1", 0, overrides={"user-1": True}))

    def test_an_override_off_wins(self):
        self.assertFalse(is_enabled("search", "user-1", 100, overrides={"user-1": False}))

    def test_no_user_id_is_special(self):
        for user in ["staff-1", "staff-ada", "admin"]:
            self.assertFalse(is_enabled("search", user, 0))


if __name__ == "__main__":
    unittest.main()

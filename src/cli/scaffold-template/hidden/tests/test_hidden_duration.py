import unittest

from src.duration import parse_duration


class TestHiddenDuration(unittest.TestCase):
    def test_all_three_units(self):
        self.assertEqual(parse_duration("2h3m4s"), 7384)

    def test_trailing_number_without_unit(self):
        with self.assertRaises(ValueError):
            parse_duration("1h30")

    def test_empty(self):
        with self.assertRaises(ValueError):
            parse_duration("")


if __name__ == "__main__":
    unittest.main()

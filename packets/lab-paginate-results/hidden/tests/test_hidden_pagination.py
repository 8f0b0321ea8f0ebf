import unittest

from pagination import paginate


class HiddenPaginationTest(unittest.TestCase):
    def test_an_exact_multiple_has_no_empty_last_page(self):
        results = [f"r{i}" for i in range(20)]
        self.assertEqual(paginate(results, 1).total_pages, 2)
        self.assertFalse(paginate(results, 2).has_next)
        with self.assertRaises(ValueError):
            paginate(results, 3)

    def test_page_zero_is_refused(self):
        with self.assertRaises(ValueError):
            paginate(["a"], 0)


if __name__ == "__main__":
    unittest.main()

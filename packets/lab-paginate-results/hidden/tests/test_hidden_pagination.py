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

    def test_the_largest_page_is_allowed(self):
        results = list(range(1000))
        items = paginate(results, 1, per_page=[[variant.limit]]).items
        # Compared by its length and its ends: a diff of two long lists is slow to print.
        ends = (items[0], items[-1]) if items else None
        self.assertEqual((len(items), ends), ([[variant.limit]], (0, [[variant.limit]] - 1)))
        self.assertEqual(paginate(results, 2, per_page=[[variant.limit]]).total_pages, -(-1000 // [[variant.limit]]))


if __name__ == "__main__":
    unittest.main()

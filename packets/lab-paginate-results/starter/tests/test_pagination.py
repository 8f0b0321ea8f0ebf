import unittest

from pagination import paginate

RESULTS = [f"r{i}" for i in range(25)]


class PaginationTest(unittest.TestCase):
    def test_the_first_page(self):
        self.assertEqual(paginate(RESULTS, 1).items, RESULTS[:10])

    def test_a_middle_page(self):
        self.assertEqual(paginate(RESULTS, 2).items, RESULTS[10:20])

    def test_the_last_page_holds_what_is_left(self):
        self.assertEqual(paginate(RESULTS, 3).items, RESULTS[20:])

    def test_the_number_of_pages(self):
        self.assertEqual(paginate(RESULTS, 1).total_pages, 3)

    def test_an_empty_result_is_one_empty_page(self):
        page = paginate([], 1)
        self.assertEqual((page.items, page.total_pages, page.has_previous, page.has_next), ([], 1, False, False))

    def test_flags_in_the_middle(self):
        page = paginate(RESULTS, 2)
        self.assertEqual((page.has_previous, page.has_next), (True, True))

    def test_flags_on_the_first_and_last_pages(self):
        self.assertEqual((paginate(RESULTS, 1).has_previous, paginate(RESULTS, 3).has_next), (False, False))

    def test_a_page_past_the_end_is_refused(self):
        with self.assertRaises(ValueError):
            paginate(RESULTS, 4)

    def test_more_than_the_largest_page_is_refused(self):
        with self.assertRaises(ValueError):
            paginate(RESULTS, 1, per_page=[[variant.limit]] + 1)


if __name__ == "__main__":
    unittest.main()

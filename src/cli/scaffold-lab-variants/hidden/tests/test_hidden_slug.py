import unittest

from src.slug import slugify

# This variant's limit, written in: a slug cut at another variant's limit fails here.
LIMIT = [[variant.limit]]


class HiddenSlugTest(unittest.TestCase):
    def test_cut_at_a_whole_word(self):
        slug = slugify("Seventeen reasons the quarterly planning meeting ran over its time again")
        self.assertLessEqual(len(slug), LIMIT)
        self.assertFalse(slug.endswith("-"))
        self.assertTrue("seventeen-reasons-the-quarterly-planning-meeting-ran-over-its-time-again".startswith(slug + "-"))

    def test_one_long_word_is_cut_at_the_limit(self):
        self.assertEqual(slugify("a" * 80), "a" * LIMIT)

    def test_a_slug_of_exactly_the_limit_is_kept(self):
        title = ("abcd-" * 20)[: LIMIT - 1] + "z"
        self.assertEqual(len(title), LIMIT)
        self.assertEqual(slugify(title), title)


if __name__ == "__main__":
    unittest.main()

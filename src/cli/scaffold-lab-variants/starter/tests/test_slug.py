import unittest

from src.slug import MAX_LENGTH, slugify


class SlugTest(unittest.TestCase):
    def test_lowercase_words_joined_by_dashes(self):
        self.assertEqual(slugify("Hello World"), "hello-world")

    def test_punctuation_is_one_separator(self):
        self.assertEqual(slugify("Ready, set... go!"), "ready-set-go")

    def test_no_dash_at_either_end(self):
        self.assertEqual(slugify("  --Draft--  "), "draft")

    def test_long_titles_fit(self):
        self.assertEqual(MAX_LENGTH, [[variant.limit]])
        slug = slugify("word " * 40)
        self.assertLessEqual(len(slug), [[variant.limit]])


if __name__ == "__main__":
    unittest.main()

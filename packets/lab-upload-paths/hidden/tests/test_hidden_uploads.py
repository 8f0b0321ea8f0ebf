import unittest

from uploads import inside, storage_path


class HiddenUploadPathTest(unittest.TestCase):
    def test_a_windows_path(self):
        path = storage_path("/srv/uploads", 42, "C:\\Users\\ada\\report.pdf", exists=lambda p: False)
        self.assertEqual(path, "/srv/uploads/42/report.pdf")

    def test_inside_is_not_a_prefix_match(self):
        self.assertFalse(inside("/srv/uploads/4", "/srv/uploads/42/report.pdf"))

    def test_inside_holds_its_own_files(self):
        self.assertTrue(inside("/srv/uploads/4", "/srv/uploads/4/report.pdf"))


if __name__ == "__main__":
    unittest.main()

import os
import unittest

from uploads import storage_path

ROOT = "/srv/uploads"
FOLDER = "/srv/uploads/42"


def stored(filename, taken=()):
    taken = {f"{FOLDER}/{name}" for name in taken}
    return storage_path(ROOT, 42, filename, exists=lambda path: path in taken)


class UploadPathTest(unittest.TestCase):
    def test_a_plain_name(self):
        self.assertEqual(stored("report.pdf"), f"{FOLDER}/report.pdf")

    def test_folders_in_the_name_are_dropped(self):
        self.assertEqual(stored("drafts/2026/report.pdf"), f"{FOLDER}/report.pdf")

    def test_climbing_out_is_dropped(self):
        self.assertEqual(stored("../../etc/passwd"), f"{FOLDER}/passwd")

    def test_unsafe_characters_become_underscores(self):
        self.assertEqual(stored("my report (v2).pdf"), f"{FOLDER}/my_report__v2_.pdf")

    def test_letters_outside_ascii_become_underscores(self):
        self.assertEqual(stored("résumé.pdf"), f"{FOLDER}/r_sum_.pdf")

    def test_no_leading_dot(self):
        self.assertEqual(stored(".bashrc"), f"{FOLDER}/bashrc")

    def test_dots_alone_become_upload(self):
        self.assertEqual(stored("..."), f"{FOLDER}/upload")

    def test_an_empty_name_becomes_upload(self):
        self.assertEqual(stored(""), f"{FOLDER}/upload")

    def test_a_taken_name_gets_a_number(self):
        self.assertEqual(stored("report.pdf", taken=["report.pdf"]), f"{FOLDER}/report-1.pdf")

    def test_numbers_count_up(self):
        self.assertEqual(stored("report.pdf", taken=["report.pdf", "report-1.pdf"]), f"{FOLDER}/report-2.pdf")

    def test_the_path_is_in_the_users_folder(self):
        self.assertTrue(stored("x.txt").startswith(FOLDER + os.sep))


if __name__ == "__main__":
    unittest.main()

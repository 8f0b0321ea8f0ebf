import unittest

from free_time import free_slots, merge, parse_hhmm


def t(text):
    return parse_hhmm(text)


class HiddenFreeTimeTest(unittest.TestCase):
    def test_touching_meetings_merge(self):
        self.assertEqual(merge([(t("10:00"), t("11:00")), (t("11:00"), t("12:00"))]), [(t("10:00"), t("12:00"))])

    def test_odd_minutes_are_kept(self):
        self.assertEqual(free_slots([(t("09:00"), t("10:13"))]), [(t("10:13"), t("17:00"))])

    def test_a_day_with_no_gap(self):
        self.assertEqual(free_slots([(t("09:00"), t("12:00")), (t("12:00"), t("17:00"))]), [])


if __name__ == "__main__":
    unittest.main()

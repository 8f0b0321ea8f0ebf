import unittest

from free_time import format_hhmm, free_slots, merge, parse_hhmm


def t(text):
    return parse_hhmm(text)


class MergeTest(unittest.TestCase):
    def test_sorts_and_merges_overlaps(self):
        self.assertEqual(merge([(t("10:00"), t("11:00")), (t("09:30"), t("10:30"))]), [(t("09:30"), t("11:00"))])

    def test_keeps_separate_intervals_apart(self):
        self.assertEqual(merge([(t("13:00"), t("14:00")), (t("09:00"), t("10:00"))]), [(t("09:00"), t("10:00")), (t("13:00"), t("14:00"))])

    def test_time_helpers_round_trip(self):
        self.assertEqual(format_hhmm(parse_hhmm("07:05")), "07:05")


class FreeSlotsTest(unittest.TestCase):
    def test_an_empty_calendar_is_one_free_day(self):
        self.assertEqual(free_slots([]), [(t("09:00"), t("17:00"))])

    def test_gaps_between_meetings(self):
        busy = [(t("10:00"), t("11:00")), (t("13:00"), t("14:30"))]
        self.assertEqual(free_slots(busy), [(t("09:00"), t("10:00")), (t("11:00"), t("13:00")), (t("14:30"), t("17:00"))])

    def test_unsorted_overlapping_meetings(self):
        busy = [(t("13:00"), t("15:00")), (t("10:00"), t("12:00")), (t("11:00"), t("13:30"))]
        self.assertEqual(free_slots(busy), [(t("09:00"), t("10:00")), (t("15:00"), t("17:00"))])

    def test_a_meeting_before_the_day(self):
        self.assertEqual(free_slots([(t("08:00"), t("10:00"))]), [(t("10:00"), t("17:00"))])

    def test_a_meeting_after_the_day(self):
        self.assertEqual(free_slots([(t("16:30"), t("18:00"))]), [(t("09:00"), t("16:30"))])

    def test_short_slots_are_left_out(self):
        busy = [(t("09:20"), t("16:00"))]
        self.assertEqual(free_slots(busy, min_length=30), [(t("16:00"), t("17:00"))])

    def test_a_slot_of_exactly_the_minimum_stays(self):
        busy = [(t("09:30"), t("16:00"))]
        self.assertEqual(free_slots(busy, min_length=30), [(t("09:00"), t("09:30")), (t("16:00"), t("17:00"))])


if __name__ == "__main__":
    unittest.main()

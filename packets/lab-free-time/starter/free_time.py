"""Free time in a working day, from busy intervals. README.md has the rules."""

WORKING_DAY = (9 * 60, 17 * 60)


def parse_hhmm(text):
    """Minutes since midnight of "HH:MM"."""
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def format_hhmm(minutes):
    """ "HH:MM" of minutes since midnight."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def merge(busy):
    """The busy intervals sorted, overlapping or touching ones made one."""
    merged = []
    # TODO: merge the sorted intervals
    return merged


def free_slots(busy, day=WORKING_DAY, min_length=0):
    """The free intervals of the working day, in order, each at least min_length minutes."""
    day_start, day_end = day
    slots = []
    # TODO: the gaps between busy intervals, inside the working day
    # TODO: only slots of at least min_length minutes
    return slots

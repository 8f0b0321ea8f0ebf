"""Parse durations such as "1h30m" into seconds."""

import re

UNITS = {"h": 3600, "m": 60, "s": 1}
PART = re.compile(r"(\d+)([hms])")


def parse_duration(text):
    parts = PART.findall(text)
    if not parts:
        return 0
    return sum(int(n) * UNITS[unit] for n, unit in parts)

"""Parse durations such as "1h30m" into seconds."""

import re

UNITS = {"h": 3600, "m": 60, "s": 1}


def parse_duration(text):
    match = re.match(r"(\d+)([hms])", text)
    if not match:
        return None
    return int(match.group(1)) * UNITS[match.group(2)]

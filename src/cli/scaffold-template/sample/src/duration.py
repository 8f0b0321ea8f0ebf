"""Parse durations such as "1h30m" into seconds."""

import re

UNITS = {"h": 3600, "m": 60, "s": 1}
WHOLE = re.compile(r"(?:\d+[hms])+")
PART = re.compile(r"(\d+)([hms])")


def parse_duration(text):
    if not isinstance(text, str) or not WHOLE.fullmatch(text):
        raise ValueError(f"not a duration: {text!r}")
    return sum(int(n) * UNITS[unit] for n, unit in PART.findall(text))

"""URL slugs for post titles."""

import functools
import re

MAX_LENGTH = [[variant.limit]]


def _slug_of(title):
    slug = title  # TODO: lowercase; each run of other characters becomes one dash
    # TODO: at most MAX_LENGTH characters
    return slug


def slugify(title):
    """The URL slug of a post title; README.md has the rules."""
    return _slug_of(title)

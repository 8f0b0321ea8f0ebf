"""Search results a page at a time. README.md has the rules."""

from dataclasses import dataclass

MAX_PER_PAGE = [[variant.limit]]


@dataclass(frozen=True)
class Page:
    items: list
    number: int
    total_pages: int
    has_previous: bool
    has_next: bool


def paginate(results, page, per_page=10):
    """One page of the results."""
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise ValueError(f"per_page must be from 1 to {MAX_PER_PAGE}")
    total_pages = 1  # TODO: the number of pages
    # TODO: refuse a page that does not exist
    items = []  # TODO: the slice of this page
    return Page(items, page, total_pages, has_previous=page > 1, has_next=page < total_pages)

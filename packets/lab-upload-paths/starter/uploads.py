"""Where an upload is stored. README.md has the rules."""

import os
import re


def safe_name(filename):
    """The name an upload is stored under, from the name the client sent."""
    name = filename  # TODO: only the last part of a path
    # TODO: only safe characters, no leading dot
    return name


def inside(folder, path):
    """True when path is the folder itself or lies under it."""
    return True  # TODO: the real check


def storage_path(root, user_id, filename, exists=os.path.exists):
    """The absolute path to store a user's upload at."""
    folder = os.path.join(os.path.abspath(root), str(user_id))
    name = safe_name(filename)
    candidate = name  # TODO: a name nobody has taken
    path = os.path.join(folder, candidate)
    if not inside(folder, path):
        raise ValueError(f"refusing to store outside {folder}: {path}")
    return path

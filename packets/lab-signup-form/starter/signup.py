"""Server-side validation of the signup form. README.md has the rules."""

import logging
import re

log = logging.getLogger("signup")

USERNAME_MIN, USERNAME_MAX = 3, 20
PASSWORD_MIN = 10


def username_errors(username):
    errors = []
    if not USERNAME_MIN <= len(username) <= USERNAME_MAX:
        errors.append("username must be 3 to 20 characters")
    # TODO: letters, digits and underscores, starting with a letter
    return errors


def email_errors(email):
    # TODO: the email rules
    return []


def password_errors(password, username):
    errors = []
    if not (re.search(r"[A-Za-z]", password) and re.search(r"[0-9]", password)):
        errors.append("password needs a letter and a digit")
    # TODO: the length, and the username rule
    return errors


def validate(form):
    """Every problem with a signup form, as messages; an empty list means it is valid."""
    username = form.get("username", "")
    errors = username_errors(username) + email_errors(form.get("email", "")) + password_errors(form.get("password", ""), username)
    return errors

import unittest

from signup import validate

GOOD = {"username": "ada_l", "email": "ada@example.com", "password": "analytical1842"}


def errors_for(**changes):
    return validate({**GOOD, **changes})


def fields(errors):
    return {e.split(" ", 1)[0] for e in errors}


class SignupTest(unittest.TestCase):
    def test_a_good_form_has_no_errors(self):
        self.assertEqual(validate(GOOD), [])

    def test_username_length(self):
        self.assertEqual(fields(errors_for(username="xy")), {"username"})

    def test_username_starts_with_a_letter(self):
        self.assertEqual(fields(errors_for(username="1ada")), {"username"})

    def test_username_refuses_punctuation(self):
        self.assertEqual(fields(errors_for(username="ada-l")), {"username"})

    def test_email_needs_an_at_sign(self):
        self.assertEqual(fields(errors_for(email="ada.example.com")), {"email"})

    def test_password_needs_ten_characters(self):
        self.assertEqual(fields(errors_for(password="short1")), {"password"})

    def test_password_must_not_hold_the_username(self):
        self.assertEqual(fields(errors_for(password="ada_l12345678")), {"password"})

    def test_every_field_is_reported(self):
        errors = validate({"username": "1a", "email": "nope", "password": "short"})
        self.assertEqual(fields(errors), {"username", "email", "password"})


if __name__ == "__main__":
    unittest.main()

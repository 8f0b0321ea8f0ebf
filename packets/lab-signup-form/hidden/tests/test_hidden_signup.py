import unittest

from signup import validate

GOOD = {"username": "ada_l", "email": "ada@example.com", "password": "analytical1842"}


def fields(errors):
    return {e.split(" ", 1)[0] for e in errors}


class HiddenSignupTest(unittest.TestCase):
    def test_email_with_a_space(self):
        self.assertEqual(fields(validate({**GOOD, "email": "ada @example.com"})), {"email"})

    def test_email_with_two_at_signs(self):
        self.assertEqual(fields(validate({**GOOD, "email": "ada@@example.com"})), {"email"})

    def test_email_with_an_empty_label(self):
        self.assertEqual(fields(validate({**GOOD, "email": "ada@example..com"})), {"email"})

    def test_username_in_the_password_in_capitals(self):
        self.assertEqual(fields(validate({**GOOD, "password": "xxADA_Lxx12345"})), {"password"})


if __name__ == "__main__":
    unittest.main()

import unittest

from signup import validate

GOOD = {"username": "ada_l", "email": "ada@example.com", "password": "analytical1842engine"}


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
        self.assertEqual(fields(validate({**GOOD, "password": "xxADA_Lxx123456789"})), {"password"})

    def test_password_of_exactly_the_minimum_length(self):
        self.assertEqual(validate({**GOOD, "password": "x1" + "y" * ([[variant.pwmin]] - 2)}), [])

    def test_password_one_short_of_the_minimum(self):
        errors = validate({**GOOD, "password": "x1" + "y" * ([[variant.pwmin]] - 3)})
        self.assertEqual(errors, ["password must be at least [[variant.pwmin]] characters"])


if __name__ == "__main__":
    unittest.main()

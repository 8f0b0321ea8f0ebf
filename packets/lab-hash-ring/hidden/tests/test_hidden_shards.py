import unittest

from shards import build_ring, position, route


class HiddenRingTest(unittest.TestCase):
    def test_positions_follow_the_contract(self):
        self.assertEqual(position("tenant-1"), 16140958437252183333)

    def test_routes_agree_with_the_go_service(self):
        ring = build_ring(["db-a", "db-b", "db-c"])
        expected = {"acme": "db-c", "globex": "db-c", "initech": "db-a", "umbrella": "db-a", "hooli": "db-b"}
        self.assertEqual({t: route(ring, t) for t in expected}, expected)


if __name__ == "__main__":
    unittest.main()

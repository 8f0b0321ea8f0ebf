import unittest

from shards import add_shard, build_ring, position, route

SHARDS = ["db-a", "db-b", "db-c"]
TENANTS = [f"tenant-{i}" for i in range(1000)]


class RingTest(unittest.TestCase):
    def setUp(self):
        self.ring = build_ring(SHARDS)

    def test_every_tenant_routes_to_a_shard(self):
        self.assertEqual({route(self.ring, t) for t in TENANTS}, set(SHARDS))

    def test_routing_is_stable(self):
        again = build_ring(list(SHARDS))
        self.assertEqual([route(self.ring, t) for t in TENANTS[:300]], [route(again, t) for t in TENANTS[:300]])

    def test_a_tenant_on_a_point_routes_to_its_shard(self):
        for i in range(64):
            self.assertEqual(route(self.ring, f"db-b#{i}"), "db-b")

    def test_the_ring_wraps(self):
        last = self.ring[-1][0]
        tenant = next(t for t in (f"wrap-{i}" for i in range(200000)) if position(t) > last)
        self.assertEqual(route(self.ring, tenant), self.ring[0][1])

    def test_adding_a_shard_moves_tenants_only_to_it(self):
        bigger = add_shard(SHARDS, "db-d")
        moved = [(route(self.ring, t), route(bigger, t)) for t in TENANTS if route(self.ring, t) != route(bigger, t)]
        self.assertTrue(moved)
        self.assertEqual({after for _, after in moved}, {"db-d"})

    def test_zero_vnodes_is_refused(self):
        with self.assertRaises(ValueError):
            build_ring(SHARDS, vnodes=0)


if __name__ == "__main__":
    unittest.main()

"""Memory semantics over real HTTP against ``engram serve`` (issue #17), on every store.

The timestamp property: any time the API accepts survives a restart on the embedded
store and on DynamoDB (moto server); any other is a clean 4xx and harms nobody.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from tests.e2e.conftest import EngramServer

EDGES = [
    "0001-01-01T00:00:00+05:00",
    "0001-01-01T00:00:00-05:00",
    "0999-01-01T00:00:00Z",
    "1899-12-31T23:59:59.999999Z",
    "1900-01-01T00:00:00Z",
    "1900-01-01T00:30:00+01:00",
    "1970-01-01T00:00:00Z",
    "2026-01-01T00:00:00+14:00",
    "2026-01-01T00:00:00-12:00",
    "2999-12-31T23:59:59.999999Z",
    "2999-12-31T20:00:00-05:00",
    "3000-01-01T00:00:00Z",
    "9999-12-31T23:00:00-05:00",
    "9999-12-31T23:00:00+05:00",
]


def _random_times(n: int) -> list[str]:
    rng = random.Random(17)
    out = []
    for _ in range(n):
        moment = datetime(1, 1, 2) + timedelta(
            seconds=rng.randrange(0, 315_500_000_000), microseconds=rng.randrange(10**6)
        )
        tz = timezone(timedelta(minutes=rng.randrange(-(24 * 60 - 1), 24 * 60)))
        out.append(moment.replace(tzinfo=tz).isoformat())
    return out


def test_any_accepted_timestamp_survives_a_restart_and_no_other_is_a_5xx(server_on_every_backend: EngramServer) -> None:
    srv = server_on_every_backend
    a = srv.key("acme", "a")
    other = srv.key("globex", "b")
    accepted: dict[str, datetime] = {}
    with srv.client(a) as c, srv.client(other) as o:
        for i, text in enumerate(EDGES + _random_times(24)):
            field = ("sourceTime", "validFrom", "validTo")[i % 3]
            r = c.put("/v1/users/alice/memories", json={"key": f"k{i}", "value": f"v{i}", field: text})
            assert r.status_code in (200, 422), (text, r.status_code, r.text)
            if r.status_code == 200:
                accepted[f"k{i}|{field}"] = datetime.fromisoformat(text)
            msg = {"id": f"m{i}", "content": "hello there", "timestamp": text}
            r = c.post("/v1/users/alice/threads/t1/messages", json={"messages": [msg]})
            assert r.status_code < 500, (text, r.status_code, r.text)
            # Another tenant's writes never notice
            assert o.put("/v1/users/bob/memories", json={"key": "city", "value": f"c{i}"}).status_code == 200
    assert len(accepted) >= 8, accepted
    srv.restart()
    with srv.client(a) as c:
        items = c.get("/v1/users/alice/memories", params={"limit": 200}).json()["items"]
        by_key = {e["key"]: e for e in items}
        for name, sent in accepted.items():
            key, field = name.split("|")
            assert key in by_key, name
            assert datetime.fromisoformat(by_key[key][field]) == sent, (name, by_key[key][field])
        assert c.put("/v1/users/alice/memories", json={"key": "after", "value": "restart"}).status_code == 200

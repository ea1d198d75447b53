"""Memory semantics a user can trust (issue #17): what is kept, for how long, for whom.

Each test drives the API through the same gateway and handler ``engram serve`` uses,
with a hand-moved clock so that expiry and validity can be checked to the minute.
"""

from __future__ import annotations

from engram.domain.models import Role

from tests.integration.conftest import Api

U = "/v1/users/alice"


def _put(api: Api, key: str, body: dict[str, object], user: str = U) -> dict[str, object]:
    r = api.call("PUT", f"{user}/memories", key, json_body=body)
    assert r.status == 200, r.body
    return dict(r.json())


# -- item 4: a DELETE of properties never wipes everything by accident ----------------
def test_deleting_properties_needs_explicit_keys_and_delete_all_needs_confirmation(api: Api) -> None:
    writer = api.key("acme", "a")
    admin = api.key("acme", "root", Role.ADMIN)
    api.call("PATCH", f"{U}/properties", writer, json_body={"properties": {"lang": "de", "tz": "CET"}})
    # Given no key, or a misspelt parameter, nothing is deleted and the caller is told why
    for query in ("", "keys=lang"):
        r = api.call("DELETE", f"{U}/properties", writer, query=query)
        assert r.status == 422, r.body
        assert r.json()["details"]["field"] == "key"
    assert api.call("GET", f"{U}/properties", writer).json()["properties"] == {"lang": "de", "tz": "CET"}
    # Delete-all is the admin's confirmed act
    assert api.call("DELETE", f"{U}/properties", writer, query="all=true&confirm=CONFIRM").status == 403
    assert api.call("DELETE", f"{U}/properties", admin, query="all=true").json()["code"] == "confirmation_required"
    r = api.call("DELETE", f"{U}/properties", admin, query="all=true&confirm=CONFIRM")
    assert r.status == 200 and r.json()["properties"] == {}


# -- item 5: a visibility change is a change --------------------------------------------
def test_same_value_with_another_visibility_changes_who_sees_it(api: Api) -> None:
    a = api.key("acme", "a", groups=("team",))
    b = api.key("acme", "b", groups=("team",))
    first = _put(api, a, {"key": "diet", "value": "vegan"})["entry"]
    # When the same value is written again for the group
    r = _put(api, a, {"key": "diet", "value": "vegan", "visibility": "group"})
    # Then it is an update, the entry is now the group's, and the other member sees it
    assert r["outcome"] == "updated"
    assert r["entry"]["visibility"] == "group" and r["entry"]["groupIds"] == ["team"]
    assert [e["key"] for e in api.call("GET", f"{U}/memories/visible", b).json()["items"]] == ["diet"]
    # And narrowing it back hides it again
    assert _put(api, a, {"key": "diet", "value": "vegan"})["entry"]["visibility"] == "self"
    assert api.call("GET", f"{U}/memories/visible", b).json()["items"] == []
    history = api.call("GET", f"{U}/memories/{first['id']}/history", a).json()["items"]
    assert [h["entry"]["visibility"] for h in history][:2] in (["self", "group"], ["group", "self"])

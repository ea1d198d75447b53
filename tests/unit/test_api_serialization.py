"""The faster answer serialisation writes what the slower one did (#14).

``json_text.dumps`` must give the standard encoder's exact text (Powertools' default,
``json.dumps(separators=(",", ":"), cls=Encoder)``), and ``Entry.of`` must give the
answer the old path gave (the entry through ``entry_to_dict`` and parsed back).
"""

from __future__ import annotations

import dataclasses
import decimal
import json
from datetime import UTC, datetime, timedelta, timezone
from functools import partial
from typing import Any

from aws_lambda_powertools.shared.json_encoder import Encoder
from engram.api import json_text
from engram.api.app import create_app
from engram.api.schemas import Entry
from engram.domain.models import MemoryEntry, Status, Visibility
from engram.domain.serialization import entry_to_dict
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

standard = partial(json.dumps, separators=(",", ":"), cls=Encoder)

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.floats(min_value=-1e-3, max_value=1e-3, allow_nan=False)
    | st.text()
    | st.text(alphabet=st.characters(codec="utf-8"))
    | st.sampled_from(["é", "\x7f", "\u2028", "😀", "\x00\x1f", 'a"b\\c/', ":1e-05", "0.0000"])
)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(documents)
def test_dumps_writes_the_standard_encoders_text(value: Any) -> None:
    assert json_text.dumps(value) == standard(value)


def test_dumps_leaves_every_other_type_to_the_standard_encoder() -> None:
    class Model(BaseModel):
        at: datetime
        n: decimal.Decimal

    @dataclasses.dataclass
    class Point:
        x: float
        label: str

    moment = datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
    for value in (
        {"d": decimal.Decimal("1.10")},
        {"m": Model(at=moment, n=decimal.Decimal("2.5"))},
        {"p": Point(1e-7, "é")},
        {1: "int key", "big": 2**80},
        {"deep": json.loads("[" * 300 + "]" * 300)},
        {"lone": "\ud800"},
    ):
        assert json_text.dumps(value) == standard(value)
    for refused in ({"at": moment}, {"s": {1, 2}}):
        try:
            standard(refused)
        except TypeError:
            pass
        else:  # pragma: no cover - the premise of the case
            raise AssertionError("the standard encoder takes it")
        try:
            json_text.dumps(refused)
        except TypeError:
            continue
        raise AssertionError(f"dumps wrote what the standard encoder refuses: {refused}")


def test_non_finite_floats_are_written_as_null() -> None:
    # The one documented difference: the standard encoder wrote NaN, which is not JSON.
    assert json_text.dumps({"a": float("nan"), "b": [float("inf")]}) == '{"a":null,"b":[null]}'


def test_the_api_writes_its_answers_with_it() -> None:
    assert create_app()._serializer is json_text.dumps


def _old_entry(e: MemoryEntry) -> Entry:
    d = entry_to_dict(e)
    d.pop("tenantId")
    d.pop("identityId")
    return Entry.model_validate(d)


zones = st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-8))])
moments = st.builds(
    lambda d, tz: d.replace(tzinfo=tz),
    st.datetimes(min_value=datetime(1900, 1, 2), max_value=datetime(9998, 12, 30)),
    zones,
)
optional = st.none() | moments


@settings(max_examples=300, deadline=None)
@given(
    created=moments,
    updated=moments,
    times=st.lists(optional, min_size=7, max_size=7),
    visibility=st.sampled_from(list(Visibility)),
    status=st.sampled_from(list(Status)),
    confidence=st.floats(min_value=0, max_value=1),
    groups=st.lists(st.sampled_from(["g1", "g2", "g3"]), unique=True, max_size=3),
    text=st.text(min_size=1, max_size=20),
)
def test_entry_of_answers_as_the_round_trip_through_text_did(
    created: datetime,
    updated: datetime,
    times: list[datetime | None],
    visibility: Visibility,
    status: Status,
    confidence: float,
    groups: list[str],
    text: str,
) -> None:
    e = MemoryEntry(
        id="e1",
        tenant_id="t",
        user_id="u",
        identity_id="i",
        key="k",
        value=text,
        statement=text,
        category="fact",
        visibility=visibility,
        source_agent_id="a",
        group_ids=tuple(groups),
        source_message_id="m1",
        confidence=confidence,
        status=status,
        access_count=3,
        last_accessed_at=times[0],
        last_reinforced_at=times[1],
        last_decayed_at=times[2],
        expires_at=times[3],
        valid_from=times[4],
        valid_to=times[5],
        source_time=times[6],
        created_at=created,
        updated_at=updated,
        version=2,
    )
    new, old = Entry.of(e), _old_entry(e)
    assert new.model_dump(mode="json", by_alias=True) == old.model_dump(mode="json", by_alias=True)
    assert new.model_dump_json(by_alias=True) == old.model_dump_json(by_alias=True)

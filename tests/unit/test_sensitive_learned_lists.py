"""The learned stage as retrained in session 21d (K1-K4 and L1-L4 in its training parts): a list
of numbers is a code only when the words around it say so.

20d's retrain with K (not landed) learned that a list of four-digit numbers is a code, and
refused flights, room numbers and a spoken total (tests/unit/test_sensitive_reading_view.py).
The trainer now holds hand-written lists that open nothing and, matched with them, lists of
codes (bench/sensitive_train_lists.py). The cases here are unseen variants written for this
test, in words and languages the trainer's families do not use; each negative was refused by
20d's weights (/tmp/20d/weights_rjs.json.gz, scores 1.5-6.4) and the rules pass all of them, so
these say what the model learned, not what a rule decides.
"""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


@pytest.mark.parametrize(
    "text",
    [
        "the trains 1412, 1530, 1648 and 1702 were cancelled",
        "apartments 2104, 2206, 2308 are still for sale",
        "the census counted 4412, 4630 and 4918 households",
        "Die Züge 4471, 2291 und 3380 fallen heute aus",
        "les salles 1204, 1305 et 1406 sont libres jeudi",
        "bestel artikelen 4471, 2291 en 3380 opnieuw",
        "the patients in beds 1204, 1305 and 1406 need their meds at 8",
        "lockers 2291, 4471 and 3380 are free to use this week",
        "thank-you card for the nurses: shifts 0700, 1500 and 2300 all covered",
        "new PIN reader arrived; the orders 4471, 2291, 3380 shipped",
        "fares: 1204 yen, 1305 yen and 1406 yen",
    ],
)
def test_a_list_of_numbers_that_opens_nothing_passes(text: str) -> None:
    assert find_by_rules(text) is None  # the model's own verdict, not a rule's
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # 22e's weights scored it 0.56 ("PINs" read as a value's shape, <v:Aa>); 23e reads an
        # acronym's plural as its word (learned_model._ACRONYM_PLURAL)
        "PINs for the kids' phones: Ava 4471, Ben 2291, Cal 3380",
    ],
)
def test_a_list_of_codes_the_rules_miss_is_refused_by_the_model(text: str) -> None:
    # (missed by the weights of 19c, which main shipped until 21d: score -1.2)
    assert find_by_rules(text) is None
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "the codes for the lockers are 2291, 4471 and 3380",
        "new keypad codes: studio 4471, workshop 2291, loft 3380",
        "Google backup codes 4471 8820 9913 2256 7730 1184",
        "Tresor-Kombinationen: Büro 4471, Lager 2291, Keller 3380",
        "códigos de acceso: portería 4471, ascensor 2291, garaje 3380",
    ],
)
def test_the_same_lists_named_as_codes_are_refused(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("iso201-mcp-r1000", "value iso201-mcp-r1000"),
        ("iso211-tool-r55", "value iso211-tool-r55"),
        ("acct7-note-r42", "note acct7-note-r42"),
    ],
)
def test_a_value_that_repeats_its_own_key_is_no_secret(key: str, value: str) -> None:
    # Seen red on main at 18518c4: the retrained stage (21d) refused these by the id's shape,
    # and the isolation-under-load test's MCP upserts failed with sensitive_data.
    assert find_sensitive(value, key) is None

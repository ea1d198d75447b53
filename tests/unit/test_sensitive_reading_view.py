"""Values written the way people dictate, space out, scan or break them: the number rules
read a view of the text with those numbers as digit groups (``reading_view``). Cases
written for this family, not copied from a corpus part; the values are test numbers with
valid check digits."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive
from engram.domain.sensitive import reading_view as reading_view_module
from engram.domain.sensitive.reading_view import reading_view


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # spelled out or dictated, groups set apart by commas or dashes
        (
            "the card number is four five three two, zero one five one, one two eight three, zero zero zero two",
            "payment_card",
        ),
        (
            "Kartennummer: fünf vier zwei vier – eins acht sieben sieben – null null neun drei – zwei eins null acht",
            "payment_card",
        ),
        (
            "el número de la tarjeta es seis cero uno uno, tres cinco cero ocho, tres cuatro ocho dos, seis uno nueve tres",
            "payment_card",
        ),
        (
            "read me the card: forty-nine seventeen, sixty-one double oh, eighty-eight thirty-nine, forty-two eighteen",
            "payment_card",
        ),
        ("social is two one nine, four four, five oh six two", "government_id"),
        (
            "Ich diktier dir die IBAN: D E, acht neun, drei sieben null vier, null null vier vier, null fünf drei zwei, null eins drei null, null null",
            "bank_account",
        ),
        ("the alarm code is nineteen eighty-eight, then press set", "secret"),
        ("Oma hat mir ihre PIN gesagt: vier, null, neun, zwei.", "secret"),
        ("la pin de mi madre: uno, nueve, cinco, tres", "secret"),
        # set apart digit by digit
        ("card 4 5 3 2 - 0 1 5 1 - 1 2 8 3 - 0 0 0 2 thanks", "payment_card"),
        ("sort code 4 0 - 1 2 - 7 6, account number 3 1 9 2 6 8 1 9", "bank_account"),
        ("Passport No.\n5 3 1 2 0 7 7 8 4", "government_id"),
        # OCR's O and l for 0 and 1 inside a digit run
        ("card from the photo: 4532 O151 l283 0O02", "payment_card"),
        # a group broken over two lines
        ("my card:\n4532 0151\n1283 0002\nexp 04/29", "payment_card"),
        ("Social Security No.: 536-22-\n1479", "government_id"),
        ("IBAN copied from the pdf: GB29 NWBK 6016\n1331 9268 19", "bank_account"),
    ],
)
def test_values_dictated_spaced_scanned_or_broken_are_found(text: str, rule: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == rule


@pytest.mark.parametrize(
    "text",
    [
        "the order number is four five eight seven, zero seven eight zero, eight digits",
        "the total is forty-three sixty-six for the flights and eighty-four sixty-eight with the hotel",
        "call me on oh seven seven oh oh, nine double oh, one two three",
        "Phone: (828) 555-\n0143",
        "we counted 1 2 3 4 5 6 7 8 9 and then she laughed",
        "from one to two three times a day, with nine ten minutes rest",
        "Die Sendungsnummer: null null drei vier, null vier drei vier, eins sechs eins zwei",
        "scores: 3 - 1, 2 - 2, 0 - 1",
        "Totals\n4532 0151\n1283 0003",
        "the meeting is at nineteen thirty, room four one two",
        "Box 12 total 4532 0151 1283\n4 Wages 52400.00\n2 Federal income tax withheld 6212.40",
    ],
)
def test_numbers_read_as_digits_stay_what_they_are(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    ("text", "view"),
    [
        ("it's four five, eight seven", "it's 45 87"),
        ("oh-nine twenty-seven", "0927"),
        ("trois-huit-un-deux-neuf", "38129"),
        ("5 8 1 9 then OFF", "5819 then OFF"),
        ("P R 88 90 69 B", "PR 88 90 69 B"),
        ("44l6 and 4O2O", "4416 and 4020"),
        ("059-36-\n3708", "059-36-3708"),
        ("padlock 0412\n3. Food", None),
        ("a word like Oslo or lOl stays", None),
        ("one or two", None),
    ],
)
def test_the_reading_view(text: str, view: str | None) -> None:
    assert reading_view(text) == view


@pytest.mark.parametrize(
    "text",
    [
        "the key safe by the back door, you turn the dials to 3 1 9 4 and pull",
        "Opa hat mir seine PIN am Telefon diktiert, damit ich einkaufen kann: sieben, drei, null, fünf.",
        "la alarma del local se quita con 8 2 4 6 y después OFF",
        "o portão da garagem abre com o código 5 0 9 1",
        "klucz w skrzynce na listy, kod 6 2 8 4, nie mów nikomu",
        "nyckelskåpet vid dörren, kod 7 1 0 3",
        "il lucchetto della bici: tre sei uno nove",
        "keypad on the shed: 9 4 0 2 then the green button",
    ],
)
def test_a_code_read_out_digit_by_digit_after_its_word_is_a_secret(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "the order number is 4 5 8 7 0 7 8 0, it left the depot at 6:40",
        "service user number 4 7 2 9 1 0 is on the direct debit letter",
        "the gate code? ask Ravi, our phone is 0 1 6 3 2 9 6 0 4 4 7",
        "Die Sendungsnummer: null null drei vier, null vier drei vier",
        "the code fell off, room four one two is the one with the alarm",
        "Passwort? weiß ich nicht, ruf die Hotline an: null acht null null, eins zwei drei",
        "the code ran for 1 2 0 minutes before the alarm went off",
        "Alarm at seven thirty tomorrow, I have a flight",
        "the fire alarm went off at six thirty five and woke everyone",
        "the gate opens at 7 3 0 for deliveries",
    ],
)
def test_numbers_read_out_after_another_word_are_no_code(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Set an alarm for six forty-five",
        "remind me to set the alarm for five thirty",
        "the alarm goes off at six fifteen, then the kettle",
        "the safe room opens until nine thirty",
    ],
)
def test_a_clock_time_after_its_preposition_is_no_code_to_the_rules(text: str) -> None:
    # When an alarm rings, not what disarms it. The rules alone here; the whole filter is
    # checked below.
    assert reading_view(text) is None
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Set an alarm for 6:45",
        "set my alarm for 7am",
        "Alarm for 8 please.",
        "Set an alarm for six forty-five",
        "The code for the alarm.",
        "Connect pin 7 to ground",
        "pin 12 is GND, pin 13 is VCC",
        "wake me at 6 thirty",
    ],
)
def test_alarms_and_electronics_pins_are_no_secret_to_the_whole_filter(text: str) -> None:
    # The learned stage refused these until it was trained on such negatives (rv18's review).
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", ["the alarm code is 4821", "set the alarm, code 7319", "my pin is 4821"])
def test_an_alarm_code_or_a_pin_with_its_value_is_still_a_secret(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "card number in two goes, first 4532 0151 and then 1283 0002 on the second line",
        "the card form has four boxes: [4532] [0151] [1283] [0002]",
        "visa, first half 4532 0151 1283\nsecond half 0002, exp 04/29",
    ],
)
def test_a_card_number_given_in_pieces_after_its_word_is_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "payment_card"


@pytest.mark.parametrize(
    "text",
    [
        # 23e's retrain (N, the machine-text families, floor 0.057) scores it 2.4: years after a
        # PIN's word read as the PIN; a known over-reach until a retrain reads a year as a date
        pytest.param(
            "card ending 4972, PIN changed 2024, renewed 2025 and again in 2026",
            marks=pytest.mark.xfail(strict=True, reason="23e's weights: 2.4, over the threshold"),
        ),
        "card games on 1204, 1305, 1406 and 1507 (room numbers)",
        "birthday card for Gran; the flights 2291, 4471, 3380 and 8812 were all delayed",
    ],
)
def test_four_digit_groups_near_a_card_word_that_are_no_card_pass(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", ["one " * 2500, "oh oh six " * 1000, "sei due " * 1250])
def test_a_long_run_of_number_words_is_read_once(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a run rejected as ordinary words was read again from each of its words: 10,000
    # characters of "one one ..." took 16 s; the reading must be linear in the run
    calls = []
    real = reading_view_module._run_from
    monkeypatch.setattr(reading_view_module, "_run_from", lambda *a: calls.append(1) or real(*a))
    reading_view(text)
    assert len(calls) <= 4


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # a dash between dictated groups is kept: the shapes the rules read need it
        ("monzo: zero four - zero zero - zero four / two nine one eight four seven three six", "bank_account"),
        (
            "uk account details for the deposit: two zero - three two - zero six  four three nine one eight eight two"
            " six (barclays)",
            "bank_account",
        ),
        ("seven eight zero eight two four - two one eight zero three zero five", "government_id"),
    ],
)
def test_dictated_groups_set_apart_by_dashes_keep_them(text: str, rule: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # what the second reading of the stretches around a number found (spoken_numbers.py,
        # merged into the reading view): three number words that are ordinary words too,
        # and other scripts' digits
        ("card four one one one one one one one one one one one one one one one", "payment_card"),
        ("maestro ٦٧٥٩ ٦٤٩٨ ٢٦٤٣ ٨٤٥٣", "payment_card"),
        ("send the deposit to DE١٣ ٨٧٤٩ ٩٦٨٣ ١٤٢٢ ٢٧٥٤ ٤٧", "bank_account"),
        ("Steuerliche Identifikationsnummer: ٩٧٦٣٣٧٦٣٠٦٦", "government_id"),
    ],
)
def test_one_reading_covers_ordinary_number_words_and_other_scripts_digits(text: str, rule: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == rule


def test_the_filter_reads_the_text_at_most_twice() -> None:
    # the text and one reading view: no further reading of the stretches around a number
    from engram.domain.sensitive import filter as filter_module

    texts: list[str] = []
    real = filter_module._find_in_text
    try:
        filter_module._find_in_text = lambda t, **kw: texts.append(t) or real(t, **kw)  # type: ignore[assignment]
        filter_module.find_by_rules("my notes say four five six seven")
    finally:
        filter_module._find_in_text = real
    assert len(texts) == 2

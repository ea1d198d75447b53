"""Secret families from held-out K's misses (20b, session 10): each family tested with
hand-written variants that are not the corpus's samples, in several languages and layouts,
and the look-alikes (the same words with no value, a phone number, a date or a list after
them) that must keep passing."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive
from engram.domain.sensitive.reading_view import reading_view

# 1. A code read out digit by digit (spaced, dashed, or said as words) after a word for what
# it opens or for a code, in any language; the words decide, not only English ones.
_DICTATED_CODES = [
    "the shed lock is 4 0 7 2, spare key under the pot",
    "trailer lock 9-3-1-7 if you need the mower",
    "la boîte à clés de l'appartement : 2 8 1 4",
    "beheerderscode van de kassa 4 4 0 1 9",
    "Zugangscode fürs Lager 7 3 0 1",
    "замок на гараже 7-3-0-8",
    "keysafe by the back door: 6 1 0 4",
    "key-safe 1-9-8-2 (carers only)",
    "MPIN ko sa Maya ay 7 1 0 9",
    "mật khẩu két sắt 8 8 2 1",
    "OTP from the bank 4 1 9 0 2 2",
    "ตู้เซฟ รหัสคือ 4 4 1 9",
    "オフィスの暗証番号は 5 5 0 1 です",
    "金庫の番号は ハチ ゼロ イチ ナナ",
    "공동현관 비밀번호 9 0 4 1 이에요",
    "סיסמה לאזעקה: 3 0 9 1",
    "رمز الخزنة خمسة سبعة صفر واحد",
    "कोड है 4 7 1 9 दरवाजे का",
]
_NOT_DICTATED_CODES = [
    "the lock on room 3 1 2 is broken",
    "call the locksmith on 0 7 7 0 0 9 0 0 1 2 3",
    "lock: steps 1 2 3 4 done",
    "the keysafe company's phone is 0 2 0 7 9 4 6",
    "keysafe fitted on 1 2 0 3 2024",
    "postcode 1 0 1 1 for the alarm company",
    "Gutscheincode 4 4 1 2 gilt bis Freitag",
    "Kortingscode 5-5-1-0 op de website",
    "mã đơn hàng 1 2 3 4",
    "電話番号は 0 3 1 2 です",
    "แจ้งเบอร์โทร 0 8 1 2 3 4",
    "combination lock: reset it to 0-0-0 first",
    "the escape room code was 4-7-1-9, we got out in time",
    "grandma's code for the cake: 3-2-1, three eggs",
    "the lock needs a new key, locksmith comes at 1 0 3 0",
]


@pytest.mark.parametrize("text", _DICTATED_CODES)
def test_a_code_read_out_after_a_word_for_its_lock_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_DICTATED_CODES)
def test_a_number_read_out_after_other_words_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


def test_number_words_of_the_second_table_read_as_one_digit_each() -> None:
    # (main read "два семь семь пять" as 12171715: the words of the second table of
    # languages were given their row's number, 10 to 19, not its digit)
    assert reading_view("пин-код карты: два семь семь пять") == "пин-код карты: 2775"
    assert reading_view("PIN-koodi on kaksi kuusi yksi nolla") == "PIN-koodi on 2610"


def test_arabic_and_katakana_number_words_are_read_as_digits() -> None:
    assert reading_view("كود البوابة تسعة تسعة صفر اتنين") == "كود البوابة 9902"
    assert reading_view("キーボックスは ゼロ サン ナナ イチ です") == "キーボックスは 0371 です"

"""Families of held-out I's and J's misses in cards, ids and accounts (19b, session s9), each
tested with variants written here (other countries, other words for the same thing) and the
look-alikes that must keep their verdict."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


def _rule(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


def _filter(text: str, key: str = "") -> str | None:
    found = find_sensitive(text, key)
    return None if found is None else found.rule


# 1. An account's word in more languages (Bengali, Yoruba, Amharic, Zulu and Xhosa, Tagalog's
# "account ni ...", Hong Kong's 戶口), before the number.
@pytest.mark.parametrize(
    "text",
    [
        "সোনালী ব্যাংক অ্যাকাউন্ট 1211100048836, টাকা পাঠাও",
        "আমার অ্যাকাউন্ট নম্বর 2050123456789 (ডাচ-বাংলা)",
        "nọ́mbà àkáǹtì mi ni 0123456789, Access Bank",
        "àkáǹtì mi: 2087654321 First Bank",
        "account of my mum: 31926819, Lloyds",
        "cuenta de mi hermano: 0049 1500 0512 3456 7890",
        "የባንክ ሂሳብ ቁጥር 1000123456789 ነው",
        "የአቢሲንያ ባንክ ሂሳብ 84512093, ለኪራይ",
        "inombolo ye-akhawunti yami 62123456789, FNB",
        "i-akhawunti kaMama: 1052349871 Capitec",
        "pakisend sa BDO account ni kuya: 0045 1234 5678",
        "GCash? wala, sa Metrobank account ko: 123-4-56789012-3",
        "香港滙豐戶口 004-612-448213-833，請轉賬",
        "中銀戶口號碼 012-345-6-789012-3",
    ],
)
def test_an_account_word_of_more_languages_is_found(text: str) -> None:
    assert _rule(text) == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "অ্যাকাউন্ট খুলতে 2 দিন লাগবে",
        "inombolo yocingo 0821234567, ngishayele",
        "የስልክ ቁጥር 0911234567 ደውልልኝ",
        "àkáǹtì mi ti dínà, mo pè wọ́n ní 08031234567",
        "戶口名簿 地址 台北市 100 號",
        "account ni ate sa Netflix, password ko na lang",
        "account of Netflix: 88120456 (the family plan)",
        "account balance: 1234567 points",
        "खाता खोलने के लिए 2 फोटो और 500 रुपये",
    ],
)
def test_the_same_words_with_no_account_pass(text: str) -> None:
    assert _rule(text) != "bank_account"


# 2. An Indian account right before or after its branch's IFSC, with no account word.
@pytest.mark.parametrize(
    "text",
    [
        "transfer to 50100234567812 IFSC HDFC0001234 done? it bounced last time",
        "send it to 003201598765 / ICIC0000032",
        "IFSC SBIN0004567, 38291047562 (papa's)",
        "beneficiary: R Kumar, 917020045612345, UTIB0000123",
    ],
)
def test_an_account_beside_an_ifsc_is_found(text: str) -> None:
    assert _rule(text) == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "IFSC HDFC0001234 is the Koramangala branch, call 9876543210 for the manager",
        "IFSC SBIN0004567 branch phone 08023456789",
        "IFSC code ICIC0000032 and MICR 560229002, that's all I have",
    ],
)
def test_an_ifsc_beside_a_phone_or_a_micr_passes(text: str) -> None:
    assert _rule(text) != "bank_account"


# 3. Hungary's giro account (8-8 or 8-8-8 digits, a check digit in each block), however bare.
@pytest.mark.parametrize(
    "text",
    [
        "11773016-11111018, OTP, a lakbér ide menjen",
        "számla: 10400009-50043121-20987657",
        "ide utald: 12001125-00001276",
        "42110006 33014421 for the Budapest flat deposit",
    ],
)
def test_a_hungarian_giro_account_is_found(text: str) -> None:
    assert _rule(text) == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "11773016-11111019 is the batch range",  # (the second block's check digit is wrong)
        "ticket 20240115-20240131 covers the sprint",
        "48219935 18190934 are the two meter numbers (gas / electric)",
    ],
)
def test_two_blocks_of_eight_without_the_checks_pass(text: str) -> None:
    assert _rule(text) != "bank_account"

"""Families of held-out L's errors in cards, ids and accounts (21c, session s11), each tested
with variants written here (other countries, other wordings, other layouts) and the
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


# 1. A bank's branch code alone is no account, whatever the text says of the account (or says
# nothing): a sort code, a BSB, a routing or ABA number, a BLZ, a transit number, a БИК, a
# South African branch code, spoken as words too. Before, only a list of wordings saying the
# account was withheld excused it, and the learned stage refused what the rules let pass.
@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Mum's pension goes into her Barclays account, sort code 20-45-77, the account number is in her folder", ""),
        ("notes: mortgage paid from his Wells Fargo checking, routing 121000358", ""),
        ("Grandma's checking at Chase — ABA 071000013. The pharmacy autopay uses her card, not the account", ""),
        ("wise says 'sort code 40-05-15 not recognised' — is that a real branch?", ""),
        ("Direct Debit: Name: H Cole, Sort code 30-96-37 (Lloyds), amount £112 monthly — account no. TBC", ""),
        ("hi Dad, new account for the school fees, routing 026009593, I'll send the account number separately", ""),
        ("routing # 091000022 is US Bank Minnesota — the acc # the landlord has is the old one", ""),
        ("voice: the account number is on the statement, sort code twenty forty five seventy seven", ""),
        ("routing 071000013 (Chase) — account number in the lease PDF page 3", "landlord_account"),
        # written here: other countries, other wordings
        ("Oma's Konto ist bei der Sparkasse, BLZ 370 501 98, die Nummer steht auf dem Auszug", ""),
        ("CIBC transit number 00012, her account is on the void cheque in the drawer", ""),
        ("BSB 633-000 (Bendigo), she keeps the rest in her wallet", ""),
        ("universal branch code 250655 for FNB, ask him for the rest", ""),
        ("the ABA on the form was 021000021 and the date 2024-05-01", ""),
        ("Routing number: 122105155\nAccount number: (ask Dana)", ""),
    ],
)
def test_a_branch_code_alone_is_no_account(text: str, key: str) -> None:
    assert _rule(text, key) is None
    assert _filter(text, key) is None


@pytest.mark.parametrize(
    "text",
    [
        "sort code 20-45-77 account 43917362",
        "sort code 20-45-77, 43917362 (Barclays)",
        "sort code 204577 and 43917362 for the rent",
        "BSB 062000 12345678",
        "routing 026009593 and checking 4471882093",
        "credit union share draft acct 44812-S90 and routing 263320381 - that's where the scholarship goes",
        "Kontonummer 1234567890 BLZ 37040044",
    ],
)
def test_a_branch_code_with_an_account_is_still_an_account(text: str) -> None:
    assert _rule(text) == "bank_account"


def test_a_code_named_a_sort_code_is_no_secret_when_spoken() -> None:
    # (the dictated-code rule read "sort code" as a code's word: it names a bank's branch)
    assert _rule("voice note: sort code is two oh four five seven seven, account to follow") is None
    assert _rule("the alarm code is two oh four five") == "secret"


# 2. Under an id's key, a value with dates only (a month and a year) holds no id.
@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("renewal submitted 02/2024, old passport cancelled (corner clipped), new one arrives ~6 weeks", "passport_me"),
        ("passport expires 2031-04, renewal reminder set for 2030", "passport"),
        ("licence renewed 11.2023, photo due 11/2033", "driving_licence"),
    ],
)
def test_a_month_and_year_under_an_id_key_is_no_id(text: str, key: str) -> None:
    assert _rule(text, key) is None


def test_an_id_under_its_key_with_a_date_is_still_an_id() -> None:
    assert _rule("X4829173, expires 2031-04", "passport") == "government_id"


# 3. Ids in other scripts with whose and what for between the word and the number, up to a
# colon; Arabic's "my passport's number"; Ukraine's passport for travel abroad; the
# mainland's permits to Hong Kong and Macau.
@pytest.mark.parametrize(
    "text",
    [
        "दादी का आधार नंबर पेंशन के लिए: 4738 2915 0633",
        "नए कर्मचारी का आधार नंबर (बायोमेट्रिक अटेंडेंस के लिए): 7302 4691 5824",
        "کد ملی بابابزرگ برای حقوق بازنشستگی: 0084739215",
        "шифр: паспорт мамы для оформления пенсии: 4519 382716",
        "العميل: رقم جوازي B29384716 لكن في الحجز مكتوب خطأ",
        "جوازي رقمه P48291736 وينتهي السنة الجاية",
        "Паспорт громадянина України для виїзду за кордон FX482917, потрібен для консульства",
        "港澳通行证号码 C48291736，帮我订去香港的高铁",
        "妈妈的往来港澳通行证 C12837465 快过期了",
        "台胞证 07294815，入境要用",
    ],
)
def test_an_id_in_another_script_is_found(text: str) -> None:
    assert _rule(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "आधार केंद्र का फोन नंबर: 0120 2345678",
        "کد ملی را وارد کنید، پشتیبانی: 021 6123 4567",
        "战斗通行证 2024 赛季 500 点",
        "港澳通行证办理预约号 20240511",
        "آدھار کارڈ بنوانے کا طریقہ: مرحلہ 1234567",
    ],
)
def test_another_number_beside_an_id_word_in_another_script_passes(text: str) -> None:
    assert _rule(text) is None


# 4. An id's word and a number of its own printed form in one sentence, however far apart.
@pytest.mark.parametrize(
    "text",
    [
        "the Aadhaar for the Pune contractor was in the email signature by mistake: 4918 7320 5612",
        "4918 7320 5612 is her aadhaar, keep it safe",
        "kod meli of my brother for the visa letter: 1273849507",
        "code melli of my wife, the embassy form wants it: 0012345679",
        "PAN of my father for the ITR filing this year: ABCPK1234Q",
        "cpf do meu pai pro cadastro da farmácia do bairro: 123.456.789-09",
    ],
)
def test_an_id_of_its_own_form_in_its_word_s_sentence_is_found(text: str) -> None:
    assert _rule(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "aadhaar update done. order 4918 7320 5612 shipped",
        "aadhaar seeding pending; tracking 4918 7320 5612",
        "the aadhaar linking deadline moved; phone 9876 5432 1098",
        "CPF de exemplo no formulário: 000.000.000-00 (não preencher)",
    ],
)
def test_another_number_in_an_id_word_s_sentence_passes(text: str) -> None:
    assert _rule(text) is None


# 5. A card number of a prefix no brand in the table has, with its expiry after it and the
# card's word earlier in its line.
@pytest.mark.parametrize(
    "text",
    [
        "tarjeta de la abuela para la farmacia online: 3760 1145 2309 9813 vence 05/28",
        "Karte von Oma für die Online-Apotheke: 3760 1145 2309 9813 gültig bis 05/28",
    ],
)
def test_a_card_with_its_expiry_after_it_is_found(text: str) -> None:
    assert _rule(text) == "payment_card"


@pytest.mark.parametrize(
    "text",
    [
        "batch 3760114523099813 expires 05/28",
        "gift card 3760 1145 2309 9813 exp 05/28",
        "3760 1145 2309 9814 vence 05/28",
    ],
)
def test_another_number_with_an_expiry_is_no_card(text: str) -> None:
    assert _rule(text) is None


# 6. The learned stage's id verdict needs an id's number near its word: not a date, not a
# number labelled as a contract's, a supply point's or a booking's (its prefix before it),
# not across a paragraph, not after a software licence's word.
@pytest.mark.parametrize(
    "text",
    [
        "Nº de contrato luz 0049281736, CUPS ES0021000012345678AB — lectura 4471 kWh",
        "Subject: Car rental — additional driver\n\nPlease add my husband as additional driver:\nName: Henrik Aalto\n"
        "Date of birth: 15.03.1986\nLicence issued: 2005 (he'll show it at the counter)\n\nBooking: EUR-448291",
        "Veeam licence: 10 instances, expires 2025-06-30, contract number 0031749288",
        "Microsoft 365 licences for 25 users renewed, contract number 7730041928",
    ],
)
def test_a_contract_s_or_a_booking_s_number_beside_an_id_word_passes(text: str) -> None:
    assert _filter(text) is None


def test_a_driving_licence_number_near_its_word_is_still_an_id() -> None:
    text = "Please add my husband as additional driver:\nName: Henrik Aalto\nLicence number: 48291 773 (Finland)"
    assert _filter(text) == "government_id"


# 7. A company's NPWP (Indonesia's tax number of a business: "perusahaan", "badan usaha") is no
# person's id; a person's own ("NPWP pribadi") is.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("NPWP perusahaan vendor: 01.234.567.8-901.000, untuk faktur pajak", None),
        ("NPWP badan usaha kami: 02.345.678.9-012.000 (untuk kontrak vendor)", None),
        ("NPWP pribadi: 48.271.930.9-407.000 (Budi Santoso, freelancer)", "government_id"),
        ("data uji payroll: Rahmat Hidayat, NPWP 81.637.092.8-524.000, mulai kerja 1 Maret", "government_id"),
    ],
)
def test_a_company_s_npwp_is_no_person_s_id(text: str, expected: str | None) -> None:
    assert _filter(text) == expected


# 8. An IBAN's head alone (the country, the check digits, the bank's code) is a bank's code, as a
# branch code is; one IBAN the text says is invalid, whose check digits fail, is no account.
@pytest.mark.parametrize(
    "text",
    [
        "my turkish account for the refund is at İş Bankası, IBAN starts TR33 0006 1, rest is on the attached statement",
        "IBAN begins DE89 3704 0044, the rest is in the email",
        "IBAN DE44 5001 0517 5407 3249 32 is what the client sent, but my validator says the check digits are wrong",
        "die IBAN DE44 5001 0517 5407 3249 32 ist ungültig, bitte noch mal schicken",
    ],
)
def test_an_iban_s_head_or_an_iban_said_invalid_is_no_account(text: str) -> None:
    assert _filter(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "IBAN TR33 0006 1005 1978 6457 8413 26",
        "IBAN DE44 5001 0517 5407 3249 32 for the rent please",
        "IBAN DE44 5001 0517 5407 3249 32 is wrong, the right one is DE44 5001 0517 5407 3249 33",
    ],
)
def test_a_whole_iban_is_still_an_account(text: str) -> None:
    assert _filter(text) == "bank_account"


# 9. A Chinese account word with the bank's and the branch's name between it and the number.
def test_a_chinese_account_after_its_bank_s_name_is_found() -> None:
    text = "退款账户（对公）：中国工商银行上海分行 1001 2293 0920 0458 173，户名：上海某某信息技术有限公司"
    assert _rule(text) == "bank_account"
    assert _rule("账户余额：中国银行 2024 年 12 月") is None


# 10. More ids of their own printed form, the number before or after the word; a card's expiry
# and a card's word in more languages.
@pytest.mark.parametrize(
    "text",
    [
        "510107 19781209 1633 这是我爸的身份证号，社保那边要",
        "0109173038263 동생 주민등록번호, 알바 계약서에 써야 해서",
        "code melli baba 1273948505 baraye sabt name vam",
    ],
)
def test_an_id_of_its_own_form_before_its_word_is_found(text: str) -> None:
    assert _rule(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "身份证号码格式：前6位地区码，订单号 510107197812091633",
        "주민등록번호 뒷자리 말고 전화번호 010-1234-5678 알려주세요",
    ],
)
def test_another_number_beside_those_id_words_passes(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "婆婆的信用卡 3760 1145 2309 9813 有效期 05/28",
        "babamın kartı 3760 1145 2309 9813 son kullanma 05/28",
    ],
)
def test_a_card_with_its_expiry_in_more_languages_is_found(text: str) -> None:
    assert _rule(text) == "payment_card"

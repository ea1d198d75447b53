"""Review of session 11's held-out L fixes (rv8): look-alikes the new rules refused, hand-written
as people store them in an assistant's memory, each seen red on main before its fix, and the
values of the same kind that must stay found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. b059973 read any "N digits: <N digits>" as a code given with its length: an employee's, a
# room's or an extension's number, a year or a postcode said with its length is that number.
_COUNTED_OTHER_NUMBERS = [
    "Employee number is 6 digits: 204817",
    "my staff number, 6 digits: 204817",
    "Room numbers here are 4 digits: 1204",
    "Enter the year as 4 digits: 1987",
    "The extension is 4 digits: 4410",
    "Danish postcodes are 4 digits: 2100",
    "the batch number is 6 digits 204817",
    "Personalnummer hat 6 digits: 204817",
]


@pytest.mark.parametrize("text", _COUNTED_OTHER_NUMBERS)
def test_a_number_said_with_its_length_is_its_nouns(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "bank app: 6 digits 204817",
        "PIN number is 4 digits: 0917",
        "the door code, 4 digits: 0917",
        "alarm: 4 digits 2580",
    ],
)
def test_a_code_said_with_its_length_stays_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


# 2. b059973 read a site's name with two fields after it, set apart by dashes, pipes or
# semicolons, as a browser's saved login: a markdown table's row or a page's title has that shape.
@pytest.mark.parametrize(
    "text",
    [
        "| docs.company.com | Confluence | HR-Onboarding-2024 |",
        "bbc.co.uk - news - Brexit2024Update",
        "api.staging.io | passed | 1204/1204-tests",
        "grafana.acme.io - dashboards - Q4CapacityReview2024",
    ],
)
def test_a_sites_row_without_a_login_is_no_saved_password(text: str) -> None:
    # (the rules: the learned stage retrained by 21d refuses the BBC title on its own)
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "hospitalrota.nhs.uk - staff.nurse4 - Rota#Nurse4Pass",
        "netflix.com | jsmith84 | CouchPotato2024",
        "amazon.co.uk - lena - Tr0ub4dor&3",
        "https://portal.example.gov | dwhitcombe | Tr0ub4dor&Lamp",
    ],
)
def test_a_sites_saved_login_stays_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


# 3. dfc9c0c read one long lower-case word after "admin: <user> /" as its password: two
# teams, groups or channels an admin role is given for have that shape.
@pytest.mark.parametrize(
    "text",
    [
        "admin: engineering / infrastructure",
        "Slack workspace admin: engineering / infrastructure",
        "Admin rights granted to: marketing / communications",
        "SharePoint admin: finance / procurementteams",
        "admin: design / accessibilityreviews",
    ],
)
def test_an_admins_two_teams_are_no_pair(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "jellyfin admin: lena / popcornfriday",
        "nas admin: admin / correcthorsebattery",
        "router admin: admin / Tr0ub4dor&3",
    ],
)
def test_an_admins_pair_stays_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


# 4. dfc9c0c let a word of a script written without spaces follow an agent's asked-for code at
# once ("581204です"): a year, a date or a sum answered in the customer's turn is written so too.
@pytest.mark.parametrize(
    "text",
    [
        "オペレーター：パスワードの変更日を教えてください。お客様：2025年です",
        # 23e's reading (f9cfb67) splits Korean digits from the counter after them ("2023" "년"),
        # so the learned stage reads a bare number as a code: kept red until a retrain keeps them
        pytest.param(
            "상담원: 비밀번호 변경은 몇 년도에 하셨나요? 고객: 2023년",
            marks=pytest.mark.xfail(strict=True, reason="23e's reading splits digits from a Korean counter"),
        ),
        # 23e's reading (f9cfb67) splits Korean digits from the counter after them ("2023" "년"),
        # so the learned stage reads a bare number as a code: kept red until a retrain keeps them
        pytest.param(
            "오퍼레이터 메모 — 상담원: 인증번호 문자는 몇 시에 받으셨나요? 고객: 1430분쯤",
            marks=pytest.mark.xfail(strict=True, reason="23e's reading splits digits from a Korean counter"),
        ),
        "担当者：暗証番号の再発行手数料はご存じですか？お客様：1100円ですよね",
    ],
)
def test_a_year_or_a_sum_in_the_customers_turn_is_no_code(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "客服：请问您收到的验证码是多少？客户：581204",
        "オペレーター：認証コードを読み上げてください。お客様：581204です",
        "상담원: 인증번호 여섯 자리 불러주세요? 고객: 581204",
    ],
)
def test_a_code_in_the_customers_turn_stays_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


# 5. 2f48491 (glossed.py) writes a PIN's, an OTP's or a payment password's word in English for
# the English rules, which know no 円, 년 or सेकंड after a number: a fee, a year, a count or a
# validity beside the word was read as its value.
@pytest.mark.parametrize(
    "text",
    [
        "暗証番号の手数料は1100円です",
        "暗証番号の再発行は2025年3月から",
        "핀 번호는 2024년에 바꿨어요",
        "支付密码错误次数 2025年 限制",
        "ओटीपी 1800 सेकंड तक मान्य है",
    ],
)
def test_a_number_with_its_unit_beside_a_glossed_word_is_no_value(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    ["暗証番号は 4821 です", "핀 번호 4821", "आपका ओटीपी ८३०२५१ है", "你的支付宝支付密码我帮你改成了 270815"],
)
def test_a_value_beside_a_glossed_word_stays_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


# 6. 2f48491 (glossed.py) reads Hindi's and Bengali's पिन as "PIN" for the English rules, which
# tell India's postal PIN code by an address in Latin letters: "पिन कोड" beside a Hindi address
# is the postal code.
@pytest.mark.parametrize(
    "text",
    [
        "पिन कोड: 400001 (मुंबई)",
        "पता: 14 गांधी मार्ग, जयपुर, पिन कोड 302001",
        "दादी का पता — गाँव रामपुर, जिला सीतापुर, पिनकोड 261001",
    ],
)
def test_a_postal_pin_code_in_hindi_is_no_pin(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", ["ATM का पिन कोड 4821 है", "एटीएम पिन कोड: 482193", "मेरा पिन 4821 है"])
def test_a_cards_pin_in_hindi_stays_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


# 7. b059973 made "token de <a capitalised name>" a bank's token: a crypto token's price in
# Spanish or Portuguese follows it, and the currency words after a value were English only.
@pytest.mark.parametrize(
    "text",
    [
        "El token de Ethereum cotiza a 2450 dólares",
        "o token da Uniswap fechou em 3120 reais ontem",
        "token de Polygon: compré 1500 pesos de MATIC",
    ],
)
def test_a_tokens_price_is_no_code(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", ["token de Banorte de mi mamá: 74 92 05", "mi token bancario: 482913"])
def test_a_banks_token_stays_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"

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
    # 23e's retrain (f9cfb67) refuses it: a known over-reach of the learned stage until a retrain
    pytest.param(
        "the keysafe company's phone is 0 2 0 7 9 4 6",
        marks=pytest.mark.xfail(strict=True, reason="23e's weights (f9cfb67) refuse it"),
    ),
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


# 2. A memory entry whose key names what the value opens, in any language, or only where the
# password is used (a password manager, a portal, a government login): the value decides.
_KEYED_SECRETS = [
    ("allarme_negozio", "4-7-1-2 e poi OFF"),
    ("alarme_maison", "9 0 4 1 puis ON"),
    ("sleutelkluis_oma", "7-7-0-2"),
    ("keysafe_mum", "2 9 1 4"),
    ("сейф_офис", "3-8-1-7"),
    ("lastpass_work", "Juniper-Otter-44!"),
    ("bitwarden_family", "Copper kettle 1988 Rome!"),
    ("council_tax_portal", "Bramley#2291"),
    ("digid_vader", "Hendrik1949!"),
    ("elster_zugang", "Kiefer2021.?"),
    ("client_dataroom", "Wx-R7-autumn-4410"),
]
_KEYED_NOT_SECRETS = [
    ("allarme_negozio", "installato il 12-03-2024"),
    ("allarme_negozio", "tecnico: 02 8841 2290"),
    ("sleutelkluis_oma", "hangt naast de voordeur"),
    ("council_tax_portal", "https://www.tax.service.gov.uk/council"),
    ("council_tax_portal", "login with the reference on the bill"),
    ("bitwarden_family", "shared vault for the family, Maria has access"),
    ("client_dataroom", "Q3 harvest folder, 8812 files"),
    ("tax_portal_username", "Li19750923"),
    ("netflix_account", "jane2024"),
    ("portal_url", "portal.example.com/login"),
]


@pytest.mark.parametrize(("key", "text"), _KEYED_SECRETS)
def test_a_value_under_a_key_naming_what_it_opens_is_found(key: str, text: str) -> None:
    assert find_by_rules(text, key) is not None


@pytest.mark.parametrize(("key", "text"), _KEYED_NOT_SECRETS)
def test_a_note_or_a_name_under_such_a_key_passes(key: str, text: str) -> None:
    assert find_by_rules(text, key) is None


# ... and the same words in a text: a keypad's, an alarm's code in Italian, Portuguese, Arabic.
@pytest.mark.parametrize(
    "text",
    [
        "codice tastierino del cancello 5813",
        "a senha do teclado é 1408",
        "رمز إنذار المكتب 4719",
        "رمز انذار البيت: 2207",
    ],
)
def test_a_keypad_or_alarm_code_in_other_languages_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 3. A password after a password word of Chinese, Vietnamese or Hindi that the word-bounded
# rules do not reach: after an account that looks like a number (the credential decides), a
# password "changed to" a value, a few Vietnamese words between the word and the value.
_SCRIPT_PASSWORDS = [
    "淘宝 账号 13912345678，密码 lihua@2023shop",
    "帳號 88120045 密碼 Tainan#2019",
    "服务器密码改为 Xihu!Lake_2024 了",
    "wifi密码换成 Panda-Bamboo-77",
    "mật khẩu wifi nhà mới bây giờ là Hoa!Sen_2024 nhé",
    "मेरा ज़ूम पासकोड Sharma@class है",
]
_NOT_SCRIPT_PASSWORDS = [
    "数据库密码改成 ${DB_PASSWORD} 了",
    "mật khẩu DB môi trường test giờ là gì?",
    "密码改成什么了？",
]


@pytest.mark.parametrize("text", _SCRIPT_PASSWORDS)
def test_a_password_after_a_script_password_word_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None
    assert found.rule == "secret"


@pytest.mark.parametrize("text", _NOT_SCRIPT_PASSWORDS)
def test_a_script_password_word_with_no_value_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 4. Passwords and codes in tables and exports: a markdown table or a CSV with a password or a
# lock's code column, one line of a browser's export (address, user, password).
_TABLES = [
    "| Site | Username | Password |\n|---|---|---|\n| bank | mira | Tulip#Field42 |",
    "| Name | Door code |\n| Tom | 4420# |",
    "name,alarm_code\nshop,4471\nhome,9902",
    "https://bank.example.com\tmira\tTulip#Field42!",
    "Saved logins: https://mail.example.org | j.okafor | Harmattan#1987",
]
_NOT_TABLES = [
    "| system | user | password |\n| till | manager | ask Tom |\n| wifi | staff | set on first login |",
    "| field | description |\n| password | the user's password, 12+ chars |",
    "staff_id,name,door_code\n07,Tom,see Tom\n08,Ayesha,",
    "signal,pin\nSDA,21\nSCL,22",
    "order_id,name,code\n1234,Tom,4420",
    "| room | door | notes |\n| 12 | 4420 | blue door |",
]


@pytest.mark.parametrize("text", _TABLES)
def test_a_password_or_a_code_in_a_table_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_TABLES)
def test_a_table_without_one_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 5. What developers and operators paste: a CLI that prints a secret and its output, a
# service's auth said to be a value now, a default account's password after its name, a key
# named in another language with a random value, a key in a URL under a provider's own
# parameter name, a webhook key after a full-width colon, recovery codes of letters and digits
# or named in Arabic, Hebrew or German.
_DEV_SECRETS = [
    "pass show work/vpn\nTulip#Field42",
    "op read op://Private/github/password\nK9v!ramp-Otter",
    'the new smtp auth: "Mq8!river-Stone"',
    "administrator:password2024 works on the old NAS",
    "clé API : 9b7e2c41f08a4d36a15e7c9204fb83d1",
    "API-Schlüssel für den Shop: sk9b7e2c41f08a4d36a15e7",
    "llave del webhook 7c3e9a1f4b284d6e9f0218a5",
    "密钥：9b7e2c41f08a4d36a15e7c9204fb83d1",
    "GET https://api.example.com/v2/data?city=Oslo&app_key=f3a91c0b7d2e48a6b5c4d3e2",
    "钉钉机器人 secret：SEC7c3e9a1f4b284d6e9f0218a5c7e3b641",
    "GitHub recovery codes:\n9f3a-2c81 7d4e-b6f0 a1c9-5e02",
    "رموز الاحتياطي: 4471-2209-1180",
    "קודי גיבוי: 4471-2209 1180-5521",
    "Aktivierungs-ID für ELSTER: 7QK2-M4XP-9R1T",
]
_NOT_DEV_SECRETS = [
    "vault kv get -field=password secret/prod/db",
    "vault kv get -field=password secret/prod/db\n<paste output here>",
    "vault kv get -field=password secret/prod/db\nError reading secret/prod/db: permission denied",
    "redis auth is now enabled on the primary",
    "auth is now handled by Okta",
    "ключ от API лежит в Vault, не в коде",
    "публичный ключ: 9b7e2c41f08a4d36a15e7c9204fb83d1",
    "klucz publiczny a7f2c8e3f41c9e2b w repo",
    "https://example.com/page?appid=com.example.app",
    "backup codes: this-that and more-stuff",
    "backup codes regenerated on 2024-05-01 and 2024-06-01",
    'recovery codes stored in 1Password under "github"',
    "admin:adminpanel is the route name",
    "chave pix aleatória: 7c9e6679-7425-40de-944b-e07fc1f90ae7",
    "klucz idempotencji: 4f1c9a7e2b8d4c6fa1e3",
    "ключ от API тестовый: test_0000000000000000",
]


@pytest.mark.parametrize("text", _DEV_SECRETS)
def test_a_secret_as_developers_paste_it_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_DEV_SECRETS)
def test_the_same_words_with_no_secret_pass(text: str) -> None:
    assert find_by_rules(text) is None


# 6. A password named with what kind it is after the word, as French, Spanish, Portuguese and
# Italian say it ("mot de passe provisoire reçu par courrier : 83 41 97 02"); Argentina's AFIP
# "clave fiscal" with a chosen password; a Korean security card's cell and code; Spain's Cl@ve
# PIN; a code a 3-D Secure or one-time prompt asked for, passed on by the user.
_NAMED_AFTER = [
    "mot de passe provisoire reçu par courrier : 83 41 97 02",
    "contraseña temporal enviada por SMS: Kp7!mar22",
    "la senha provisória é Ipe#Roxo2024",
    "password temporanea: Gatto!Nero7",
    "AFIP: usuario 20318457299, clave fiscal Tango#Buenos2023",
    "보안카드 35번 1842",
    "보안카드 번호 12번: 5730",
    "Cl@ve PIN recibido por SMS: 7QK",
    'the bank app said "enter the one-time code we sent"; she read out 448 120 to me',
    "3-D Secure prompt on checkout, customer typed 551 204 into the chat",
]
_NOT_NAMED_AFTER = [
    "le mot de passe provisoire est trop court",
    "la contraseña temporal caduca en 24 horas",
    "mot de passe provisoire : voir le courrier",
    "senha provisória: enviada por e-mail",
    "la clave fiscal se tramita en la AFIP",
    "RFC del despacho, clave fiscal: DLM180312KT4",
    "보안카드 분실 신고는 1588-1234로",
    "보안카드 재발급 2024년",
    "Cl@ve PIN: solicitado, llegará por SMS",
    "3DS failed, user typed 4 times",
    "user pasted 582 913 into chat",
]


@pytest.mark.parametrize("text", _NAMED_AFTER)
def test_a_password_or_code_named_in_these_ways_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_NAMED_AFTER)
def test_the_same_words_without_the_value_pass(text: str) -> None:
    assert find_by_rules(text) is None


# 7. Kin of the families above that K does not hold: a lock's code as a setting, a record's
# field or an element, a key safe written as one word, a list of codes under a heading that
# names them, digits of other scripts in the dictated and lock rules.
_KIN = [
    '{"door_code": "4471", "name": "front"}',
    "door_code=4471",
    "<door_code>4471</door_code>",
    "GATE_CODE: 5581#",
    "frontDoorCode = 1190",
    "- keysafe: 3309",
    "Door codes:\n- Flat 1: 4471\n- Flat 2: 9902",
    "Alarm PINs for the sites\n1. Leeds: 2207\n2. York: 5518",
    "## Gate codes\n* Main: 5581#",
    "keysafe ٣ ٣ ٠ ٩",
    "رمز البوابة: ٩ ٩ ٠ ٢",
    "金庫の番号は ８ ０ １ ７",
]
_NOT_KIN = [
    "door_code=0000",
    "door_code=${DOOR_CODE}",
    '{"door_code": null}',
    "door_code_length=4",
    '{"gate_code_id": 4471}',
    "alarm_code_count: 12",
    "error_code=4471",
    "keysafe fitted on 12/03/2024",
    "keysafe number 12 of 40",
    "Door codes:\n- Flat 1: see Tom\n- Flat 2: ask the landlord",
    "Door codes:\n- updated: 2024\n- count: 12",
    "Error codes:\n- timeout: 5004",
    # (a phone's or a date's number after a lock's word: refused on main)
    "the padlock company's phone is 0207946",
    "padlock fitted on 1203 2024",
    "the key safe company's phone is 0 2 0 7 9 4 6",
]


@pytest.mark.parametrize("text", _KIN)
def test_a_lock_code_in_other_layouts_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_KIN)
def test_the_same_layouts_without_a_code_pass(text: str) -> None:
    assert find_by_rules(text) is None

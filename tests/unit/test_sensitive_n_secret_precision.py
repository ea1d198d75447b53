"""Secret precision from held-out N's wrong refusals (23b, session 13): texts that give a code or
a password that opens nothing (dead, a product's shipped default), or name one and say something
else about it, and machine text (templates, configs, logs) that names a secret and holds a slot.
Each family is tested with hand-written variants that are not the corpus's samples, in several
languages and layouts, and with the live look-alikes (the same words with a live value) that must
still be found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive
from engram.domain.sensitive.filter import learned_reading

# 1. A value said to be dead in more ways (dead_words.py, dead_values.py): "it's gone", a reset
# forced on everyone, "was" in Portuguese, Spanish and Italian ("era") with a change after "but"
# in any language ("mas", "pero", "aber": "but" never ended the clause), third persons of the
# verbs ("trocou", "değiştirdi", "au schimbat-o"), Romanian's "nu mai merge", "old" in Chinese
# ("之前", "以前") with a full-width bracket, passives of other languages right after the value
# ("byttes", "ble endret", "foi trocada").
_DEAD = [
    "the old garage code was 5519 but the garage is gone, we sold the house",
    "office wifi pass was Harbour2021 but IT did a password reset for all staff, that one's dead",
    "a senha do portão era 4471 mas a síndica trocou semana passada",
    "la clave del candado era 3390 pero el dueño la cambió, fue cambiada ayer",
    "il codice del cancello era 1188 ma è stato cambiato a giugno",
    "Der alte Türcode (7731) ist weg, der Hausmeister hat ihn geändert, aber das ist egal",
    "parola de la poartă era 2580 dar au schimbat-o, nu mai merge",
    "以前的门禁密码（4821）已经改掉了",
    "Koden til boden: 6612 — ble endret i fjor",
    "Senha antiga do alarme (8841) foi trocada pela empresa",
    "Bahçe kapısı şifresi eskiden 2299 idi, yönetim değiştirdi, eski şifre (2299) artık çalışmıyor",
]
# 2. A product's shipped default: the factory's (the maker's own, as it left the factory), the
# manual's, or a conventional one (0000, 1234, "admin") the text says to change.
_DEFAULT = [
    "the factory default PIN on these Masterlock boxes is 0000, set your own",
    "code 1234 is the factory setting for the keypad, reprogram it",
    "the manual says default password admin for the router, we changed it after install",
    "SIM ka PIN 0000 default hota hai, badal lena",
    "PIN پیش‌فرض مودم ۱۲۳۴ هست، حتما عوضش کنید",
]
# The same words with a live value: a chosen value called default, a default never changed,
# a new value after the death, "but" with nothing dead, a default with a new value given.
_LIVE = [
    "the default password for the office wifi is Kiwi!Fruit7, everyone uses it",
    "our garage keypad still has the default code 1234, we never changed it",
    "the old garage code was 5519 and it still works",
    "a senha do portão era 4471 mas ainda funciona",
    "la clave del candado era 3390, ahora es 7712",
    # the rules excuse it (the old value said dead) and only the learned stage found the new
    # one; 23e's retrain (f9cfb67) no longer does: a known miss until the rules read "schimbat-o
    # în <new value>" as a live value given
    pytest.param(
        "parola de la poartă era 2580 dar au schimbat-o în 9911",
        marks=pytest.mark.xfail(strict=True, reason="23e's weights (f9cfb67) miss it; the rules excuse it"),
    ),
    "Koden til boden: 6612",
    "SIM PIN 0000 default hota hai, maine 4827 rakh diya",
    "wifi password: sunflower42, changed it yesterday",
    "the default PIN 0000 was changed to 5831",
]


@pytest.mark.parametrize("text", _DEAD + _DEFAULT)
def test_a_dead_or_shipped_value_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _LIVE)
def test_a_live_value_beside_the_same_words_is_found(text: str) -> None:
    assert find_sensitive(text) is not None


# 3. After the password's word and its separator, words that say what happened to it, who to
# ask or that it is not a value (secret_words.NOT_A_VALUE): "is gone", "foi", "tá", "vraag",
# "ormai", "sperret", a screen reader's "edit text".
_TALK = [
    "the router password is gone, we reset the whole thing",
    "senha do roteiro: foi pro lixo junto com o modem velho",
    "senha da rede: tá no papel colado na geladeira",
    "Wachtwoord van de gastwifi: vraag het aan Joost",
    "Password della posta aziendale: ormai si entra solo con l'app",
    "passordet til nettbanken er sperret etter tre forsøk",
    'accessibility log: "Username: edit text. Password: edit text, secure. Log in, button."',
]
_TALK_LIVE = [
    "the router password is Gone4Good!, we reset the whole thing",
    "senha da rede: Laranja#2024",
    "Wachtwoord van de gastwifi: Tulp-Fiets-88",
    "passordet til nettbanken er Fjord2290",
    "password: edit2024!secure",
]


@pytest.mark.parametrize("text", _TALK)
def test_words_about_a_password_are_not_its_value(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _TALK_LIVE)
def test_a_value_after_the_same_words_is_found(text: str) -> None:
    assert find_sensitive(text) is not None


# 4. Machine text that names a secret and holds a slot, not a value (secret_values.py): a slot
# that describes its value ("<key from Key Vault>", "<base64-encoded-value>"), a slot that says
# where the value goes ("password_here", "xoxb-your-bot-token-here", "INSERT_API_KEY_HERE"), a
# form capture's next field read as a pair's password, a masked value in a JSON object, a setting
# naming the command that prints the secret (credential_process, passwordeval, PassCmd).
_SLOTS = [
    "Azure Storage: DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=<paste key from portal>;EndpointSuffix=core.windows.net",
    "stringData:\n  SMTP_PASSWORD: <base64-encoded-password>\n  API_TOKEN: <your-api-token>",
    "config.sample.php: $db_password = 'your_password_here';",
    "GITHUB_TOKEN=ghp_your-token-goes-here",
    "OPENAI_API_KEY=INSERT_API_KEY_HERE",
    'form capture: {user:"k.oduya", password:"<not recorded: masked field>"}',
    '{"도구":"db_접속","인자":{"사용자":"ops","비밀번호":"******"}}',
    '{"工具":"登录","参数":{"用户名":"li.wei","密码":"••••••••"}}',
    "[profile ci]\ncredential_process = /usr/local/bin/get-creds --profile ci",
    'set imap_pass_command = "pass show mail/imap"\npasswordeval = "gpg --quiet -d ~/.mailpass.gpg"',
]
_SLOTS_LIVE = [
    "Azure Storage: DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A=;EndpointSuffix=core.windows.net",
    "stringData:\n  SMTP_PASSWORD: Kestrel!Harbour42",
    "config.php: $db_password = 'Wm9-Quill-7720';",
    "SLACK_BOT_TOKEN=xoxb-4821739512-9182736450-AbCdEfGhIjKlMnOpQrStUvWx",
    'form capture: {user:"k.oduya", password:"Lagos-Harbour-72"}',
    '{"도구":"db_접속","인자":{"사용자":"ops","비밀번호":"Seoul#2024db"}}',
    "[profile ci]\naws_secret_access_key = 9dK2mP0qLr7sT4vW8xY1zA3bC5eF6gH9jK0lM2nP",
    "password_command = Kiwi!Fruit77",
]


@pytest.mark.parametrize("text", _SLOTS)
def test_a_slot_in_machine_text_is_no_value(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _SLOTS_LIVE)
def test_a_value_in_the_same_machine_text_is_found(text: str) -> None:
    assert find_sensitive(text) is not None


# 5. Said of the value, in the same clause or after it: the clause after the separator is a
# sentence saying someone changed it; a one-time code already used; "patha" (old, Telugu typed in
# Latin) with "panicheyadu" (doesn't work); a number to call under a PIN's key.
_SAID = [
    "Garaj şifresi: apartman yöneticisi geçen hafta değiştirdi",
    "senha do portão: a síndica trocou ontem à noite",
    "your login code 771204 was already used, request another one",
    "bike lock combination marchesanu, patha 4-8-1-9 ippudu panicheyadu",
]
_SAID_LIVE = [
    "Garaj şifresi: Lale1923, apartman yöneticisi değiştirmedi",
    "senha do portão: 4471 e a síndica não trocou",
    "your login code is 771204, it has not been used yet",
    "bike lock combination 4-8-1-9, ippudu kuda panichestundi",
]


@pytest.mark.parametrize("text", _SAID)
def test_a_value_said_changed_or_spent_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _SAID_LIVE)
def test_a_live_value_with_the_same_words_is_found(text: str) -> None:
    assert find_sensitive(text) is not None


@pytest.mark.parametrize(
    ("key", "text", "found"),
    [
        ("sim_puk", "Grameenphone PUK: call 121 from another number, they ask your NID", False),
        ("sim_puk", "call 121 if lost; PUK 48213377", True),
    ],
)
def test_a_number_to_call_under_a_pin_key_is_not_the_pin(key: str, text: str, found: bool) -> None:
    assert (find_by_rules(text, key) is not None) is found


# 6. What the learned stage reads of machine text: a template's URL password, a read from the
# environment, sshd's "Failed password for", an otpauth:// URI with no secret read as slots (the
# learned stage refused such texts; a URL's chosen password and a URI's secret= stay).
@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        ("DATABASE_URL=postgres://USER:DB_PASSWORD@HOST:5432/app", "DB_PASSWORD", "redacted"),
        ('conn = connect(user="etl", password=os.environ["ETL_PW"])', "ETL_PW", "redacted"),
        ("const pw = process.env.SMTP_PASS;", "SMTP_PASS", "redacted"),
        ("sshd[88]: Failed password for root from 10.2.3.4 port 2222 ssh2", "password", "login for root"),
        ("otpauth://totp/Shop:ana?issuer=Shop (secret cropped out)", "issuer", "otpauth: redacted"),
        ("DATABASE_URL=postgres://app:Kiwi!Fruit77@db:5432/app", "redacted", "Kiwi!Fruit77"),
        ("otpauth://totp/Shop:ana?secret=JBSWY3DPEHPK3PXP&issuer=Shop", "redacted", "JBSWY3DPEHPK3PXP"),
        # (an environment variable assigned or given a fallback is read as written)
        ("ENV['SECRET_KEY_BASE'] ||= '9c1e7b3d4f6a0c8e2b9d1f7a3c6e5f2a'", "redacted", "SECRET_KEY_BASE"),
        ('token = os.getenv("API_TOKEN") or "tok-live-88Qz"', "redacted", "API_TOKEN"),
    ],
)
def test_the_learned_stage_reads_slots_in_machine_text(text: str, gone: str, kept: str) -> None:
    read = learned_reading(text, None)
    assert gone not in read
    assert kept in read


# 7. Thai's รหัส ("code") fused with whose or what it numbers is an id, not a password (a
# student's, a member's, an employee's); a sentence in CJK script after the password's word says
# where it is or who changed it (cjk_passwords.described_in_script); "old" in Korean or Chinese
# with a short word stuck to the bracket ("예전 거(...)"); a security question's answer "NOT given".
_SAID_IN_SCRIPT = [
    "รายชื่อนักกีฬา: นายสมชาย ใจดี รหัสนักศึกษา 6502345678",
    "สมาชิกใหม่: นางสาวกานดา รหัสสมาชิก CLUB-0442",
    "รหัสพนักงาน EMP-20931 ของคุณวิชัย",
    "会議室のWi-Fiパスワード：受付の横のボードに書いてあります",
    "公司WiFi密码：行政上周换了，问前台",
    "사무실 와이파이 비번: 어제 관리실에서 바꿨어",
    "창고 비번 바꿨어, 예전 거(4 8 2 1)는 이제 안 돼",
    "Call notes: security question asked; memorable word NOT given, sent SMS code instead",
]
_SAID_IN_SCRIPT_LIVE = [
    "รหัสนักศึกษา 6502345678 รหัสผ่าน Chula#2024",
    "รหัสผ่าน wifi ห้องสมุด: Lib@2568",
    "会議室のWi-Fiパスワード：kaigi2024room",
    "公司WiFi密码：huanying@2025",
    "사무실 와이파이 비번: office2024!",
    "창고 비번 4 8 2 1 이야",
    "memorable word for the bank: NOTTINGHAM",
]


@pytest.mark.parametrize("text", _SAID_IN_SCRIPT)
def test_an_id_or_a_sentence_after_the_word_is_no_password(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _SAID_IN_SCRIPT_LIVE)
def test_a_password_after_the_same_words_is_found(text: str) -> None:
    assert find_sensitive(text) is not None


@pytest.mark.parametrize(
    ("key", "text", "found"),
    [
        ("api_key_tiles", "pk_7Hq2Lm9Rz4TxV8wP3nBc (public token, shipped in the page)", False),
        ("api_key_tiles", "sk_live_51HqLyjWDarjtT1zdp7dc8sT4Ke8r5Xj (public, in the docs)", True),
    ],
)
def test_a_value_its_text_names_public_under_a_key(key: str, text: str, found: bool) -> None:
    assert (find_by_rules(text, key) is not None) is found


# 8. A "security number" after "social" is a Social Security number (an id the id rules read, or
# none), never an alarm's code; an alarm's security number stays a code.
@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("[scan] EMPLOYEE SOCIAL SECURITY NUMBER  4 1 2-6O-339l", False),
        ("her social security number is four one two, six oh, three three nine one", False),
        ("Form SS-5  Social security number  2 2 1 | 7 0 | 5 5 1 8", False),
        ("alarm security number 4471, disarm at the panel", True),
        ("the security number for the shed padlock is 8 8 1 2", True),
    ],
)
def test_a_social_security_number_is_no_secret(text: str, secret: bool) -> None:
    found = find_sensitive(text)
    assert (found is not None and found.rule == "secret") is secret


def test_a_key_then_a_sentence_in_script_is_still_found() -> None:
    # (a sentence in CJK script after the word is no value; a key before one is: held-out M3)
    assert find_by_rules("开放平台 AppSecret: 8f3e1c9a7b2d4056e1f0a8c3d9b7e2f4，同步失败了") is not None

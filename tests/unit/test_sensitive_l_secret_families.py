"""Secret families from held-out L's misses in L1-L3 (21b, session 11): each family tested with
hand-written variants that are not the corpus's samples (other products, languages and
layouts), and the look-alikes (the same words with no value, another number, a range, a
device's serial) that must keep passing. 54 of the "found" cases were red on main (21b); the
others were found already and stay here as the family's variants."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. A code written down by ear: the words that sound like its digits ("won too tree for").
_HEARD_CODES = [
    "the alarm code is won too tree for",
    "gate code: ate ate won too",
    "pin for the garage is for for to won",
    "pass word for the laptop is too ate won won, ok",
    "voicemail: the new code for the shed is tree oh for won — call me",
]
_NOT_HEARD_CODES = [
    "the code review is for two to four people",
    "the code of conduct is for one to four.",
    "the password is too long for one",
    "the code was for me too, for sure",
    "the meeting is for won too tree for.",
    "the door code is for the front door",
]


@pytest.mark.parametrize("text", _HEARD_CODES)
def test_a_code_written_by_ear_after_its_word_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_HEARD_CODES)
def test_words_that_sound_like_digits_in_prose_pass(text: str) -> None:
    assert find_by_rules(text) is None


# 2. A licence's, a product's or an activation key: a bearer credential, by policy.
_LICENCE_KEYS = [
    "clé de produit Windows 11 Pro : W7XKP-3NQ8M-TR4VB-9HJ2C-KD6YF",
    "clave de licencia de Kaspersky: 4F9K2-QX7PM-8TRN3-VW2HC",
    "ライセンスキー：K8M2Q-7PXT4-NR9WC-3HJVD",
    "registration code for WinRAR is RAR-8K4QP-MX72T-9N3WC",
    "Photoshop serial 1325-1558-5864-4422-1333-3706",
    "ключ активации Windows: 9QK2M-X7TPR-4NWC8-H3JVD-6YFTB",
    "TeamViewer deployment code 9XK2PQ7RMT4W for the branch PCs",
    "eSIM QR as text: LPA:1$rsp.truphone.com$QR-G-5C-1LS-1W1Z9P7",
]
_NOT_LICENCE_KEYS = [
    "windows product key on the sticker: VK7JG-NPHTM-C97JM-9MPGT-3V66T (it's the generic one anyway)",
    "license key field left as XXXXX-XXXXX-XXXXX-XXXXX-XXXXX in the template",
    "Serial no. 4471-2290-1188-0412-7 (warranty registration), model HX-220",
    "serial 4596 6542 5987 4713 printed on the solar inverter's label",
    "the router's serial is 2T4K9-88L1-20043, mac 3c:84:6a:1f:09:be",
    "Office 365 licence order ORD-4471-2290-8812-KX, invoice 88120",
    "Veeam licence customer number 4471229, support case 07718822",
    "serial numbers: 1234-5678-9012-3456-7890-1234 on the fridge",
    "deployment code review for the build pipeline, version 4K7XRTMQ29NP",
    "the product key is on the sticker under the laptop",
]


@pytest.mark.parametrize("text", _LICENCE_KEYS)
def test_a_licence_or_activation_key_after_its_word_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_LICENCE_KEYS)
def test_a_licence_number_a_device_serial_or_a_generic_key_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 3. A user and a password after an admin's or an account's word, or an account's name and its
# password joined by a slash; a login said to be "still" the pair.
_PAIRS = [
    "unifi controller: admin/Ubnt#Office2024 (local only)",
    "the NAS admin: backup / stripedwalrus, ask before you change it",
    "plex account: mum@family.net / Pl3xMovies!",
    "the alarm panel login is still installer / installer",
    "the school's printer portal uses account office@stmarys / PrintRoom7",
]
_NOT_PAIRS = [
    "admins: Monday / Tuesday",
    "account: savings / checking",
    "cd root/Projects2024 && ls",
    "see admin/Settings2024 in the wiki",
    "admin: read / write, guests: read",
    "contact anna@firm.com / Anna Smith",
    "the login is still broken / flaky",
    "admin: finance / procurement",
]


@pytest.mark.parametrize("text", _PAIRS)
def test_a_user_and_password_pair_after_an_admin_or_account_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_PAIRS)
def test_two_names_or_a_path_after_an_admin_or_account_pass(text: str) -> None:
    assert find_by_rules(text) is None


# 4. A password reset to a value (a temporary one is live until it is changed), where it came
# from and what it is for between the word and the value.
_RESET_OR_TEMPORARY = [
    "user: can you tell me my password?\nagent: it was reset to Welcome-4471 an hour ago",
    "set the root on db-02 to Winter#Db2024 until the vault sync",
    "the switch pw was reset to the default one: 8KQ2M4TX after the update",
    "the initial password from HR for the new starter's laptop: Start#2024Kb",
]
_NOT_RESET_OR_TEMPORARY = [
    "set the admin on kiosk-3 to Enabled",
    "reset the admin to default",
    "user: what's my password?\ntech: it was reset, check your texts",
    "reset the password to the one in the vault",
    "reset the pw to the default: see the sticker",
]


@pytest.mark.parametrize("text", _RESET_OR_TEMPORARY)
def test_a_password_reset_to_a_value_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_RESET_OR_TEMPORARY)
def test_a_reset_with_no_value_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 5. Security answers as a list of "question - Answer", and in German as a Geheimfrage.
_ANSWER_LISTS = [
    "bank security answers: first pet - Biscuit, mother's maiden name - Okafor",
    "geheime Frage bei der Sparkasse: Lieblingsessen – Rouladen",
    "Geheimfrage fürs Kundenkonto: Geburtsort der Mutter = Kassel",
]
_NOT_ANSWER_LISTS = [
    "security questions to set up: first car - ask Dad; favourite teacher - not sure",
    "security review: first car - done, favourite teacher - pending",
    "Die Geheimfrage bei der Telekom: Name des ersten Haustiers – weiß ich nicht mehr",
    "favourite food - pizza, favourite film - Jaws (for the icebreaker game)",
]


@pytest.mark.parametrize("text", _ANSWER_LISTS)
def test_security_answers_listed_with_dashes_or_in_german_are_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_ANSWER_LISTS)
def test_a_question_list_with_no_answers_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 6. Codes: a keypad's code ended by "*" or "#" after any code's word, a copier's department
# code, a code from an SMS read to someone with what happened next in the same clause.
_CODES = [
    "the plant room code 5521# if the engineer needs it",
    "code for the bike store 4410* (press star after)",
    "photocopier user code for the maths team: 7731",
    "I gave the caller the code from the SMS, it was 448 120, and then my account was emptied",
]
_NOT_CODES = [
    "dial *#06# to see the IMEI, the code is printed there",
    "area code 415#",
    "code 200* responses are cached",
    "SMS: your order code 448120 ships today",
    "the room key code is on the booking confirmation",
]


@pytest.mark.parametrize("text", _CODES)
def test_a_keypad_copier_or_sms_code_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_CODES)
def test_other_codes_near_the_same_words_pass(text: str) -> None:
    assert find_by_rules(text) is None


# 7. A wallet's recovery phrase named in other languages and scripts.
_PHRASE = "walnut vivid tunnel saddle raven quantum parrot oyster noble marble lemon jelly"


@pytest.mark.parametrize(
    "name",
    [
        "сид-фраза:",
        "фраза восстановления для кошелька:",
        "助记词：",
        "시드 문구:",
        "シードフレーズ",
        "kurtarma ifadesi:",
    ],
)
def test_a_recovery_phrase_named_in_another_language_is_found(name: str) -> None:
    assert find_by_rules(f"{name} {_PHRASE}") is not None


@pytest.mark.parametrize("text", ["сид-фраза хранится в сейфе, не в телефоне", "助记词写在纸上，放在保险柜里了"])
def test_a_recovery_phrase_named_with_no_words_passes(text: str) -> None:
    assert find_sensitive(text) is None


# 8. A one-time code asked for by an agent in Chinese, Japanese or Korean and given in the
# customer's turn; a code "из смс" with the value between; recovery codes in spaced groups.
_CODES_IN_OTHER_SCRIPTS = [
    "客服：请提供您收到的验证码？\n客户：好的 583920",
    "オペレーター：お手元の確認コードを教えてください。\nお客様：はい、581204です",
    "상담원: 문자로 받은 인증번호 알려주세요\n고객: 739201 입니다",
    "мошенник попросил код, я назвал код 5521 из смс",
    "Binance 2FA 복구 코드: QX7M 2KDP 9LF4 8RWC",
]
_NOT_CODES_IN_OTHER_SCRIPTS = [
    "客服：请问您的订单号是多少？\n客户：是 402918",
    "客服：您好\n客户：我的电话是 13800138000",
    "код ошибки 4829 пришёл в смс",
    "код заказа 4829 пришёл в смс",
    "OTP 복구 코드는 분실했어요",
]


@pytest.mark.parametrize("text", _CODES_IN_OTHER_SCRIPTS)
def test_a_code_given_in_another_script_or_order_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_CODES_IN_OTHER_SCRIPTS)
def test_an_order_a_phone_or_an_error_code_in_another_script_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 9. A password in full-width brackets; a memorable word given in brackets.
_IN_BRACKETS = [
    "客户在电话里念出了登录密码（Beijing#2024），已提醒修改",
    "caller confirmed the security word (Pemberton) before the transfer",
]
_NOT_IN_BRACKETS = [
    "パスワード（8文字以上）を設定してください",
    "密码（必填）",
    "memorable word (Required) must be 6-12 letters",
    "memorable word (optional)",
    "the customer gave the wrong memorable word (twice)",
]


@pytest.mark.parametrize("text", _IN_BRACKETS)
def test_a_password_or_memorable_word_in_brackets_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_IN_BRACKETS)
def test_a_rule_or_a_remark_in_brackets_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 10. A network device's secrets after its own keywords, and a value said to be in clear.
_DEVICE_SECRETS = [
    "username admin privilege 15 secret 0 Cisc0Adm!n",
    "rocommunity n0c-R3ad 10.0.0.0/8",
    'pre-shared-key ascii-text "IkeSecret99"',
    "the snmp community string is campusRO-2291",
    "config system admin\n edit ops\n  set password Ops!Forti-77\n next",
    "the ipsec psk is sitting in plaintext in the backup: Leeds-VPN!2024 in plaintext, rotate it",
    "secretsdump shows cleartext password for svc_backup: B4ckup-Svc-2023",
]
_NOT_DEVICE_SECRETS = [
    "snmp-server community public RO",
    "set psksecret ENC mwE5Zm9vYmFy",
    "enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0",
    "the password is stored in plaintext in the DB, fix it",
    "the API key appears in cleartext in the logs",
    "community string: see vault",
    "PowerShell logs show the key vault name kv-prod-eu in plaintext",
]


@pytest.mark.parametrize("text", _DEVICE_SECRETS)
def test_a_device_configs_secret_or_a_value_shown_in_clear_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_DEVICE_SECRETS)
def test_a_default_community_a_hash_or_talk_of_clear_text_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 11. A bank's one-time code named for what it approves; a bank's token in Spanish and
# Portuguese; a code given with its own length; a browser's saved login copied by hand; a
# password asked about; a wifi's password named before the network's words.
_MORE = [
    "BankCo: the code to authorise the new payee is 77-31-09. Never share it.",
    "code for signing in to the app: 771204",
    "el token bancario dice 738201, dime rápido",
    "token do Nubank chegou: 551 902",
    "alarm at mum's: four digits 7731",
    "chrome passwords: mail.example.org | j.doe | Wint3r!Coat9",
    "portal.gov.uk – anne.b – Xk9#mPq2Lr",
    "would Tr0mbone!Sunday be a good password for the bank?",
    "password wifi kantor: Kantor#2024",
    "mk wifi tầng 2: tang2-wifi-99",
    "pw wifi ruang rapat: rapat-lt3-77",
    "notes app: 6 digits 551902 — keep safe",
]
_NOT_MORE = [
    "sort code to confirm the payee is 40-19-38",
    "the code to confirm your order is ORD-4471",
    "code for approving invoices: see the finance wiki",
    "token de Banorte: lo tiene mi mamá",
    "card last 4 digits 4471",
    "order number 8 digits 12345678",
    "news.bbc.co.uk - politics - live updates",
    "docs.python.org - 3.12 - library",
    "is GPT-4o-mini good enough for summaries?",
    "is iPhone15Pro good enough for video?",
    "pass wifi details: see the sticker",
]


@pytest.mark.parametrize("text", _MORE)
def test_codes_and_passwords_by_what_they_approve_their_length_or_their_line_are_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_MORE)
def test_their_look_alikes_pass(text: str) -> None:
    assert find_by_rules(text) is None


# 12. The same families in more products and languages: a switch's clear-text settings, a
# password asked about in Spanish and German, security questions listed in French.
_OTHER_PRODUCTS_AND_LANGUAGES = [
    "password manager user-name admin plaintext Pr0Curve!9",
    "wpa-psk ascii 0 GuestWiFi-2024!",
    "snmp-server user monitor grp v3 auth sha AuthP4ss!x priv aes 128 PrivP4ss!y",
    "¿es Perro#Azul2020 una contraseña segura?",
    "ist Sonne!77Berg ein sicheres Passwort?",
    "questions de sécurité : premier animal - Minou ; ville natale de ma mère - Lyon",
]
_NOT_OTHER_PRODUCTS_AND_LANGUAGES = [
    "the plaintext password option is disabled",
    "priv aes 128 is required for v3",
    "es Python3.12 una buena versión?",
    "¿es obligatorio cambiar la contraseña?",
    "questions de sécurité : à définir",
    "question secrète : à compléter plus tard",
]


@pytest.mark.parametrize("text", _OTHER_PRODUCTS_AND_LANGUAGES)
def test_the_families_in_other_products_and_languages_are_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_OTHER_PRODUCTS_AND_LANGUAGES)
def test_their_look_alikes_in_other_products_and_languages_pass(text: str) -> None:
    assert find_by_rules(text) is None

"""The sensitive-data filter refuses secrets and lets look-alikes through."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive, iban_valid, luhn_valid
from engram.domain.sensitive.learned_model import model, position_features


@pytest.mark.parametrize(
    ("text", "key", "rule"),
    [
        ("4111 1111 1111 1111", "", "payment_card"),
        ("card 5500-0000-0000-0004 exp 12/27", "", "payment_card"),
        ("378282246310005", "", "payment_card"),
        ("hunter2", "password", "secret"),
        ("x", "wifi_pin", "secret"),
        ("my password is hunter2", "", "secret"),
        ("the api key: sk-abcdefghijklmnopqrstuvwxyz123456", "", "secret"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "", "secret"),
        ("-----BEGIN RSA PRIVATE KEY-----", "", "secret"),
        ("SSN 123-45-6789", "", "government_id"),
        ("NI number JG 10 37 59 A", "", "government_id"),
        ("DE89 3704 0044 0532 0130 00", "", "bank_account"),
        ("my account number is 12345678", "", "bank_account"),
        # issue #18: forms the old filter let through
        ("pw is hunter2", "", "secret"),
        ("wifi password for home is 'letmein123'", "", "secret"),
        ("pass: s3cr3t!", "", "secret"),
        ("password hunter2", "", "secret"),
        ("my bank pin 4821", "", "secret"),
        ("card 4111.1111.1111.1111", "", "payment_card"),
        ("078051120", "", "government_id"),
        ("social security number is 219099999", "", "government_id"),
        ("passport number 533380006", "", "government_id"),
        ("driver's licence number MORGA753116SM9IJ", "", "government_id"),
        ("my DL is S530-460-71-234-0", "", "government_id"),
        ("tax id 94-1234567", "", "government_id"),
        ("card 4532 7788 1290 4456 07/29", "", "payment_card"),
        # keys that name the secret (what chat extraction stored), or hold it
        ("219099999", "social_security_number", "government_id"),
        ("hunter2", "pw", "secret"),
        ("533380006", "passport_number", "government_id"),
        ("4321", "door_code", "secret"),
        ("visa", "card_4111111111111111", "payment_card"),
    ],
)
def test_sensitive_data_is_found(text: str, key: str, rule: str) -> None:
    match = find_sensitive(text, key)
    assert match is not None
    assert match.rule == rule


@pytest.mark.parametrize(
    "text",
    [
        "4111 1111 1111 1112",  # fails Luhn
        "call me at +1 415 555 0134",
        "order 1234567890123",  # 13 digits, fails Luhn
        "0000 0000 0000 0000",  # one repeated digit
        "I was born in 1990 and live at 221B Baker Street",
        "my favourite colour is blue",
        "the secret garden is my favourite book",  # "secret" without a value
        "GB00 WEST 1234 5698 7654 32",  # IBAN checksum fails
        "version 2.3.4-123-45",
        "my pin collection has 300 pins",
        "reference FR89 4573 1668 4585 6097 1382 343",  # invalid IBAN whose digits pass Luhn in part
        "ticket 1234 5678 9012 3456 7890 1234",  # a longer run of groups, not a card
        # issue #18: refused by mistake
        "my pin is in my wallet",
        "the secret is out: I love jazz",
        "my IMEI is 490154203237518",  # Luhn-valid, but no card brand has that shape
        "490154203237518",
        "renewing my passport costs 80 pounds",
        "npm token rotated yesterday",
    ],
)
def test_look_alikes_pass(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    ("key", "value"),
    [("password_manager", "Bitwarden"), ("passport_expiry", "2027-05"), ("card_type", "visa"), ("zip_code", "94110")],
)
def test_keys_about_a_sensitive_thing_are_not_the_thing(key: str, value: str) -> None:
    assert find_sensitive(value, key) is None


def test_checksums() -> None:
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")
    assert iban_valid("GB82 WEST 1234 5698 7654 32")
    assert not iban_valid("GB82 WEST 1234 5698 7654 33")


# Second session of #18: the families a user pastes beyond the first rules (provider
# credentials, private keys, connection strings, config lines, other languages, ids with
# check digits, unknown token shapes), and the long strings of ordinary notes that are not.
@pytest.mark.parametrize(
    ("text", "key", "rule"),
    [
        # (AWS's documented EXAMPLE keys grant nothing and pass since 18p: keys of their shape)
        ("AWS_ACCESS_KEY_ID=AKIAQ3PLRT7XKW2M5DNB", "", "secret"),
        ("aws_secret_access_key = je7MtGbClwBF/2Zp9Utk/h3yCo8nvbQz81Lm0pK2", "", "secret"),
        ("curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:", "", "secret"),
        ("github_pat_11ABCDEFG0123456789ABC_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW", "", "secret"),
        ("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", "", "secret"),
        ("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/Pu\n", "", "secret"),
        ("postgresql://other:secret@localhost/otherdb?connect_timeout=10", "", "secret"),
        ("Server=db;Database=app;User Id=sa;Password=Winter2024!;", "", "secret"),
        ("DB_PASS=Gr4pefruit!", "", "secret"),
        (
            "AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq",
            "",
            "secret",
        ),
        ("keep this safe: KCzi2Eg3h0p54qGzTYdXt5yN84Bl3WWWqWibY6PF", "", "secret"),  # no known format
        ("mein Passwort für Steam ist Sonnenblume77", "", "secret"),
        ("le mdp du wifi c'est chaton2019", "", "secret"),
        ("minha senha do banco é flamengo10", "", "secret"),
        ("moje hasło do banku to Kot!1234", "", "secret"),
        ("the password I use for Dropbox is walrus-maple-otter", "", "secret"),
        ("username admin password saffron-meadow-otter", "", "secret"),
        ("creds for Plex -> lena_b:Gr4pefruit", "", "secret"),
        ("le code de la porte est 4471", "", "secret"),
        ("Saffron3560!", "kennwort", "secret"),
        ("MAPLE#556", "mot_de_passe", "secret"),
        ("510107198406091894", "", "government_id"),  # Chinese resident id, mod 11-2
        ("82.08.01-834.41", "", "government_id"),  # Belgian national number, mod 97
        ("HETU 280758-031N", "", "government_id"),
        ("numéro de sécurité sociale 2 57 01 17 518 146 87", "", "government_id"),
        ("77121197137", "pesel", "government_id"),
        ("nl39rabo0300065264", "", "bank_account"),  # an IBAN as pasted, lower case
        ("Kontoverbindung AT61 1904 3002 3457 3201", "", "bank_account"),
        # found by the second held-out part's first run
        ("the Wise login is ana@gmail.com and the pasword is ferretpaprika28", "", "secret"),
        ("For Discord I went with gondola.sorbet.16 as the password.", "", "secret"),
        ("Oh and the password? mistralferret79. Talk later!", "", "secret"),
        ("Revolut → bruno.lantern@gmail.com / WeVhAe89Ct", "", "secret"),
        ("mysql -u root -pFerret292! -h 127.0.0.1 shop", "", "secret"),
        ("The code to get into the building is 648897.", "", "secret"),
        ("Ο κωδικός μου είναι quincepaprika56", "", "secret"),
        ("Hi! Rent goes to BE47 1885 8798 8722 from now on", "", "bank_account"),
        ("pode transferir para o IBAN RO05TOOQVXKRVUU8QGR0P8LB", "", "bank_account"),
        ("my ID no. is 9010264364084 (South Africa)", "", "government_id"),
        ("Steuerliche Identifikationsnummer: 97633763066", "", "government_id"),
        # found by the third held-out part's first run
        ("remember: zephyr_harpoon_93 — that's the netflix password!!", "", "secret"),
        ("fyi log in to grandpa's tablet with 31puffin91 thx", "", "secret"),
        ("mum's the shared drive p/w: cactus_violet_87", "", "secret"),
        ("pins: bank 912284, phone 626135, garage 617220", "", "secret"),
        ("if the alarm goes off type 293157 on the panel", "", "secret"),
        ("WIFI:T:WPA;S:CactusNet;P:Nm3KQfjy;;", "", "secret"),
        ("my RRN is 801218-2461311", "", "government_id"),
        ("T.C. Kimlik Numarası: 29268218132", "", "government_id"),
        ("rodné číslo 850526/5010", "", "government_id"),
        ("send it to CH98-9125-5853-0771-0809-8", "", "bank_account"),
        ("fyi send it to de27 8343 6060 7676 9665 34", "", "bank_account"),
    ],
)
def test_more_families_are_found(text: str, key: str, rule: str) -> None:
    match = find_sensitive(text, key)
    assert match is not None
    assert match.rule == rule


@pytest.mark.parametrize(
    "text",
    [
        "commit af0dc481ee214e69886dd9078d3fe0a0af0dc481 broke the build",
        "docker pull ghcr.io/acme/api@sha256:af0dc481ee214e69886dd9078d3fe0a0af0dc481ee214e69886dd9078d3fe0a0",
        "request id 4bf92f35-77b3-4da6-a3ce-929d0e0e4736",
        "my public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKCzi2Eg3h0p54qGzTYdXt5yN84Bl3WWWqWibY6PF lena@mac",
        "pk_live_51KCzi2Eg3h0p54qGzTYdXt5yN is the publishable key on the checkout page",
        "https://drive.google.com/file/d/1KCzi2Eg3h0p54qGzTYdXt5yN84Bl3WWW/view",
        "the class is called AbstractSingletonProxyFactoryBean2",
        "DB_PASSWORD=${DB_PASSWORD}",
        "postgres://localhost:5432/app",
        "AWS region us-east-1 and account 111122223333",
        "mein Passwort ist zu kurz",
        "la contraseña es demasiado corta",
        "the password manager we use at work is 1Password",
        "my password for the NAS is on a sticky note and commit af0dc481ee214e69886dd9078d3fe0a0af0dc481 fixed it",
        "my work email is lena.berg@acme.io",  # contact details are remembered, by design
        "call the dentist on +44 20 7946 0958",
        "password: ******** (ask me, don't store it)",
        "database:\n  host: db.internal\n  password: ${DB_PASSWORD}\n",
        "env:\n  - name: API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: api\n        key: token",
        "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/pg postgres:16",
        "api_key=YOUR_API_KEY",
        "token: <redacted>",
        "the Amazon password is in 1Password",
        "log in to Spotify with your google account",
        "mapbox public token pk.eyJ1IjoiuPfTdxd9hOvJA5heDnjw.-FI1QvyoOLnsRGMtEsP6WU",
    ],
)
def test_long_strings_of_ordinary_notes_pass(text: str) -> None:
    assert find_sensitive(text) is None


# The learned second stage (engram.domain.sensitive.learned_model): phrasings no rule was
# written for, found by the words around the value. Written for this test, in no corpus part.
@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("log into the printer with Zebra77!", "secret"),
        # ("garage keypad: 7712 then enter" was here; a rule finds keypads since the outside parts)
        ("router admin: Zebra77! (changed it today)", "secret"),
    ],
)
def test_the_learned_stage_finds_what_no_rule_names(text: str, rule: str) -> None:
    assert find_by_rules(text) is None  # the case is the model's, not a rule's
    match = find_sensitive(text)
    assert match is not None
    assert match.rule == rule


@pytest.mark.parametrize(
    "text",
    [
        # the word with no value, where a secret is kept, what a value is not
        "password",
        "pin",
        "what's my password?",
        "passport number",
        "account number",
        "the wifi password is on the sticky note",
        "my passport expires in 2031",
        "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "request id 3f2a9c1e-4b7d-4e2a-9c3b-1d2e3f4a5b6c",
        "my locker number is 1412",
        "the meeting id is 845 221 903",  # "the meeting code is ..." is refused: a code may be a passcode
        "my employee number is 40021",
        "flight BA2490 leaves at 7",
        "tracking number 1Z999AA10123456784",
        "call me on 0612345678",
    ],
)
def test_the_learned_stage_passes_look_alikes(text: str) -> None:
    assert find_sensitive(text) is None


def test_the_learned_stage_scores_what_training_read() -> None:
    """Inference groups and caches sums; training reads feature strings. Both must give
    the same score, or the measured model is not the one that runs."""
    m = model()
    texts = [
        "for the record, PlS7GW5JK — that's the my work VPN password (don't lose it)",
        "Steuerliche Identifikationsnummer: 97633763066",
        "Hi! Rent goes to BE93453627671769 from now on " * 30,  # longer than a window
        "",
    ]
    for text in texts:
        feats = position_features(text)
        for ci in range(3):
            values = [sum(m.weights.get(f, (0.0, 0.0, 0.0))[ci] for f in fs) for fs in feats]
            span = min(m.window, len(values))
            best = max((sum(values[i : i + span]) for i in range(len(values) - span + 1)), default=0.0)
            assert m.scores(text)[ci] == pytest.approx(best + m.bias[ci], abs=1e-9)


def test_a_single_token_is_never_the_learned_stage_s() -> None:
    assert model().classify("password") is None
    assert model().classify("Zebra77!") is None


@pytest.mark.parametrize(
    "text",
    [
        # Chinese, Japanese and Korean: no space between the word and the value
        "密码是abc12345",
        "我的密码abc12345",
        "wifi密码是Cafe2024!",
        "パスワードはhunter2です",
        "暗証番号は4821",
        "비밀번호는hunter2",
        "비밀번호 hunter2",
        # a password in a shouted sentence, with no "is" before it
        "THE BANK APP PASSWORD QWERTYUIOP PLEASE",
        "GMAIL PASSWORD ZXCVBNMASD",
    ],
)
def test_passwords_without_a_space_or_in_capitals_are_found(text: str) -> None:
    match = find_sensitive(text)
    assert match is not None
    assert match.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "我忘记密码了",  # I forgot the password
        "密码在我的钱包里",  # the password is in my wallet
        "修改密码 https://example.com/reset",
        "パスワードを変更した",
        "비밀번호 4자리",  # a four-digit password (its length, not it)
        "密码是********",
        "I FORGOT MY PASSWORD AGAIN",
        "THE PASSWORD IS IN THE DRAWER",
    ],
)
def test_password_words_without_a_value_pass_in_any_script(text: str) -> None:
    assert find_sensitive(text) is None


# Families held-out D (written by another engineer) showed missing, fixed by general rules
# after its first run; the cases here are written for the test, not taken from D.
@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # codes of what they lock: safes, lockboxes, combinations, intercoms, phones
        ("the bike lock combination, it's 27-04-19", "secret"),
        ("the safe in the office is set to 5512", "secret"),
        ("Zahlenschloss am Keller: 4-1-9-8", "secret"),
        ("Mein Entsperrcode lautet 551903", "secret"),
        ("o código do cofre é 8830", "secret"),
        ("kod do furtki 4417", "secret"),
        ("portkoden är 8812", "secret"),
        ("玄関のオートロックの番号は5521", "secret"),
        ("storage locker 7, combo 3391", "secret"),
        # ids by check digit or by their word anywhere in the text
        ("AHV 756.1234.5678.97", "government_id"),
        ("Rut 11.111.111-1", "government_id"),
        ("the ssn on the tax form: 078051120", "government_id"),
        ("for the TFN field use 123 456 782", "government_id"),
        # accounts in CJK, in Brazil, before a sort code, and a routing and account pair
        ("口座番号 1234567", "bank_account"),
        ("banco 001, agência 1234, conta 56789-0", "bank_account"),
        ("account 12345678 and sort code 20-00-00", "bank_account"),
        ("please wire it to 021000021 / 123456789", "bank_account"),
        # card groups set two spaces apart
        ("card 4111  1111  1111  1111", "payment_card"),
    ],
)
def test_families_from_the_outside_part_are_found(text: str, rule: str) -> None:
    match = find_by_rules(text)
    assert match is not None
    assert match.rule == rule


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("behind the photo in my wallet", "pin_location"),
        ("0042", "card_last4"),
        ("password: (hidden)", ""),
        ('"password": "<redacted>"', ""),
        ("api_secret: REPLACE_ME", ""),
        ("the wifi password is printed on the router", ""),
        ("login: sam@example.com (password in Bitwarden)", ""),
        ("call me on +44 7700 900123 4", ""),
        ("my electricity account no. 1234567890 with Octopus", ""),
        ("it's safe to say 2024 was good", ""),
        ("my alarm is set to 0630", ""),
        ("my locker is 217 on the second floor", ""),
        ("the safe dose is 250 mg", ""),
        ("combination lock: reset it to 0-0-0 first", ""),
        ("social club meets in room 123456789", ""),
        ("order 123456789 / 1234567 shipped", ""),
    ],
)
def test_pointers_and_look_alikes_from_the_outside_part_pass(text: str, key: str) -> None:
    assert find_by_rules(text, key) is None


@pytest.mark.parametrize(
    ("value", "key"),
    [("3", "pin_attempts_left"), ("3", "password_attempts"), ("2", "pin_tries_remaining"), ("5", "max_pin_tries")],
)
def test_a_count_of_tries_is_about_a_secret_not_one(value: str, key: str) -> None:
    # an agent's trace or a memory key counting tries ({"pin_attempts_left": 3}) was redacted
    assert find_sensitive(value, key) is None


@pytest.mark.parametrize(("value", "key"), [("hunter2", "password_attempt"), ("Tr0ub4dor&3", "password_retry")])
def test_the_password_tried_is_a_secret(value: str, key: str) -> None:
    assert find_sensitive(value, key) is not None

"""Secret families the rules missed or over-read on held-out E (session 18a), each written
as its own probes in several phrasings, not as E's lines: the rules alone are tested, since
the learned stage has since been trained on E."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


def _rule(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


@pytest.mark.parametrize(
    ("key", "text"),
    [
        # keys in Chinese, Japanese and Korean, where no separator splits the words
        ("微信支付密码", "551208"),
        ("银行卡密码", "903114"),
        ("スマホのパスコード", "041918"),
        ("キャッシュカードの暗証番号", "7734"),
        ("은행_비밀번호", "Seoul!2291"),
        # what a code opens, fused or in other languages, with the code spaced or dashed
        ("bike_lock", "0 8 1 5"),
        ("padlock_gym", "4-4-1-9"),
        ("yale_lock", "7 4 0 2 9 1"),
        ("tresor_code", "09-27-44"),
        ("larmkod", "2 9 0 1"),
        ("ovikoodi", "5518"),
        ("locker_combo", "12-30-06"),
        ("bike_lock", "4 digits: 0 8 1 5"),
        # one-time and backup codes under their key
        ("aws_root_mfa_backup", "8R2K-QM7T-1XFA-ZZ40"),
        ("github_2fa_recovery", "a81f2-c09de"),
        ("otp", "448 120"),
    ],
)
def test_keys_that_name_a_code_or_password_in_any_script_hold_a_secret(key: str, text: str) -> None:
    assert _rule(text, key) == "secret"


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("bike_lock", "the blue one in the shed"),
        ("mfa_backup", "printed, in the safe"),
        ("otp_length", "6"),
        ("backup_time", "03:00"),
        ("larm", "ringer om 6:45"),
        ("パスワードのヒント", "犬の名前"),
        ("lock_screen_timeout", "30 s"),
    ],
)
def test_such_keys_without_a_code_pass(key: str, text: str) -> None:
    assert _rule(text, key) is None


@pytest.mark.parametrize(
    "text",
    [
        # PINs, TANs and one-time codes in more languages
        "TAN für die Überweisung: 573 914",
        "die pushTAN lautet 228 104",
        "NIP de la tarjeta: 0 9 6 6",
        "mi NIP del cajero es 4471",
        "kod BLIK 482 917, szybko wpisz",
        "BLIK: 603 118",
        "ATM पिन 9031 है",
        "मेरा पिन 7720 है",
        "ovikoodi on 2 2 8 1",
        "porttikoodi on 4471",
        "Your Steam Guard code: 7KQ4F",
        "your Battle.net login code: 84J2Q",
        # CJK password words with words between them and the value
        "Wi-Fiのパスワード覚えておいて：sakura_mochi_2024",
        "家里wifi的密码记一下：hongshao_rou88",
        "와이파이 비밀번호 기억해줘: kimchi_jjigae_77",
        # a security word
        'bank security word is "tangerine" - they ask 2nd and 5th letters',
        "my memorable word for the bank is 'marigold'",
        'our family code word is "pineapple" if anyone calls claiming to be me',
        # a key and a value given as two fields of a record
        '{"event": "memory.write", "key": "door_code", "value": "5519#"}',
        "{'name': 'wifi_password', 'value': 'Otter-Lamp-88'}",
        "field=alarm_code value=2 7 7 1",
        # a browser's cookie jar
        "cookie jar dump: .bank.example TRUE / TRUE 1767225600 SESSIONID 8f2a0c7d1e4b49a6b3c5d7e9f1a2b4c6",
        ".shop.example\tTRUE\t/\tFALSE\t1798761600\tauth_token\tQm9vbS1hdXRoLXRva2VuLTE5OTA",
    ],
)
def test_codes_words_and_records_of_more_forms_are_secrets(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        # the same words with no code, or a code of something else
        "the tan sofa was 1200 euros",
        "paid with BLIK, order 20391",
        "पिन कोड 560001 बेंगलुरु",
        "Your Steam Guard code will arrive by email",
        "your discount code: SAVE20",
        "Wi-Fiのパスワードを変えました：明日から新しいです",
        "bank security word: they ask for letters of it on the phone",
        '{"key": "door_color", "value": "green"}',
        '{"name": "password_policy", "value": "min12"}',
        "cookie jar: .news.example TRUE / FALSE 1767225600 _ga GA1.2.1234567890.1700000000",
        # developer text that names a secret and holds none
        "python train.py --model small --seed 42 --lr 3e-4 --batch 64",
        "random seed 1234 for reproducibility",
        "OPENAI_API_KEY is not set. Please export it or pass api_key= explicitly.",
        '401 Unauthorized: {"error": "invalid_token", "error_description": "The access token expired"}',
        'k8s: secret "db-creds" not found in namespace "staging"',
        "secret/postgres-creds created",
        'Error from server (NotFound): secrets "api-keys" not found',
        "INSERT INTO payments (card_token) VALUES ('tok_1PqK8sL2eZvKYlo2C3bd');",
        'git diff\n-API_KEY = "hardcoded"\n+API_KEY = os.environ["SHOPIFY_KEY"]',
        'password = "placeholder"  # set in prod',
        # an identifier with a dash after a word a code opens
        "found at gate B12, claim number LF-88231",
        "left it in locker 14, ticket INC-40218",
    ],
)
def test_look_alikes_of_those_families_pass(text: str) -> None:
    assert _rule(text) is None


def test_a_polish_nip_is_a_tax_number_not_a_pin() -> None:
    assert _rule("NIP: 526-104-08-28") != "secret"


@pytest.mark.parametrize(
    "text",
    [
        "przelew na telefon przez BLIK jest darmowy do 1000 zł",
        "a TAN costs nothing for transfers up to 5000 EUR",
        "my safe word is pineapple",
    ],
)
def test_amounts_after_a_code_word_and_a_safe_word_pass(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("", 'echo "Blu3Moon#7" | docker login -u bob --password-stdin'),
        ("", "echo 'Tr0ub4dor' | sudo -S apt-get update"),
        ("", "Wi-Fi: HomeNet / Kiwi!Fruit7"),
        ("", "wlan: Casa_Rossi / pomodoro2019"),
        ("", "pssw: Tr0mbone"),
        ("", "pswd=Kettle88"),
        ("", "apartment door 4471#"),
        ("", "side gate 2 9 0 4#"),
    ],
)
def test_piped_passwords_network_pairs_and_keypad_codes_are_secrets(key: str, text: str) -> None:
    assert _rule(text, key) == "secret"


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("", "echo $REGISTRY_TOKEN | docker login ghcr.io -u bob --password-stdin"),
        ("", "Wi-Fi: HomeNet / HomeNet-5G"),
        ("", "WLAN: FritzBox / FritzBox_Guest"),
        ("api_key_created_at", "2026-03-01"),
        ("password_rotated", "2026-01-15"),
    ],
)
def test_their_look_alikes_pass(key: str, text: str) -> None:
    assert _rule(text, key) is None


@pytest.mark.parametrize(
    "text",
    [
        "Q: what's the code for the bike shed? A: 5521",
        "what's the wifi password? answer: Lemon-Tree-42",
        "password hint says 'dog + year', so Rex2016",
        "رمز البطاقة 4471",
        "كود الباب 2580",
    ],
)
def test_questions_answered_hints_resolved_and_arabic_card_codes_are_secrets(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "Q: what's the code for the bike shed? A: ask Tom",
        "the password hint is 'first pet', so nothing to store",
        "رمز البطاقة وصل بالبريد",
    ],
)
def test_the_same_without_a_value_pass(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("", "first pet's name (for the bank security q) = Biscuit"),
        ("", "github 2fa backup: 4418 2291 0773"),
        ("", "authenticator recovery key - k2p9x7q4m1"),
        ("bank.otp_seed", "JBSWY3DPEHPK3PXP"),
        ("totp_key", "NB2W45DFOIZA"),
    ],
)
def test_security_q_second_factor_backups_and_seeds_are_secrets(key: str, text: str) -> None:
    assert _rule(text, key) == "secret"


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("cards.backup", "5394 5949 7849 0329"),  # a card kept as a backup is a card
        ("", "Mexican INE clave de elector GOMRCR85031209H400"),  # an id, not a password
        ("", "la clave única tributaria es 12.345.678-5"),
        ("", "2fa backup: printed, in the safe"),
    ],
)
def test_cards_under_backup_keys_and_spanish_clave_as_a_code_of_record_are_not_passwords(key: str, text: str) -> None:
    assert _rule(text, key) != "secret"


def test_the_german_word_for_a_card_pin_is_a_pin_word() -> None:
    assert _rule("Die Geheimzahl meiner Sparkassenkarte ist 7391") == "secret"
    assert _rule("die Geheimzahl kommt per Post in 5 Tagen") is None


@pytest.mark.parametrize(
    "text",
    [
        "la password è scaduta",
        "la contraseña está caducada",
        "das Passwort ist abgelaufen",
        "het wachtwoord is verlopen",
    ],
)
def test_a_password_said_to_be_expired_in_other_languages_passes(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    ("key", "text"),
    [("pet", "MARK-gone-5"), ("pet", "Biscuit2"), ("city", "MARK-kept-4"), ("dog", "Rex-B2"), ("team", "Tigers 7")],
)
def test_everyday_entries_with_mixed_values_are_stored(key: str, text: str) -> None:
    # the learned stage trained with E and outside 6 refused [pet] MARK-gone-5
    assert find_sensitive(text, key) is None


def test_a_key_naming_credentials_holds_a_secret() -> None:
    assert _rule("app:Pr0d!Secret", "db_creds") == "secret"
    assert _rule("deploy / Gr4nite&Moss", "staging_credentials") == "secret"
    assert _rule("in the team vault", "db_creds") is None
    assert _rule("see runbook", "credentials_location") is None


@pytest.mark.parametrize(
    ("key", "text"),
    [
        # records and tool calls: a key field and its value, a code field
        ("", '{"tool":"memory.save","args":{"k":"gym_locker_pin","v":"4471"}}'),
        ("", '{"schluessel":"garagen_pin","wert":"8090"}'),
        ("", '{"tool":"vault.get","result":{"path":"home/alarm","value":"2580"}}'),
        ("", '{"tool":"browser.fill","args":{"selector":"#password","value":"Quartz.Lynx.71"}}'),
        ("", 'result: {"ok":true,"otp":"448 120","ttl":300}'),
        ("", '{"ssid":"Cafe_Guest","psk":"espresso2026bar"}'),
        # a code before what it opens, a fused German lock word, a code after a comma
        ("", "7731 is the code for the key safe by the back door"),
        ("", "bitte merk dir den Garagencode — 4-4-0-9"),
        ("", "she told me her card PIN, 6249, so I'd remember"),
        # a password reset or changed to a value
        ("", 'e-mail password expired; IT reset it to "Temp-Ox44-Blue"'),
        ("", "I changed the wifi password to Lemon-Tree-42"),
        # a security question quoted with single quotes, answered
        ("", "the answer for 'name of your first school' is Hillcrest"),
        # codes under keys with a note after them, cash machines and doors of more languages
        ("airbnb_keypad", "2208 (check-in Fri)"),
        ("clave_cajero", "7 2 0 4"),
        ("kapi_sifresi", "5 5 1 9 (apartman girişi)"),
        ("sim_puk", "29184055"),
        ("backup codes", "codes for the user's Google account (the user asked me to keep them): 4821 7730, 9914 0265"),
    ],
)
def test_records_tool_calls_and_codes_given_in_more_orders_are_secrets(key: str, text: str) -> None:
    assert _rule(text, key) == "secret"


@pytest.mark.parametrize(
    ("key", "text"),
    [
        # a key naming a secret, and a value that talks about it
        ("portkod", "ändras efter renoveringen, föreningen mejlar ut den nya"),
        ("cvv", "not stored by design"),
        ("pin_do_karty", "zmieniony w bankomacie 14.11"),
        ("digicode_immeuble", "le syndic change le digicode le 1er décembre"),
        ("senha_portão", "o porteiro abre, não tem senha"),
        ("wlan_passwort_ort", "steht auf der Rückseite der FritzBox"),
        ("private_key_path", "~/.ssh/id_ed25519"),
        ("mapbox_public_token", "pk.eyJ1IjoibWlyYSJ9.public_only"),
        # records whose fields name a secret elsewhere, and ids in code
        ("", '{"event":"login_failed","user":"r.mehta77","reason":"bad_password","attempt":3}'),
        ("", '{"message_id":"msg_01HZX4P8R7","role":"user","ts":"2026-11-20T18:04:11Z"}'),
        ("", 'memory.update(key="school_pickup_list", value="Grandma Lou, Aunt Trina")'),
        ("", '{"clave":"bizum_telefono","valor":"+34 612 345 678"}'),
        ("", '{"user":"u_55291","card_token":"tok_visa_4242"}'),
        # a copula inside a word is none ("guest" holds "est")
        ("", "Password for the guest network will be printed on a card in the hallway."),
    ],
)
def test_values_that_talk_about_the_secret_and_records_without_one_pass(key: str, text: str) -> None:
    assert _rule(text, key) is None


@pytest.mark.parametrize(
    "text",
    [
        # developer text that names a secret and holds none (after outside 5's first run)
        "mongodb+srv://<username>:<password>@cluster0.ab1cd.mongodb.net/events?retryWrites=true",
        "POST /oauth/token client_id=acme-etl client_secret=[FILTERED]",
        "[Peer]\nPublicKey = xTIBNCc9vIFShP88xbjV0fhZ7bDkJUvzFjlQcE30peX=\nAllowedIPs = 0.0.0.0/0",
        "VAPID_PUBLIC_KEY=BPF5xOtkiEoZIiqFcBZxsA7OMsy03Y5MujiqPc1QMYYyABNQqvAXyFy8z0ZlkYn1qhrH4d31P3V0TwV6tXi23t13nV43b",
        "RECAPTCHA_SITE_KEY=6LcQ8mZxAAAAAL2wV4cN9bjG5SvkGDyMG1TpDDY2",
        "helm upgrade --install kc bitnami/keycloak --set auth.existingSecret=keycloak-admin -n sso",
        "arn:aws:secretsmanager:eu-west-1:481920337756:secret:prod/orders/db-master-Q8mZx2",
        "wachtwoord van de test-FTP vergeten, kan iemand het resetten?",
        "本番DBのパスワードはSecrets Managerに移しました",
    ],
)
def test_developer_text_naming_a_secret_without_one_passes(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "mongodb+srv://app:Qw3rty2024@cluster0.abcde.mongodb.net/prod",
        "client_secret=Zq8!mR2kLp9xVt4w",
        "PRIVATE_KEY=xTIBNCc9vIFShP88xbjV0fhZ7bDkJUvzFjlQcE30peX=",
        "本番DBのパスワードはProdDb#2026です",
    ],
)
def test_the_same_places_with_a_secret_are_still_found(text: str) -> None:
    assert _rule(text) == "secret"

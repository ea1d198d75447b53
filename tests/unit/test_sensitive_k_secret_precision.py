"""Secret precision from held-out K's wrong refusals (20a, session 10): texts that name a
secret and give none, or give one that opens nothing. Each family is tested with hand-written
variants that are not the corpus's samples, in several languages and layouts, and with the
look-alikes (the same words with a live value) that must still be found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. A slot, a redaction marker or a reference where the value would be: a provider's prefix
# kept and the rest replaced ("SG.REDACTED"), a value that says to change it, a psql
# variable, a call computing it, a template's slot, a key's armour around no key.
_SLOTS = [
    "STRIPE_SECRET_KEY=sk_live_REDACTED",
    "GITHUB_TOKEN=ghp_FILTERED  # scrubbed by the log shipper",
    'openai_api_key: "sk-proj-<redacted>"',
    '-  token = "xoxb-REDACTED"\n+  token = os.environ["SLACK_BOT_TOKEN"]',
    '{"api_key": "ak_example_42", "plan": "free"}',
    "SECRET_KEY=django-insecure-change-me",
    "JWT_SIGNING_SECRET=replace-me-in-prod",
    "ALTER ROLE app_rw WITH PASSWORD :'app_rw_pw';",
    "UPDATE users SET password = md5(random()::text) WHERE id > 100;",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n<your key here>\n-----END OPENSSH PRIVATE KEY-----",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "Every call needs an API token: `X-Api-Key: <your key>` (create one in the dashboard)",
    "POST /oauth/token HTTP/1.1\nHost: auth.example.org\n\ngrant_type=client_credentials&client_secret=[FILTERED]",
    'Welcome email: "Your temporary password is: [TEMP_PASSWORD]"',
    'Onboarding text: "your kiosk login is <USERNAME>/<PASSWORD>, change it on first use"',
    "ts=2024-05-01 level=info event=login user=mkowal password=<redacted> result=ok",
    "the reporting DSN is mysql://reporting:<PASSWORD>@db.internal:3306/reports",
    "cache: redis://:${REDIS_PASSWORD}@cache.internal:6379/0",
]
_LIVE_VALUES = [
    "STRIPE_SECRET_KEY=sk_live_51HqLz2eZvKYlo2C0aB3cD4eF",
    "SECRET_KEY=django-insecure-8f#k2!x9zq@w3mLp",
    "ALTER ROLE app_rw WITH PASSWORD 'Kiwi!Fruit7';",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx8Qz3v1k9Yw2pL7rT4nB6mJ0cF5dH8sK\n-----END RSA PRIVATE KEY-----",
    'Welcome email: "Your temporary password is: Temp-Ox44-Blue"',
    "the reporting DSN is mysql://reporting:Str0ng!Pass@db.internal:3306/reports",
    "ts=2024-05-01 level=info event=login user=mkowal password=Kiwi!Fruit7 result=ok",
    "your kiosk login is frontdesk / Tulip#2291",
]


@pytest.mark.parametrize("text", _SLOTS)
def test_a_slot_or_a_redaction_marker_where_the_value_would_be_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _LIVE_VALUES)
def test_a_live_value_in_the_same_place_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 2. A password asked for and not given: a prompt followed by a code block's fence, a flag that
# makes the tool ask, an HTTP status after "I typed the password", where the password comes
# from, whom it must not be given to.
_ASKED_FOR = [
    "$ psql -h db.internal -U etl warehouse\nPassword for user etl:\n```\nit hangs here",
    "wget --ask-password --user=ci https://downloads.example.org/build-9.2.tar.gz",
    "`curl -u admin https://es.internal:9200/_cluster/health` 비밀번호 넣어도 403이 떠요",
    "curl -u elastic http://10.0.0.5:9200 → password typed, still 401, why?",
    "never give the safe password to temp staff",
    "please don't send the VPN password to the contractors",
    "# password comes from the mysql_config_editor login path, not this file",
    "the SMTP password is read from the CI's masked variables at deploy time",
]
_GIVEN = [
    "Password for user etl:\nS3cure!Wh4le",
    "please send the VPN password to Ana: Kiwi!Fruit7",
    "the safe password is Tr0mbone!Sunday",
    "curl -u admin:Kiwi!Fruit7 https://es.internal:9200/",
]


@pytest.mark.parametrize("text", _ASKED_FOR)
def test_a_password_asked_for_and_not_given_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _GIVEN)
def test_a_password_given_after_the_same_words_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 3. A code or password said to be dead: the old one, no longer working or changed; an access
# key's id said to be deactivated; a one-time code said to have expired.
_DEAD = [
    "old gate code 4471 doesn't work anymore, ask Priya for the new one",
    "the previous alarm code (9920) no longer works since the engineer's visit",
    "our old wifi password was Bluebell22 but it has been changed",
    "the router password used to be Marigold77 but we changed it last week",
    "der alte Türcode 5521 funktioniert nicht mehr, frag die Hausverwaltung",
    "el código antiguo de la alarma 7781 ya no funciona",
    "o código antigo do portão 3390 não funciona mais",
    "رمز البوابة تغير، القديم ٣٣٩١ لم يعد يعمل",
    "key id AKIAQ7RT2XZ5YU8P4K3M was in the leaked log; that key is deactivated now",
    "รหัส OTP ไม่ถูกต้อง (Ref: PQ7Z) กรุณาลองใหม่",
    "認証コードは期限切れです。再送してください",
]
_STILL_LIVE = [
    "old alarm code 2580 still works until Friday",
    "the old gate code 4471 will be changed next week",
    "old door code 1234 doesn't work anymore, the new door code is 5678",
    "the wifi password used to be Bluebell22 and it still is, nobody changed it",
    "key id AKIAQ7RT2XZ5YU8P4K3M, secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz12ab3 (rotated out next week)",
    "รหัส OTP คือ 482913 (Ref: KXQ2)",
]


@pytest.mark.parametrize("text", _DEAD)
def test_a_code_or_password_said_to_be_dead_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _STILL_LIVE)
def test_a_code_still_live_or_given_anew_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 4. A security question talked about without its answer: the answer matched, is known to
# someone, is no longer needed; the question itself quoted after "is".
_QUESTION_TALK = [
    "caller verified via security question (answer matched), then reset the PIN",
    'the security question for the pension portal is "first pet" - no idea what I put',
    "good news: the security question answer isn't required by the app anymore",
    "Security question for the escrow portal: mother's maiden name (answer known to the partner only)",
]
_ANSWERED = [
    'security question "first pet" answer is Biscuit',
    "security question: first school, answer is Brigid",
    'the security question for the portal is "first pet" and the answer is Marmalade',
]


@pytest.mark.parametrize("text", _QUESTION_TALK)
def test_a_security_question_talked_about_without_its_answer_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _ANSWERED)
def test_a_security_question_answered_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 5. Numbers beside a code's word that are no code: a standard's number, a key's fingerprint
# after an address, a URL's user at its host.
_OTHER_NUMBERS = [
    "Prüfziffer-Validierung nach ISO 7064 ist jetzt Pflicht im Formular",
    "PGP fingerprint for releases@example.org: 4AEE 18F8 3AFD EB23 1A2B 3C4D 5E6F 7A8B 9C0D 1E2F",
    "MONGO_URI=mongodb+srv://etl@cluster1.xy12z.mongodb.net/warehouse?authMechanism=MONGODB-X509",
]


@pytest.mark.parametrize("text", _OTHER_NUMBERS)
def test_a_standard_a_fingerprint_or_a_urls_user_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 6. Identifiers that are no secret beside a secret's word: a payment gateway's token for a
# card, a card payment's authorisation code, a keyword argument after a user, a creditor
# reference, a company's credit code, a badge's printed number said to be no secret.
_IDENTIFIERS = [
    "charged the card on file; the gateway returned token tok_9QwErTy12 for the refund",
    '{"token": "pm_1PqR8sT2uV3wX4yZ", "last4": "4242"} -- tokenized by the gateway, fine to log',
    "Paid $85 by Mastercard ending 4410, auth code 552190, thank you",
    "deposit charged: VISA exp 11/27, auth code 09A7731",
    'conn = connect(user="etl_bot", authenticator="oauth", warehouse="wh1")',
    "κωδικός πληρωμής RF18 5390 0754 7034 για τον λογαριασμό της ΔΕΗ",
    "maksa viitteellä RF18 5390 0754 7034, PIN-koodia ei tarvita",
]
_CREDENTIALS_BESIDE = [
    "the api token is sk_live_51HqLz2eZvKYlo2C0aB3cD4eF",
    "the auth code from the bank's card reader is 552190",
    "creds: etl_bot / Kiwi!Fruit7",
    "κωδικός wifi: Kiwi!Fruit7",
]


@pytest.mark.parametrize("text", _IDENTIFIERS)
def test_an_identifier_beside_a_secrets_word_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _CREDENTIALS_BESIDE)
def test_a_credential_beside_the_same_words_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


def test_a_companys_credit_code_is_no_secret() -> None:
    found = find_sensitive("供应商统一社会信用代码 91350100M000100Y43，开票用")
    assert found is None or found.rule != "secret"


def test_a_badge_said_to_be_no_secret_under_a_lock_key_passes() -> None:
    assert find_by_rules("door badge #55120 (number printed on the card, not a secret)", "locker_office") is None
    assert find_by_rules("55120", "locker_code") is not None


# 7. Where the password is, said after its word, with a device's name before it: the name is
# no value before the word.
@pytest.mark.parametrize(
    "text",
    [
        "Fritz!Box 6660 – WLAN-Schlüssel klebt hinten am Gerät",
        "Speedport-Smart3 – das WLAN-Passwort steht auf dem Aufkleber",
        "TP-Link_Archer7 - wifi password is on the sticker underneath",
        "Vodafone-Station5 – Kennwort liegt im Umschlag",
    ],
)
def test_where_the_password_is_after_a_devices_name_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 8. A product's documented default in a setting its line says is local (the policy in
# docs/security.md): passes; the same default with no such word, or a chosen value, does not.
@pytest.mark.parametrize(
    "text",
    [
        "MINIO_ROOT_PASSWORD=minioadmin   # local dev only",
        "      RABBITMQ_DEFAULT_PASS: guest   # for the local docker-compose",
        "POSTGRES_PASSWORD=postgres  # dev laptops only, prod reads it from the vault",
    ],
)
def test_a_documented_default_said_to_be_local_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "POSTGRES_PASSWORD=Oriole-Dev-42   # local only",
        "MINIO_ROOT_PASSWORD=minioadmin   # the shared staging box",
        "because locally you export PGPASSWORD=devpass_Oriole42 in your shell",
    ],
)
def test_a_default_not_said_local_or_a_chosen_local_password_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 9. What the learned stage reads: slots as "redacted", a gateway's card token, a CJK case's
# or application's number and a meeting's id without the number (the id stays when its
# passcode is given beside it); a value, a tag and a section header as written.
def test_the_learned_stage_reads_slots_and_case_numbers_without_their_values() -> None:
    from engram.domain.sensitive.secret_values import without_reference_numbers, without_slots

    for slot in (
        "TOKEN=<from console>",
        "password=<redacted>",
        "secret=[FILTERED]",
        "KEY=SG.REDACTED",
        "pw=${PM_DB_PW}",
    ):
        read = without_slots(slot)
        assert read != slot and "redacted" in read, slot
    assert "tok_" not in without_slots('{"token":"tok_1PqZ8xLm2Wn7Kv0R"}')
    for kept in ("at Verifier.<init>(Verifier.java:41)", "[OUTPUT]\n Name http", "password=Kiwi!Fruit7"):
        assert without_slots(kept) == kept
    assert not any(c.isdigit() for c in without_reference_numbers("保険金請求：事故受付番号 A-2406-48291"))
    assert not any(c.isdigit() for c in without_reference_numbers("就学援助の申請番号 R6-0482"))
    assert not any(c.isdigit() for c in without_reference_numbers("zoom: meeting 812 4471 0093, passcode in the post"))
    assert "4456" in without_reference_numbers("Zoom 839 2017 4456, passcode 7yR2kP")
    assert "482913" in without_reference_numbers("验证码 482913，请勿告诉他人")


def test_a_claims_number_in_japanese_is_no_secret() -> None:
    assert find_sensitive("保険金の請求：受付番号 B-2511-77310、修理見積り待ち") is None


# 10. The same families in older parts' wording: a value filled with x's after a provider's
# prefix, a password's size, a question's answer that is not given or is the question again.
@pytest.mark.parametrize(
    "text",
    [
        'api_key = "sk_test_xxx"  # the client is mocked',
        "STRIPE_KEY=sk_live_XXXX",
        "the vault passphrase is six words, written in the red notebook",
        "the wifi password is 12 characters, ask Tom",
        "q: first pet?\na: never had one, skip it",
        'security question hint: "the street you grew up on" (she answers it on the phone)',
    ],
)
def test_a_filled_value_a_size_or_an_unanswered_question_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        'api_key = "sk_test_51HqLz2eZvKYlo2C0aB3cD4eFxx"',
        "my passphrase is four words: saffron meadow otter lantern",
        "q: favourite teacher?\na: Mrs Finkelstein",
        "sec q: first school / a: st brigids",
    ],
)
def test_a_value_after_a_size_or_a_question_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 11. A secret's name where its value would be: a vault's entry quoted after "Secret", a
# field's name given as a setting's value.
@pytest.mark.parametrize(
    "text",
    [
        'Das DB-Passwort liegt jetzt im Key Vault (kv-prod, Secret "db-password"), nicht mehr in der .env',
        'the API token moved to AWS Secrets Manager, secret "prod/payments-api-token"',
        "  - secretKey: password\n    remoteRef:\n      key: prod/db",
    ],
)
def test_a_secrets_name_where_its_value_would_be_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    ['the smtp secret is "Kiwi-Fruit-77"', "  - secretKey: Kiwi!Fruit7\n    remoteRef: {}"],
)
def test_a_secret_where_a_name_would_be_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None

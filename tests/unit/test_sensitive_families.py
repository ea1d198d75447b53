"""Families of forms the sensitive-data filter generalises to: settings in the ways code
names them, passwords, ids and accounts in more languages and scripts, and the settings
and words that are about a secret without holding one."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


def _rule(text: str, key: str = "") -> str | None:
    found = find_sensitive(text, key)
    return None if found is None else found.rule


@pytest.mark.parametrize(
    "text",
    [
        # a setting's name in camelCase, fused, after an underscore, as an element or a pair
        "//registry.npmjs.org/:_authToken=a8f9c2d1-77e3-4b7e-9b1a-2f1e0c9d8e7a",
        'const config = { dbPassword: "Kangaroo_77", host: "db" }',
        "PGPASSWORD=hunter42 psql -h db -U app",
        "MYSQLPASSWORD=r00tr00t",
        "<password>Summer!2023</password>",
        '<add key="SmtpPassword" value="Mail#2024x" />',
        "env:\n  - name: DB_PASSWORD\n    value: pgS3cretValue",
        '{"name": "API_TOKEN", "value": "tk_93jf83jf93"}',
        # SQL, .pgpass, a session cookie
        "CREATE USER report IDENTIFIED BY 'R3p0rt!ng';",
        "db.example.com:5432:appdb:appuser:pgpass123",
        "Cookie: theme=dark; sessionid=8j3k2l1m0n9b8v7c6x5z4a3s2d1f0g9h",
        # command lines
        "docker login -u deploy -p Qw3rtyZx9 registry.example.com",
        "redis-cli -h cache -a Hx7pLm2Qz ping",
        "keytool -list -keystore app.jks -storepass Ch4ngedIt",
        "openssl pkcs12 -in cert.p12 -passin pass:Exp0rtPw",
        "./deploy.sh --github-token 9f8e7d6c5b4a3f2e1d0c",
        # string literals in code: a subscript, a call, an HTTP client's pair, an HTML field
        'os.environ["DB_PASSWORD"] = "Hunter22x"',
        'config.set("smtp_password", "Mail#2024x")',
        'requests.get(url, auth=("admin", "hunter22"))',
        '<input type="password" name="pw" value="Secr3tV4l">',
        '{"auths": {"registry.example.com": {"auth": "dXNlcjpzM2NyM3RwYXNz"}}}',
    ],
)
def test_secrets_in_settings_and_command_lines_are_found(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "token_type: bearer\nexpires_in: 3600",
        "set password_reset_timeout = 3600",
        "max_password_length=128",
        '{"nextPageToken": "CAoQAAabc123", "items": []}',
        '"max_tokens": 4096, "eos_token": "</s>"',
        "retry_token_bucket_size=5000",
        "password_hash: $2b$12$KIXQJ7k1o0lY1Y5n9f6xUe9w8z7y6x5w4v3u2t1s0r9q8p7o6n5m4",
        "secretKeyRef:\n  name: db-creds\n  key: password",
        "fetch(url, { credentials: 'include' })",
        "interface Login { username: string; password: string }",
        "pass_rate: 0.95",
        "key: user_profile:12345",
        "cache key = session:user:88231",
        "Cookie: csrftoken=8j3k2l1m0n9b8v7c6x5z4a3s2d1f0g9h",
        'os.environ.get("DB_PASSWORD", "")',
        'getenv("API_TOKEN", "changeme")',
        '("password", "Please enter your password")',
        '<input type="password" name="pw" placeholder="Password">',
        '"auth": "oauth2"',
        "Set-Cookie: _ga=GA1.2.1234567890.1700000000; Path=/",
    ],
)
def test_settings_about_a_secret_pass(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "пин-код от карты 4821",
        "ПИН 7730",
        "код от подъезда 1234",
        "PIN kodu 4455",
        "el código de seguridad de la tarjeta es 456",
        "der Sicherheitscode der Karte ist 739",
    ],
)
def test_pins_and_entrance_codes_in_more_languages_are_found(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize(
    "text", ["код ошибки 404", "the ПИН is on the back of the letter", "CVV is the 3 digits on the back"]
)
def test_code_words_of_more_languages_without_a_code_pass(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize("text", ["my pin no. is 4821", "pin no. 4821", "my pin# is 4821", "PIN# 0519"])
def test_a_pin_abbreviated_as_no_or_hash_is_found(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize("text", ["pin no. is in the envelope", "the PIN no. 12 on the map", "Pin #3 of the connector"])
def test_a_pin_abbreviation_without_a_code_passes(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "kata sandi email saya: Melati#88",
        "kata laluan bank aku ialah Durian99",
        "mật khẩu wifi là conmeo2024",
        "lozinka za wifi je Sarajevo77",
        "geslo za račun je Bled1999",
        "parool on Tallinn2020",
        "slaptažodis yra Vilnius55",
        "parola mea de la email este Brasov2021",
        "jelszavam Budapest88",
        "nenosiri la simu ni Simba2023",
        "पासवर्ड है raju@1234",
        "كلمة المرور: Sahara2020!",
        "הסיסמה שלי היא Tapuz123",
        "رمز عبور من Tehran1400 است",
        "รหัสผ่าน wifi คือ bangkok555",
    ],
)
def test_passwords_in_more_languages_are_found(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "lozinka je prekratka, probaj opet",
        "mật khẩu quá yếu, đổi đi",
        "كلمة المرور خاطئة",
        "הסיסמה שלי בטוחה",
        "kata sandi lupa lagi haha",
        "la parola chiave è fiducia",
        "parola mea este în 1Password",
    ],
)
def test_password_words_of_more_languages_without_a_value_pass(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "CPR-nummer 010190-1234",
        "mi cédula es 1020304050",
        "HKID A123456(7)",
        "CNIC 35202-1234567-1",
        "NIK saya 3201011501900001",
        "mã số CCCD 001090012345",
        "numer dowodu ABC123456",
        "JMBG 0101990710006",
        "isikukood 38001085718",
        "паспорт 4510 123456",
        "رقم الهوية 1234567890",
        "תעודת זהות 123456782",
        "เลขบัตรประชาชน 1101700230708",
        "パスポート番号はTK1234567です",
    ],
)
def test_ids_in_more_languages_and_scripts_are_found(text: str) -> None:
    assert _rule(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "nomor rekening BCA 1234567890",
        "số tài khoản 0071001234567",
        "hesap numarası 12345678901",
        "číslo účtu 1234567890",
        "номер счёта 40817810099910004312",
        # an account number that happens to pass Luhn is an account, not a card
        "IFSC HDFC0001234 account 50100123456789",
    ],
)
def test_accounts_in_more_languages_are_found(text: str) -> None:
    assert _rule(text) == "bank_account"


@pytest.mark.parametrize("text", ["PESEL nie jest wymagany", "ask for the IBAN and the sort code tomorrow"])
def test_an_id_or_account_needs_digits(text: str) -> None:
    assert _rule(text) is None


def test_swahili_ni_before_a_password_is_not_a_national_insurance_number() -> None:
    assert _rule("ni Simba2023") != "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "my OTP is 482913",
        "the 2FA code is 551 203",
        "one-time code: 884120",
        "验证码是 630912",
        "認証コードは 447120 です",
        "인증번호 903112",
        "Bestätigungscode: 119024",
        "код подтверждения 556677",
        "mã OTP của bạn là 882211",
        "kode OTP 445566 jangan dibagikan",
    ],
)
def test_one_time_codes_are_access_codes(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize(
    "text", ["OTP sent to your phone", "verification code expired, request a new one", "error code 0x80070005"]
)
def test_one_time_code_words_without_a_code_pass(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    "text",
    ["PIN code 560001 Bangalore", "my address: 12 MG Road, Bengaluru, pincode 560001", "pin code: 400050, Mumbai"],
)
def test_india_s_postal_pin_code_in_an_address_is_no_secret(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize("text", ["my ATM pin code is 482913", "the pin code for the card is 560001"])
def test_a_six_digit_pin_code_without_an_address_is_a_secret(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        '"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="',
        "github.com/stretchr/testify v1.8.4 h1:CcVxjf3Q8PM0mHUKJCdn+eZZtm5yQwehR5yeSVQQcUk=",
        "Content-Security-Policy: script-src 'sha256-B2yPHKaXnvFWtRChIbabYmUBFZdVfKKXHbWtWidDVF8='",
        "certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Foa2lH",
    ],
)
def test_digests_and_certificates_in_base64_pass(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBeFpqK2h2Wk9KaGd5",
        "2FA recovery codes: a1b2-c3d4 e5f6-g7h8 i9j0-k1l2",
        "GitHub recovery codes 7f3a2-9c1b4 0d8e6-4a2f1",
    ],
)
def test_a_private_key_in_base64_and_recovery_codes_are_found(text: str) -> None:
    assert _rule(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "def login(username: str, password: str) -> Token:\n    user = db.get(username)",
        "def check_api_key(user: User, api_key: str) -> bool:",
        'Traceback (most recent call last):\n    client = Client(api_key=settings.api_key)\nKeyError: "API_KEY"',
        "password = settings.password",
        "const token = await getToken({ scopes: ['read', 'write'] });",
        "const password = await getPassword();",
        'token = tokenizer.encode("hello world")',
        "kubectl create secret generic db-creds --from-file=password=./pw.txt",
        "E0501 12:00:05.123 reflector.go:138] Failed to watch *v1.Secret: secrets is forbidden",
        "INFO auth: password refreshed for user_id=12262 expires_at=1126666683",
        "WARN password validation failed for request 1f3dcb0, retrying in 26s",
        "AUTH_PROVIDER=cognito\nAUTH_REGION=eu-central-1\nAUTH_USER_POOL_ID=eu-central-1_AbC123xYz",
        '"ssh_key_fingerprint": "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"',
    ],
)
def test_code_and_logs_that_name_a_secret_without_one_pass(text: str) -> None:
    assert _rule(text) is None


# A code expression names a setting, it holds no value: the learned stage reads
# os.environ["SLACK_BOT_TOKEN"], getenv(...), process.env.X and ${VAR} as their names' words
# (it read each as one value-shaped token, so a traceback about a missing variable was
# refused). No training template writes these lines.
@pytest.mark.parametrize(
    "text",
    [
        "Traceback (most recent call last):\n    token = os.environ[\"SLACK_BOT_TOKEN\"]\nKeyError: 'SLACK_BOT_TOKEN'",
        'File "bot.py", line 12, in <module>\n    token = os.environ["SLACK_BOT_TOKEN"]\nKeyError: \'SLACK_BOT_TOKEN\'',
        'File "worker.py", line 40, in connect\n    pw = os.environ["POSTGRES_REPLICA_PASSWORD"]\n'
        "KeyError: 'POSTGRES_REPLICA_PASSWORD'",
        "db_password = os.getenv('DB_PASSWORD') returned None, check the .env file",
        "TypeError: Cannot read properties of undefined (process.env.STRIPE_SECRET_KEY)",
        'curl -H "Authorization: Bearer ${GITHUB_TOKEN}" fails with 401 because the token is empty',
        'Traceback (most recent call last):\n    client = Client(token=settings.slack_bot_token)\nKeyError: "SLACK_BOT_TOKEN"',
        "pydantic_core.ValidationError: 1 validation error for Settings\nSTRIPE_WEBHOOK_SIGNING_SECRET\n  Field required",
    ],
)
def test_a_traceback_about_a_missing_environment_variable_passes(text: str) -> None:
    assert _rule(text) is None


@pytest.mark.parametrize(
    "text",
    [
        'token = os.environ.get("SLACK_BOT_TOKEN", "xoxb-4829-Kq8Zr2Lm9Pt7Vx")',
        "export GITHUB_TOKEN=ghp_R8kXz2LmQ9vT4wPn7cYd3FhJ6sBa1eUo5iGt",
        # a literal fallback after code that reads a secret's variable, in each language's way
        'DB_PASSWORD = os.getenv("DB_PASSWORD") or "Tr0ub4dor&3"',
        'const pass = process.env.DB_PASS || "hunter22x"',
        "$token = getenv('API_TOKEN') ?: 'sk_9f8e7d6c5b4a'",
        'password = settings.get("password") ?? "Winter2024!"',
        "api_key = os.environ.get(\"OPENAI_API_KEY\") or 'k3y-for-dev-9Q'",
        "const secret = process.env[\"JWT_SECRET\"] || 'jwt-s3cret-2024'",
        "$pass = $_ENV['MAIL_PASSWORD'] ?? 'S3ndGr1d!';",
        'let pw = env::var("SMTP_PASSWORD").unwrap_or("Mail!2024x".to_string());',
        "export DB_PASSWORD=${DB_PASSWORD:-Tr0ub4dor3}",
    ],
)
def test_a_value_next_to_a_code_expression_is_still_found(text: str) -> None:
    assert _rule(text) == "secret"
    assert find_by_rules(text) is not None  # (the rules, not the learned stage alone)


@pytest.mark.parametrize(
    "text",
    [
        # empty, none, another variable, a placeholder, a non-secret variable's literal
        'PORT = os.getenv("PORT") or "8080"',
        'password = os.getenv("DB_PASSWORD") or ""',
        'api_key = os.getenv("API_KEY") or None',
        'token = os.getenv("TOKEN") or DEFAULT_TOKEN',
        'password = os.getenv("DB_PASSWORD") or "changeme"',
        'const host = process.env.DB_HOST || "localhost"',
        "const pass = process.env.DB_PASS || ''",
        'token = os.getenv("GITHUB_TOKEN") or os.getenv("GH_TOKEN")',
        'url = os.getenv("DATABASE_URL") or "sqlite:///local.db"',
        'password = os.getenv("DB_PASSWORD") or "<your-password>"',
        "export DB_PASSWORD=${DB_PASSWORD:-}",
        'secret = os.getenv("SECRET_KEY") or "${SECRET_KEY}"',
        'timeout = settings.get("password_timeout") ?? "30s"',
    ],
)
def test_a_fallback_that_holds_no_secret_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "the GP surgery asked for my NHS number for the transfer form, it's 943 476 5919",
        "NHS numbers for the kids (for the dentist):\nAlfie 943 476 5919\nRosa 401 023 2137",
        "aadhaar of my in-laws for the pension form:\nMaa 4987 1234 5605",
        "our BSNs for the tax return: mine 111222333, Joost's 123456782",
        "the employer wants my Social Insurance Number for the T4 slip: 130 692 544",
        "SIN for my son's summer job: 130 692 544",
        "CPR-numre til lægen: mit er 070761-4285, min kones er 110865-3928",
    ],
)
def test_checked_ids_of_more_countries_are_found_with_their_word_anywhere(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "NHS 111 is closed tonight, call the surgery on 0161 496 0008 in the morning",
        "BSN is on the back of the residence card; the landlord's phone is 020 123 4567",
        "my aadhaar is linked to 98765 43210 for the OTP",
    ],
)
def test_a_phone_number_beside_an_id_word_is_no_id(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "heads up: the prod db password was rotated on Friday, ask Mo for the new one",
        "we revoked the password immediately (incident SEC-4471, review on Monday)",
        "the wifi password was updated yesterday, the new one is on the fridge",
        "the vendor password got compromised last week, see ticket OPS-2291",
    ],
)
def test_what_was_done_to_a_password_is_not_its_value(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "the prod db password was rotated, new one: Quill-Harbor-7731",
        "password updated: Tamarind!2290",
        "wifi password was changed to Cobalt_Fern_88",
    ],
)
def test_a_new_password_after_what_was_done_to_it_is_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "the password for the school portal is the cat's name and the year, so Mittens2021",
        "pw: same as the work one but with an ! at the end -> Lantern88!",
        "the zip password is his date of birth, ddmmyyyy, so 03111987. they all work like that",
    ],
)
def test_a_password_described_then_given_in_the_same_sentence_is_found_by_the_rules(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "the password is long, so it's fine",
        "the password rules changed, so 12 characters minimum now",
        "the password is stored in the vault, so ask Tom",
        "the password is the same as before, so nothing to do -> see ticket",
        # the sentence goes on about what follows "so": not the password
        "my password expired, so 20240315 is the deadline to reset it",
        "the wifi password changed yesterday, so Netgear-5G is the network to join",
        "password rotated, so v2.3.1 of the app is required",
    ],
)
def test_a_password_sentence_with_so_and_no_value_passes(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # a dot inside the value does not end the clause before it
        "e-devlet şifrem Kartal.1907 unutma",
        "my password Rosa.Gardenia58 she can't get in",
        "le mot de passe Soleil.2024 pour la box",
        "Passwort Kaffee.Tasse77 für den Laptop",
    ],
)
def test_a_password_with_a_dot_inside_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "password reset.example.com",
        "password policy.md explains the rules",
        "Enter passphrase for key '/home/deploy/.ssh/id_rsa':\nIdentity added: /home/deploy/.ssh/id_rsa",
        "password file config.yaml has it",
    ],
)
def test_a_site_a_file_or_a_path_after_a_password_word_passes(text: str) -> None:
    assert find_by_rules(text) is None

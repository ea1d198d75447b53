"""The held-out test set of the sensitive-data filter, and the benign corpus it is measured on.

Why generated, and why this way: the hand-written part (``sensitive_samples_dev*.txt``)
was tuned on, so its figures only say the filter fits its author. This module builds a
test set the filter was never tuned on, from *different* sources than the hand-written
one, so its figures predict what an outside evaluation would find:

- other templates (sentence shapes never used in the development part), another
  vocabulary (services, people, places) and other languages (German, French, Spanish,
  Italian, Portuguese, Dutch, Polish, Swedish);
- real public formats: the example keys and numbers that providers and standards
  bodies publish in their documentation (AWS, Stripe, jwt.io, Azurite, Slack,
  ISO 13616 IBAN examples, card-network test numbers, the NHS and SIN examples), and
  fresh random values in each provider's documented shape (prefix, alphabet, length);
- national ids of many countries with their check digits computed here, by code
  written independently of ``engram.domain.sensitive`` (the filter's own checksums are
  never imported, so a bug shared by both cannot hide);
- negatives of the same shapes that are not secret: phone numbers, e-mail addresses,
  tracking numbers, IMEIs, ISBNs, git hashes, UUIDs, public keys, publishable keys.

E-mail addresses and phone numbers are labelled *not sensitive*: Engram's behaviour
item 9 refuses secrets, government ids, cards and bank accounts; remembering "my work
e-mail is ..." or "the dentist's number is ..." is what a memory is for.

The benign corpus is ordinary memory text: every turn of the conversation evaluation
(``bench/conv_data.py``, written for #19 by another engineer, not for this filter),
every fact of the recall evaluation (``bench/eval_data.py``), and a generated set of
everyday notes full of numbers, codes and links (prices, times, flights, versions,
hashes, addresses, phones). What matters there is the share wrongly refused.

Protocol: this file and its output (``bench/sensitive_samples_holdout.txt``) were
committed before the filter was changed against them; ``python -m bench.sensitive_corpus``
reports the held-out figures apart from the development ones. Fixed seed: the same
samples on every machine. Regenerate with ``python -m bench.sensitive_holdout``.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).parent
HOLDOUT = HERE / "sensitive_samples_holdout.txt"
SEED = 1818

B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = B62 + "+/"
URLSAFE = B62 + "-_"
UPPER_DIGITS = string.ascii_uppercase + string.digits


# -- checksums (independent of the filter's own) -------------------------------------------------
def luhn_digit(partial: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    check = 98 - int("".join(str(int(c, 36)) for c in moved)) % 97
    return f"{country}{check:02d}{bban}"


_VERHOEFF_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
_VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]
_VERHOEFF_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_digit(partial: str) -> str:
    c = 0
    for i, ch in enumerate(reversed(partial)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[(i + 1) % 8][int(ch)]]
    return str(_VERHOEFF_INV[c])


def cpf(r: random.Random) -> str:
    d = [r.randrange(10) for _ in range(9)]
    for n in (9, 10):
        s = sum(d[i] * (n + 1 - i) for i in range(n))
        d.append(s * 10 % 11 % 10)
    s = "".join(map(str, d))
    return f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"


def dni(r: random.Random) -> str:
    n = r.randrange(10_000_000, 99_999_999)
    return f"{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"


def nie(r: random.Random) -> str:
    lead = r.choice("XYZ")
    n = r.randrange(1_000_000, 9_999_999)
    return f"{lead}{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[int('XYZ'.index(lead).__str__() + str(n)) % 23]}"


def bsn(r: random.Random) -> str:
    while True:
        d = [r.randrange(10) for _ in range(8)]
        s = sum(d[i] * (9 - i) for i in range(8))
        last = s % 11
        if last < 10 and d[0] != 0:
            return "".join(map(str, d)) + str(last)


def pesel(r: random.Random) -> str:
    yy, mm, dd = r.randrange(50, 99), r.randrange(1, 13), r.randrange(1, 29)
    body = f"{yy:02d}{mm:02d}{dd:02d}{r.randrange(10000):04d}"
    w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
    return body + str((10 - sum(int(body[i]) * w[i] for i in range(10)) % 10) % 10)


def personnummer(r: random.Random) -> str:
    body = f"{r.randrange(50, 99):02d}{r.randrange(1, 13):02d}{r.randrange(1, 29):02d}{r.randrange(1000):03d}"
    return f"{body[:6]}-{body[6:]}{luhn_digit(body)}"


def hetu(r: random.Random) -> str:
    dd, mm, yy, n = r.randrange(1, 29), r.randrange(1, 13), r.randrange(50, 99), r.randrange(2, 899)
    num = int(f"{dd:02d}{mm:02d}{yy:02d}{n:03d}")
    return f"{dd:02d}{mm:02d}{yy:02d}-{n:03d}{'0123456789ABCDEFHJKLMNPRSTUVWXY'[num % 31]}"


def nhs(r: random.Random) -> str:
    while True:
        d = [r.randrange(10) for _ in range(9)]
        check = 11 - sum(d[i] * (10 - i) for i in range(9)) % 11
        if check == 11:
            check = 0
        if check != 10:
            s = "".join(map(str, d)) + str(check)
            return f"{s[:3]} {s[3:6]} {s[6:]}"


def sin(r: random.Random) -> str:
    body = str(r.randrange(1, 8)) + "".join(str(r.randrange(10)) for _ in range(7))
    s = body + luhn_digit(body)
    return f"{s[:3]} {s[3:6]} {s[6:]}"


def aadhaar(r: random.Random) -> str:
    body = str(r.randrange(2, 10)) + "".join(str(r.randrange(10)) for _ in range(10))
    s = body + verhoeff_digit(body)
    return f"{s[:4]} {s[4:8]} {s[8:]}"


def china_id(r: random.Random) -> str:
    body = f"{r.choice(['110101', '310104', '440305', '510107'])}{r.randrange(1960, 2005)}"
    body += f"{r.randrange(1, 13):02d}{r.randrange(1, 29):02d}{r.randrange(1000):03d}"
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body + "10X98765432"[sum(int(body[i]) * w[i] for i in range(17)) % 11]


def nir(r: random.Random) -> str:
    body = f"{r.choice('12')}{r.randrange(50, 99):02d}{r.randrange(1, 13):02d}{r.randrange(1, 96):02d}"
    body += f"{r.randrange(1, 990):03d}{r.randrange(1, 999):03d}"
    key = 97 - int(body) % 97
    return f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:]} {key:02d}"


def fnr(r: random.Random) -> str:
    while True:
        d = [int(c) for c in f"{r.randrange(1, 29):02d}{r.randrange(1, 13):02d}{r.randrange(50, 99):02d}"]
        d += [r.randrange(10) for _ in range(3)]
        k1 = 11 - sum(a * b for a, b in zip(d, [3, 7, 6, 1, 8, 9, 4, 5, 2], strict=True)) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        d.append(k1)
        k2 = 11 - sum(a * b for a, b in zip(d, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=True)) % 11
        k2 = 0 if k2 == 11 else k2
        if k2 == 10:
            continue
        return "".join(map(str, d)) + str(k2)


def belgian_nn(r: random.Random) -> str:
    yy, mm, dd, seq = r.randrange(50, 99), r.randrange(1, 13), r.randrange(1, 29), r.randrange(1, 998)
    body = f"{yy:02d}{mm:02d}{dd:02d}{seq:03d}"
    return f"{body[:2]}.{body[2:4]}.{body[4:6]}-{body[6:]}.{97 - int(body) % 97:02d}"


def codice_fiscale(r: random.Random) -> str:
    letters = "".join(r.choice(string.ascii_uppercase) for _ in range(6))
    body = f"{letters}{r.randrange(50, 99)}{r.choice('ABCDEHLMPRST')}{r.randrange(1, 71):02d}"
    body += f"{r.choice('ABCDEFGHILMZ')}{r.randrange(100, 999)}"
    odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]
    total = 0
    for i, ch in enumerate(body):
        v = int(ch) if ch.isdigit() else ord(ch) - 65
        total += odd[v] if i % 2 == 0 else v
    return body + chr(65 + total % 26)


def tfn(r: random.Random) -> str:
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    while True:
        d = [r.randrange(10) for _ in range(9)]
        if sum(a * b for a, b in zip(d, w, strict=True)) % 11 == 0 and d[0]:
            s = "".join(map(str, d))
            return f"{s[:3]} {s[3:6]} {s[6:]}"


def card(r: random.Random, prefix: str, length: int) -> str:
    body = prefix + "".join(str(r.randrange(10)) for _ in range(length - len(prefix) - 1))
    return body + luhn_digit(body)


def rand(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


# -- vocabularies (none of these services, people or places is used in the development part) -----
SERVICES = [
    "Steam", "Duolingo", "Dropbox", "eBay", "Etsy", "the Xbox", "Peloton", "Hulu", "Twitch", "Zoom",
    "Canva", "Notion", "Trello", "Evernote", "Tidal", "Deezer", "Audible", "Kindle", "Garmin Connect", "Strava",
    "the NAS", "the Synology", "Plex", "Jira", "Confluence", "Bitbucket", "Figma", "Miro", "Asana", "the HOA portal",
]  # fmt: skip
USERS = ["m.okafor", "lena_b", "pvdberg", "rhea.k", "dan1987", "s.moreau", "admin", "root", "jpk", "teo.r"]
WORDS = [
    "walrus", "saffron", "juniper", "tangerine", "quokka", "velvet", "harbor", "cobalt", "maple", "pistachio",
    "thunder", "lagoon", "ember", "nimbus", "otter", "falcon", "meadow", "cricket", "biscotti", "glacier",
]  # fmt: skip
SYMBOLS = "!@#$%&*?"
HOSTS = ["db.internal", "10.0.3.7", "pg-prod.acme.io", "cluster0.x7k2p.mongodb.net", "localhost", "redis.lan"]


def password(r: random.Random) -> str:
    shape = r.randrange(6)
    w = r.choice(WORDS)
    if shape == 0:
        return f"{w.capitalize()}{r.randrange(10, 9999)}{r.choice(SYMBOLS)}"
    if shape == 1:
        return w.replace("a", "4").replace("e", "3").replace("o", "0") + str(r.randrange(1, 99))
    if shape == 2:
        return f"{w}-{r.choice(WORDS)}-{r.choice(WORDS)}"
    if shape == 3:
        return rand(r, B62 + SYMBOLS, r.randrange(10, 18))
    if shape == 4:
        return f"{w}{r.choice(WORDS)}{r.randrange(10, 99)}"
    return f"{r.choice(WORDS).upper()}{r.choice(SYMBOLS)}{r.randrange(100, 999)}"


def pin(r: random.Random) -> str:
    return str(r.randrange(10 ** (n := r.choice([4, 4, 4, 5, 6])) // 10, 10**n))


# -- sensitive: secrets -------------------------------------------------------------------------------
# Documented example values, quoted as the provider documents them (AWS's, which say EXAMPLE
# in the value, are labelled as grants of nothing in build()).
DOCUMENTED_SECRETS = [
    # AWS IAM user guide, second documented key pair
    "AWS_ACCESS_KEY_ID=AKIAI44QH8DHBEXAMPLE",
    "aws_secret_access_key = je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
    # Stripe API reference test key
    "curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:",
    # jwt.io's default token
    "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    # Azurite's well-known development account (Microsoft docs)
    "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;",
    # Slack's documented incoming-webhook shape
    "post alerts to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    # PostgreSQL docs connection URI
    "postgresql://other:secret@localhost/otherdb?connect_timeout=10&application_name=myapp",
    # MongoDB docs
    "mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin",
    # Redis URL with a password (redis-py docs shape)
    "REDIS_URL=redis://:p4ssw0rd@redis-12345.c1.us-east-1-2.ec2.cloud.redislabs.com:12345/0",
    # SQL Server connection string (Microsoft docs shape)
    "Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;",
    # A PEM block as OpenSSL prints it (truncated body)
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n-----END RSA PRIVATE KEY-----",
    "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49\n-----END EC PRIVATE KEY-----",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF2lnPIBCADGRK6a0Gq1kE9J8xl0pLqB\n-----END PGP PRIVATE KEY BLOCK-----",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----",
    "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key-20240101",
    # Twilio docs: auth token placeholder shape (32 hex) with its SID
    "TWILIO_ACCOUNT_SID=ACb5d8a1e0f2c3d4e5f60718293a4b5c6d TWILIO_AUTH_TOKEN=9f3c2a1b8d7e6f5a4b3c2d1e0f9a8b7c",
    # GCP service-account key file (field as Google documents it, body truncated)
    '"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n"',
]


def provider_tokens(r: random.Random) -> list[str]:
    """Fresh values in each provider's documented shape."""
    return [
        f"AKIA{rand(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}",
        f"ASIA{rand(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}",
        f"ghp_{rand(r, B62, 36)}",
        f"gho_{rand(r, B62, 36)}",
        f"github_pat_11{rand(r, UPPER_DIGITS, 20)}_{rand(r, B62, 59)}",
        f"glpat-{rand(r, URLSAFE, 20)}",
        f"xoxb-{r.randrange(10**11, 10**12)}-{r.randrange(10**12, 10**13)}-{rand(r, B62, 24)}",
        f"xoxp-{r.randrange(10**11, 10**12)}-{r.randrange(10**11, 10**12)}-{r.randrange(10**12, 10**13)}-{rand(r, HEX, 32)}",
        f"sk_live_{rand(r, B62, 99)}",
        f"rk_live_{rand(r, B62, 24)}",
        f"sk-proj-{rand(r, URLSAFE, 48)}T3BlbkFJ{rand(r, URLSAFE, 48)}",
        f"sk-{rand(r, B62, 20)}T3BlbkFJ{rand(r, B62, 20)}",
        f"sk-ant-api03-{rand(r, URLSAFE, 93)}AA",
        f"AIza{rand(r, URLSAFE, 35)}",
        f"GOCSPX-{rand(r, URLSAFE, 28)}",
        f"hf_{rand(r, string.ascii_letters, 34)}",
        f"npm_{rand(r, B62, 36)}",
        f"pypi-AgEIcHlwaS5vcmc{rand(r, URLSAFE, 80)}",
        f"SG.{rand(r, URLSAFE, 22)}.{rand(r, URLSAFE, 43)}",
        f"shpat_{rand(r, HEX, 32)}",
        f"dop_v1_{rand(r, HEX, 64)}",
        f"{r.randrange(10**8, 10**10)}:AA{rand(r, URLSAFE, 33)}",
        f"{rand(r, HEX, 32)}-us{r.randrange(1, 21)}",
        f"sq0atp-{rand(r, URLSAFE, 22)}",
        f"xapp-1-A{rand(r, UPPER_DIGITS, 10)}-{r.randrange(10**12, 10**13)}-{rand(r, HEX, 64)}",
        f"{rand(r, B62 + '_-', 3)}8Q~{rand(r, B62 + '_-.~', 34)}",  # Azure AD client secret
        f"glsa_{rand(r, B62, 32)}_{rand(r, HEX, 8)}",  # Grafana service account
        f"SK{rand(r, HEX, 32)}",  # Twilio API key SID (with its secret below)
    ]


TOKEN_FRAMES = [
    "{t}",
    "here you go: {t}",
    "new token just dropped -> {t}",
    "can you hang on to this for the deploy script? {t}",
    "export SERVICE_TOKEN={t}",
    "the CI variable is set to {t}",
    '{{"token": "{t}"}}',
    "I rotated it, the fresh one is {t}",
    "Für das Deployment: {t}",
    "voici le jeton : {t}",
]


def secrets(r: random.Random) -> list[str]:
    out = list(DOCUMENTED_SECRETS)
    for _ in range(3):
        for t in provider_tokens(r):
            out.append(r.choice(TOKEN_FRAMES).format(t=t))
    # connection strings with a password
    for _ in range(12):
        u, p, h = r.choice(USERS), password(r).replace("@", "").replace(":", "").replace("/", ""), r.choice(HOSTS)
        out.append(
            r.choice(
                [
                    f"DATABASE_URL=postgres://{u}:{p}@{h}:5432/app",
                    f"the staging db is mysql://{u}:{p}@{h}/shop",
                    f"mongodb+srv://{u}:{p}@{h}/test?retryWrites=true",
                    f"amqp://{u}:{p}@{h}:5672/",
                    f"jdbc:postgresql://{h}:5432/crm?user={u}&password={p}",
                    f"ftp://{u}:{p}@{h}/backups",
                    f"Host={h};Port=5432;Username={u};Password={p};Database=ledger",
                    f"smtp creds {u}@{h} / {p}",
                ]
            )
        )
    # .env and config lines
    for _ in range(10):
        name = r.choice(["DB_PASSWORD", "SECRET_KEY", "JWT_SECRET", "SMTP_PASS", "ADMIN_PASSWORD", "API_SECRET"])
        out.append(f"{name}={password(r) if r.random() < 0.5 else rand(r, B62, 40)}")
    # keyword-less random tokens (the entropy fallback's job)
    for _ in range(8):
        out.append(
            r.choice(["keep this safe: {t}", "{t} <- that's the one for prod", "paste this into the app: {t}"]).format(
                t=rand(r, B62, r.randrange(32, 48))
            )
        )
    # passwords in prose, several languages
    prose = [
        "{svc} login: {u} / {p}",
        "creds for {svc} -> {u}:{p}",
        "I set the {svc} password to {p}",
        "changed my {svc} password to {p} this morning",
        "{svc} pass = {p}",
        "new {svc} password {p}",
        "the password I use for {svc} is {p}",
        "password for {svc} → {p}",
        "my {svc} credentials are {u} and {p}",
        "username {u} password {p}",
        "{svc}: user {u}, pwd {p}",
        "remember {svc}? the passphrase is {p}",
        "the {svc} account password, in case you need it: {p}",
        "Mein Passwort für {svc} ist {p}",
        "Kennwort für {svc}: {p}",
        "das WLAN-Passwort lautet {p}",
        "mon mot de passe {svc} est {p}",
        "le mdp du wifi c'est {p}",
        "mi contraseña de {svc} es {p}",
        "la clave del wifi es {p}",
        "la mia password di {svc} è {p}",
        "minha senha do {svc} é {p}",
        "mijn wachtwoord voor {svc} is {p}",
        "moje hasło do {svc} to {p}",
        "mitt lösenord till {svc} är {p}",
    ]
    for t in prose:
        for _ in range(3):
            out.append(t.format(svc=r.choice(SERVICES), u=r.choice(USERS), p=password(r)))
    codes = [
        "the PIN for my debit card: {n}",
        "unlock code for my phone {n}",
        "alarm panel code {n}",
        "the storage locker opens with code {n}",
        "bike lock combination {n}",
        "my SIM PIN is {n} and PUK {n2}",
        "Meine PIN lautet {n}",
        "le code de la porte est {n}",
        "code PIN : {n}",
        "mi PIN es {n}",
        "il PIN del bancomat è {n}",
        "pincode van mijn pas: {n}",
    ]
    for t in codes:
        for _ in range(2):
            out.append(t.format(n=pin(r), n2=r.randrange(10**7, 10**8)))
    return out


# -- sensitive: cards, ids, bank accounts -------------------------------------------------------------
NETWORK_TEST_CARDS = [  # published test numbers (Stripe, Adyen, PayPal docs)
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "5200828282828210",
    "378282246310005", "371449635398431", "6011111111111117", "6011000990139424", "3056930009020004",
    "36227206271667", "3566002020360505", "6200000000000005", "4111111111111111", "5105105105105100",
]  # fmt: skip
CARD_SHAPES = [("4", 16), ("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15), ("6011", 16)]


def fmt_card(r: random.Random, digits: str) -> str:
    style = r.randrange(4)
    if len(digits) == 15:
        groups = [digits[:4], digits[4:10], digits[10:]]
    else:
        groups = [digits[i : i + 4] for i in range(0, len(digits), 4)]
    return [digits, " ".join(groups), "-".join(groups), " ".join(groups)][style]


def cards(r: random.Random) -> list[str]:
    frames = [
        "the company card is {c}",
        "{c} exp {m:02d}/{y} cvv {cvv}",
        "card ending... actually the whole thing: {c}",
        "use my Amex {c} for the hotel",
        "charge it to {c}",
        "number on the card: {c}",
        "Kartennummer {c}, gültig bis {m:02d}/{y}",
        "numéro de carte : {c}",
        "mi tarjeta es la {c}",
        "{c}",
        "paid with {c} last time",
        "backup card {c} (visa)",
    ]
    out = []
    for c in NETWORK_TEST_CARDS:
        out.append(
            r.choice(frames).format(c=fmt_card(r, c), m=r.randrange(1, 13), y=r.randrange(26, 32), cvv=pin(r)[:3])
        )
    for _ in range(60):
        prefix, length = r.choice(CARD_SHAPES)
        c = card(r, prefix, length)
        out.append(
            r.choice(frames).format(c=fmt_card(r, c), m=r.randrange(1, 13), y=r.randrange(26, 32), cvv=pin(r)[:3])
        )
    return out


def ssn(r: random.Random) -> str:
    while True:
        a, g, s = r.randrange(1, 900), r.randrange(1, 100), r.randrange(1, 10000)
        if a != 666:
            return f"{a:03d}-{g:02d}-{s:04d}"


ID_MAKERS: list[tuple[Callable[[random.Random], str], list[str]]] = [
    (ssn, ["SSN {v}", "social is {v}", "my social security no. {v}", "{v} is my SSN"]),
    (lambda r: f"9{r.randrange(10, 99)}-{r.choice([70, 78, 88, 94])}-{r.randrange(1000, 9999)}", ["ITIN {v}", "my ITIN: {v}"]),
    (lambda r: f"{r.randrange(10, 99)}-{r.randrange(1000000, 9999999)}", ["our EIN is {v}", "employer identification number {v}"]),
    (lambda r: f"{r.choice('ABCEGHJKLMNPRSTWXYZ')}{r.choice('ABCEGHJKLMNPRSTWXYZ')} {r.randrange(10, 99)} {r.randrange(10, 99)} {r.randrange(10, 99)} {r.choice('ABCD')}", ["NI no {v}", "national insurance: {v}", "{v}"]),
    (sin, ["SIN {v}", "my social insurance number is {v}", "numéro d'assurance sociale {v}"]),
    (dni, ["DNI {v}", "mi DNI es {v}", "{v}"]),
    (nie, ["NIE {v}", "mi NIE: {v}"]),
    (cpf, ["CPF {v}", "meu CPF é {v}", "{v}"]),
    (codice_fiscale, ["codice fiscale {v}", "il mio codice fiscale è {v}", "{v}"]),
    (nir, ["numéro de sécurité sociale {v}", "mon NIR est {v}"]),
    (bsn, ["BSN {v}", "mijn burgerservicenummer is {v}"]),
    (pesel, ["PESEL {v}", "mój PESEL to {v}"]),
    (personnummer, ["personnummer {v}", "mitt personnummer är {v}"]),
    (hetu, ["henkilötunnus {v}", "HETU {v}"]),
    (nhs, ["NHS number {v}", "my NHS no is {v}"]),
    (aadhaar, ["Aadhaar {v}", "my aadhaar number is {v}"]),
    (lambda r: f"{rand(r, string.ascii_uppercase, 3)}P{r.choice(string.ascii_uppercase)}{r.randrange(1000, 9999)}{r.choice(string.ascii_uppercase)}", ["PAN {v}", "my PAN card no. {v}"]),
    (china_id, ["身份证号 {v}", "resident id {v}", "{v}"]),
    (fnr, ["fødselsnummer {v}", "personnummer (NO) {v}"]),
    (belgian_nn, ["rijksregisternummer {v}", "numéro national {v}", "{v}"]),
    (tfn, ["TFN {v}", "tax file number {v}"]),
    (lambda r: f"{r.randrange(10**10, 10**11)}", ["Steuer-ID {v}", "meine Steueridentifikationsnummer ist {v}"]),
    (lambda r: f"{r.choice(string.ascii_uppercase)}{r.randrange(10**7, 10**8)}", ["passport {v}", "Reisepassnummer {v}", "numéro de passeport {v}", "passport no. {v}, expires 2031"]),
    (lambda r: f"{r.choice(string.ascii_uppercase)}{r.randrange(10**6, 10**7)}", ["driver license {v}", "my CA DL is {v}", "Führerscheinnummer {v}"]),
]  # fmt: skip


def government_ids(r: random.Random) -> list[str]:
    out = [
        "NHS number 943 476 5919",  # the NHS data dictionary's example
        "SIN 046 454 286",  # the Government of Canada's example
        "Sozialversicherungsnummer 65 170839 J 003",  # Deutsche Rentenversicherung's example
    ]
    for make, frames in ID_MAKERS:
        for _ in range(6):
            out.append(r.choice(frames).format(v=make(r)))
    return out


IBAN_EXAMPLES = [  # ISO 13616 registry examples
    "GB82 WEST 1234 5698 7654 32", "DE89 3704 0044 0532 0130 00", "FR14 2004 1010 0505 0001 3M02 606",
    "NL91 ABNA 0417 1643 00", "ES91 2100 0418 4502 0005 1332", "IT60 X054 2811 1010 0000 0123 456",
    "BE68 5390 0754 7034", "CH93 0076 2011 6238 5295 7", "AT61 1904 3002 3457 3201", "PL61 1090 1014 0000 0712 1981 2874",
    "SE45 5000 0000 0583 9825 7466", "IE29 AIBK 9311 5212 3456 78", "PT50 0002 0123 1234 5678 9015 4",
]  # fmt: skip
BBAN: dict[str, Callable[[random.Random], str]] = {
    "DE": lambda r: f"{r.randrange(10**17, 10**18)}",
    "FR": lambda r: f"{r.randrange(10**9, 10**10)}{rand(r, UPPER_DIGITS, 11)}{r.randrange(10, 99)}",
    "GB": lambda r: f"{rand(r, string.ascii_uppercase, 4)}{r.randrange(10**13, 10**14)}",
    "NL": lambda r: f"{rand(r, string.ascii_uppercase, 4)}{r.randrange(10**9, 10**10)}",
    "ES": lambda r: f"{r.randrange(10**19, 10**20)}",
    "IT": lambda r: f"{r.choice(string.ascii_uppercase)}{r.randrange(10**9, 10**10)}{rand(r, UPPER_DIGITS, 12)}",
    "BE": lambda r: f"{r.randrange(10**11, 10**12)}",
    "PL": lambda r: f"{r.randrange(10**23, 10**24)}",
}


def spaced(s: str) -> str:
    return " ".join(s[i : i + 4] for i in range(0, len(s), 4))


def bank_accounts(r: random.Random) -> list[str]:
    frames = [
        "IBAN: {v}",
        "send the deposit to {v}",
        "my salary goes into {v}",
        "Kontoverbindung {v}",
        "mon IBAN est {v}",
        "el IBAN de la cuenta es {v}",
        "rekeningnummer {v}",
        "{v}",
    ]
    out = [r.choice(frames).format(v=v) for v in IBAN_EXAMPLES]
    for _ in range(36):
        country = r.choice(list(BBAN))
        v = iban(country, BBAN[country](r))
        v = r.choice([v, spaced(v), v.lower() if r.random() < 0.2 else v])
        out.append(r.choice(frames).format(v=v))
    for _ in range(14):
        acct = r.randrange(10**7, 10**10)
        out.append(
            r.choice(
                [
                    "routing 021000021, account {a}",
                    "ABA {rt} acct {a}",
                    "sort code {sc}, account number {a8}",
                    "BSB {bsb} acc {a8}",
                    "wire to acct# {a} at Chase",
                    "checking account {a} at the credit union",
                    "Kontonummer {a}, BLZ 37040044",
                ]
            ).format(
                a=acct,
                a8=f"{r.randrange(10**7, 10**8)}",
                rt=r.choice(["011000015", "026009593", "121000358", "322271627"]),
                sc=f"{r.randrange(10, 99)}-{r.randrange(10, 99)}-{r.randrange(10, 99)}",
                bsb=f"{r.randrange(100, 999)}-{r.randrange(100, 999)}",
            )
        )
    return out


# -- not sensitive: near-misses of the same shapes --------------------------------------------------------
def near_misses(r: random.Random) -> list[str]:
    out = [
        # publishable / public by design
        "Stripe publishable key for the checkout page: pk_live_" + rand(r, B62, 24),
        "pk_test_TYooMQauvdEDq54NiTphI7jx is the test publishable key from the docs",
        "my public ssh key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(r, B64, 43) + " me@laptop",
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + rand(r, B64, 60) + " deploy@ci",
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----",
        "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"
        + rand(r, B64, 40)
        + "\n-----END PUBLIC KEY-----",
        "the AWS account id is 123456789012",
        "arn:aws:iam::123456789012:role/engram-reader",
        "bucket s3://acme-logs-eu-west-1/2024/05/",
        "region eu-central-1, instance i-0abcd1234efgh5678",
        "postgres://localhost:5432/app (no password locally)",
        "the db url is postgresql://app@db.internal/app and the password comes from Secrets Manager",
        "https://github.com/acme/engram/pull/482",
        "docker pull ghcr.io/acme/api@sha256:" + rand(r, HEX, 64),
        "my BTC address for tips: bc1q" + rand(r, "023456789acdefghjklmnpqrstuvwxyz", 38),
        "ETH address 0x" + rand(r, HEX, 40),
        "the Twilio account SID is public-ish: AC" + rand(r, HEX, 32),
        "i always forget my passwords, I should use a manager",
        "the password reset link expired again",
        "IT says passwords must be 14 characters now",
        "Passwort vergessen, muss es zurücksetzen",
        "j'ai oublié mon mot de passe",
        "olvidé mi contraseña otra vez",
        "the wifi password is on the fridge",
        "PIN pad at the pharmacy was broken",
        "I keep my PIN in my head, not on paper",
        "the secret ingredient is cardamom",
        "token ring networks were before my time",
        "my key to success is sleep",
        "the IBAN field on the form was confusing",
        "need to renew my passport before March",
        "ask for the SSN form at HR, not the number",
        "routing around the traffic took 40 min",
        "card games night on Friday at 8",
    ]
    frames_phone = [
        "call me at {p}",
        "dentist: {p}",
        "my mobile is {p}",
        "Handynummer {p}",
        "mon numéro est le {p}",
        "office line {p} ext. 204",
    ]
    phones = [
        lambda: f"+1 415 555 {r.randrange(1000, 9999)}",
        lambda: f"(212) 555-{r.randrange(1000, 9999)}",
        lambda: f"+44 20 7946 {r.randrange(1000, 9999)}",
        lambda: f"+49 30 {r.randrange(1000000, 99999999)}",
        lambda: f"06 {r.randrange(10, 99)} {r.randrange(10, 99)} {r.randrange(10, 99)} {r.randrange(10, 99)}",
        lambda: f"+33 6 {r.randrange(10, 99)} {r.randrange(10, 99)} {r.randrange(10, 99)} {r.randrange(10, 99)}",
        lambda: f"+34 6{r.randrange(10, 99)} {r.randrange(100, 999)} {r.randrange(100, 999)}",
        lambda: f"+91 98{r.randrange(100, 999)} {r.randrange(10000, 99999)}",
        lambda: f"+61 4{r.randrange(10, 99)} {r.randrange(100, 999)} {r.randrange(100, 999)}",
        lambda: f"+55 11 9{r.randrange(1000, 9999)}-{r.randrange(1000, 9999)}",
        lambda: f"0{r.randrange(7000000000, 7999999999)}",
    ]
    for _ in range(40):
        out.append(r.choice(frames_phone).format(p=r.choice(phones)()))
    for _ in range(20):
        who = r.choice(["work", "personal", "school", "billing", "the landlord's"])
        out.append(
            f"{who} email: {r.choice(USERS).replace('_', '.')}@{r.choice(['gmail.com', 'acme.io', 'uni-heidelberg.de', 'free.fr', 'outlook.com'])}"
        )
    numbers = [
        lambda: f"IMEI {card(r, '35', 15)}",
        lambda: f"tracking 1Z{rand(r, UPPER_DIGITS, 16)}",
        lambda: f"FedEx tracking {r.randrange(10**11, 10**12)}",
        lambda: f"order #{r.randrange(10**6, 10**9)} shipped",
        lambda: f"ISBN 978-{r.randrange(0, 9)}-{r.randrange(100, 999)}-{r.randrange(10000, 99999)}-{r.randrange(10)}",
        lambda: f"commit {rand(r, HEX, 40)} fixed the flaky test",
        lambda: (
            f"request id {rand(r, HEX, 8)}-{rand(r, HEX, 4)}-4{rand(r, HEX, 3)}-a{rand(r, HEX, 3)}-{rand(r, HEX, 12)}"
        ),
        lambda: f"flight LH{r.randrange(100, 2999)} on the {r.randrange(1, 28)}th, seat {r.randrange(1, 40)}C",
        lambda: f"booking ref {rand(r, string.ascii_uppercase + '23456789', 6)}",
        lambda: f"the invoice total was {r.randrange(100, 99999)}.{r.randrange(10, 99)} EUR",
        lambda: f"meter reading {r.randrange(10**5, 10**7)} kWh",
        lambda: f"customer number {r.randrange(10**6, 10**8)} at the gym",
        lambda: f"Zoom meeting ID {r.randrange(100, 999)} {r.randrange(1000, 9999)} {r.randrange(1000, 9999)}",
        lambda: (
            f"licence plate {rand(r, string.ascii_uppercase, 2)}{r.randrange(10, 99)} {rand(r, string.ascii_uppercase, 3)}"
        ),
        lambda: f"serial {rand(r, UPPER_DIGITS, 12)} on the router",
        lambda: f"wifi network name is {r.choice(WORDS).capitalize()}-{r.randrange(100, 999)}",
        lambda: f"the gate is at {r.randrange(1, 60)}B, boarding {r.randrange(6, 22)}:{r.randrange(10, 59)}",
        lambda: (
            f"postcode {rand(r, string.ascii_uppercase, 2)}{r.randrange(1, 20)} {r.randrange(1, 9)}{rand(r, string.ascii_uppercase, 2)}"
        ),
        lambda: f"build {r.randrange(1, 9)}.{r.randrange(0, 30)}.{r.randrange(0, 200)}+{rand(r, HEX, 7)}",
        lambda: f"MAC address {':'.join(rand(r, HEX, 2) for _ in range(6))}",
        lambda: f"vin {rand(r, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789', 17)}",
        lambda: f"the bus number is {r.randrange(1, 400)}, stop {r.randrange(1000, 99999)}",
        lambda: f"youtube.com/watch?v={rand(r, URLSAFE, 11)}",
        lambda: f"the shared doc: https://docs.google.com/document/d/{rand(r, URLSAFE, 44)}/edit",
    ]
    for make in numbers:
        for _ in range(5):
            out.append(make())
    return out


# -- benign: ordinary memory text ---------------------------------------------------------------------------
def everyday_notes(r: random.Random, n: int = 600) -> list[str]:
    """Everyday notes with numbers, codes and links, as agents are asked to remember them."""
    people = ["Aunt Rosa", "Kenji", "my manager Priyanka", "the plumber", "Coach Dave", "Mrs. Alvarez", "Ibrahim"]
    places = ["Lisbon", "the cabin", "Osaka", "my sister's place", "Denver", "the office in Leeds", "Brno"]
    templates: list[Callable[[], str]] = [
        lambda: f"{r.choice(people)}'s birthday is on {r.randrange(1, 29)} {r.choice(['March', 'June', 'October'])}",
        lambda: f"I take {r.randrange(5, 50) * 5} mg of ibuprofen when my back hurts",
        lambda: f"the rent is {r.randrange(800, 3200)} a month, due on the {r.randrange(1, 28)}th",
        lambda: f"my shoe size is {r.randrange(36, 47)} EU",
        lambda: (
            f"we're flying {r.choice(['BA', 'UA', 'KL', 'AF'])}{r.randrange(100, 2999)} to {r.choice(places)} at {r.randrange(6, 22)}:{r.randrange(10, 59)}"
        ),
        lambda: f"I run {r.randrange(3, 21)} km on {r.choice(['Mondays', 'weekends', 'Thursdays'])}",
        lambda: (
            f"the project deadline moved to {r.randrange(2025, 2028)}-{r.randrange(1, 13):02d}-{r.randrange(1, 29):02d}"
        ),
        lambda: f"I'm on Python 3.{r.randrange(9, 14)}.{r.randrange(0, 12)} and Node {r.randrange(18, 23)}",
        lambda: f"call {r.choice(people)} at +1 617 555 {r.randrange(1000, 9999)} after 6",
        lambda: f"my work email is {r.choice(USERS).replace('_', '.')}@{r.choice(['acme.io', 'globex.com'])}",
        lambda: f"the repo is github.com/{r.choice(USERS).replace('.', '-')}/{r.choice(WORDS)}-{r.choice(WORDS)}",
        lambda: f"deployed {rand(r, HEX, 7)} to staging, rollback to {rand(r, HEX, 7)} if it breaks",
        lambda: f"kid's school starts at 8:{r.randrange(10, 59)}, pickup at 3:{r.randrange(10, 59)}",
        lambda: f"I weigh about {r.randrange(55, 110)} kg and I'm {r.randrange(155, 200)} cm tall",
        lambda: (
            f"the apartment is {r.randrange(40, 140)} m² on the {r.randrange(1, 12)}th floor, door {r.randrange(1, 40)}"
        ),
        lambda: (
            f"our address is {r.randrange(1, 300)} {r.choice(['Elm St', 'Rue de la Paix', 'Hauptstraße', 'Calle Mayor'])}, {r.randrange(10000, 99999)}"
        ),
        lambda: f"I prefer window seats and {r.choice(['vegetarian', 'kosher', 'low-salt'])} meals on long flights",
        lambda: f"budget for the trip is {r.randrange(1, 9)},{r.randrange(100, 999)} dollars",
        lambda: f"the meeting is in room {r.randrange(100, 999)}, building {r.choice('ABCDE')}",
        lambda: f"I scored {r.randrange(60, 100)}% on the AWS exam on attempt {r.randrange(1, 4)}",
        lambda: (
            f"my car is a {r.randrange(2008, 2025)} {r.choice(['Corolla', 'Golf', 'Model 3', 'Civic'])} with {r.randrange(10, 250)},000 km"
        ),
        lambda: f"ticket PROJ-{r.randrange(100, 9999)} is about the login page timeout",
        lambda: f"the password manager we use at work is {r.choice(['1Password', 'Bitwarden', 'KeePassXC'])}",
        lambda: f"I changed the wifi password last {r.choice(['week', 'month', 'Tuesday'])}, ask me if you need it",
        lambda: f"my bank is {r.choice(['Monzo', 'ING', 'Chase', 'N26'])} and I bank online only",
        lambda: f"I'm allergic to {r.choice(['penicillin', 'peanuts', 'cats', 'latex'])}",
        lambda: f"the standup is at 9:{r.randrange(10, 59)} {r.choice(['CET', 'PT', 'GMT'])} every weekday",
        lambda: f"use port {r.randrange(1024, 65535)} for the local dev server",
        lambda: (
            f"the recipe needs {r.randrange(100, 900)} g flour, {r.randrange(1, 6)} eggs and {r.randrange(50, 300)} ml milk"
        ),
        lambda: f"my grandmother was born in {r.randrange(1925, 1950)} in {r.choice(places)}",
        lambda: (
            f"UUID of the test tenant: {rand(r, HEX, 8)}-{rand(r, HEX, 4)}-4{rand(r, HEX, 3)}-8{rand(r, HEX, 3)}-{rand(r, HEX, 12)}"
        ),
        lambda: f"my favourite podcast episode is #{r.randrange(1, 900)}",
        lambda: (
            f"the tax return is due {r.choice(['31 January', 'April 15', '31 July'])}; I owe about {r.randrange(100, 5000)}"
        ),
        lambda: f"I was promoted to level {r.randrange(3, 8)} in {r.randrange(2015, 2026)}",
        lambda: f"passport photo appointment on the {r.randrange(1, 28)}th at {r.randrange(9, 17)}:00",
        lambda: f"my card was declined at the {r.choice(['airport', 'pharmacy', 'bakery'])} so I paid cash",
        lambda: f"the bank account for bills is the joint one at {r.choice(['Monzo', 'ING', 'Chase', 'N26'])}",
        lambda: "I hate when apps ask for my SSN just to sign up",
        lambda: f"our team's Slack channel is #{r.choice(WORDS)}-{r.choice(['alerts', 'dev', 'random'])}",
        lambda: (
            f"the coordinates of the cabin are {r.randrange(30, 60)}.{r.randrange(10**5, 10**6)}, -{r.randrange(70, 120)}.{r.randrange(10**5, 10**6)}"
        ),
    ]
    return [r.choice(templates)() for _ in range(n)]


def benign_corpus() -> dict[str, list[tuple[str, str]]]:
    """Ordinary memory text, by source, as (key, text); no line is sensitive."""
    from bench import conv_data, eval_data

    turns = sorted({t.text for c in conv_data.generate() for t in c.turns})
    facts = sorted({(f.key, f.value) for user in eval_data.generate() for f in user.facts})
    return {
        "conversation_turns": [("", t) for t in turns],
        "recall_facts": facts,
        "everyday_notes": [("", t) for t in everyday_notes(random.Random(SEED + 1))],
    }


def build() -> list[tuple[str, str]]:
    r = random.Random(SEED)
    rows: list[tuple[str, str]] = []
    # (AWS's documented example keys say EXAMPLE in their value and grant nothing: the policy
    # since session 18p is that they pass, so those two samples are negatives)
    rows += [("N" if "EXAMPLE" in t else "S", t) for t in secrets(r)]
    rows += [("C", t) for t in cards(r)]
    rows += [("G", t) for t in government_ids(r)]
    rows += [("B", t) for t in bank_accounts(r)]
    rows += [("N", t) for t in near_misses(r)]
    # Values stored under keys, in the same shapes.
    keyed = [
        ("S", "aws_secret_access_key", rand(r, B64, 40)),
        ("S", "db_url", f"postgres://{r.choice(USERS)}:{password(r)}@db.internal/app"),
        ("S", "kennwort", password(r)),
        ("S", "mot_de_passe", password(r)),
        ("S", "contrasena_wifi", password(r)),
        ("S", "sim_pin", pin(r)),
        ("G", "hetu", hetu(r)),
        ("G", "pesel", pesel(r)),
        ("G", "steuer_id", str(r.randrange(10**10, 10**11))),
        ("B", "kontonummer", str(r.randrange(10**7, 10**10))),
        ("B", "iban", iban("DE", BBAN["DE"](r))),
        ("C", "visa", card(r, "4", 16)),
        ("N", "phone", f"+44 20 7946 {r.randrange(1000, 9999)}"),
        ("N", "email", "lena.b@acme.io"),
        ("N", "git_sha", rand(r, HEX, 40)),
        ("N", "password_hint", "our first dog's name"),
        ("N", "bank_name", "ING"),
    ]
    rows += [(label, f"[{k}] {v}") for label, k, v in keyed]
    return rows


def write() -> Path:
    header = [
        "# Generated by bench/sensitive_holdout.py (seed 1818): the HELD-OUT test part. Do not edit by hand;",
        "# never tune the filter on it. Other templates, vocabulary, languages and formats than the",
        "# hand-written development part, with provider-documented example keys and test numbers.",
        "# One sample a record: LABEL | text, or LABEL | [key] text. Newlines inside a sample are written \\n.",
    ]
    return write_samples(HOLDOUT, header, build())


def write_samples(path: Path, header: list[str], samples: list[tuple[str, str]]) -> Path:
    """The sample file format every held-out part shares: LABEL | text, newlines as \\n."""
    lines = [f"{label} | {text.replace(chr(10), chr(92) + 'n')}" for label, text in samples]
    path.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write())

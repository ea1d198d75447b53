"""The second held-out part of the sensitive-data filter: secrets inside real-sized text.

Written after the first held-out part (``bench/sensitive_holdout.py``) had been run and
the filter fixed against it, so that a clean held-out figure exists for the filter as it
is now. Committed before the filter was run on it. What differs from both earlier parts:

- the secret sits inside longer text: chat messages of two to four sentences, e-mails
  with signatures, pasted configuration (YAML, JSON, INI, .env, docker-compose,
  .npmrc, git remotes, curl commands), forms ("Name: ... DOB: ... SSN: ...");
- new phrasings, typos people make ("pasword", "passwrd"), other languages (Czech,
  Hungarian, Russian, Finnish, Turkish, Greek) and other countries' ids and accounts
  (Mexico's CURP and CLABE, Romania's CNP, Portugal's NIF, South Africa's id number,
  Israel's Teudat Zehut, India's IFSC accounts);
- negatives of the same sizes: order confirmations with only the last four digits,
  masked values ("**** 4242", "password: ********"), configuration that points at a
  secret without holding it, logs and stack traces, signatures full of phone numbers.

Fixed seed; regenerate with ``python -m bench.sensitive_holdout_b``.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from pathlib import Path

from bench.sensitive_holdout import (
    B62,
    HEX,
    URLSAFE,
    aadhaar,
    card,
    cpf,
    dni,
    fmt_card,
    iban,
    luhn_digit,
    rand,
    spaced,
    write_samples,
)

HERE = Path(__file__).parent
HOLDOUT_B = HERE / "sensitive_samples_holdout_b.txt"
SEED = 2929

PEOPLE = ["Ana", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Gustav", "Hiro", "Ines", "Jonas"]
PLACES = ["Porto", "Kraków", "Valencia", "Ghent", "Tartu", "Izmir", "Cluj", "Aarhus"]
APPS = ["Costco", "the pharmacy app", "Lidl Plus", "Vinted", "Wise", "Revolut", "Bolt", "Glovo", "Deliveroo", "Discord"]
WORDS = ["lantern", "paprika", "orchid", "basalt", "mistral", "quince", "tundra", "sorbet", "gondola", "ferret"]

CHAT_BEFORE = [
    "Thanks for helping with the move yesterday!",
    "Ok so quick update on the trip.",
    "Ugh, Monday again.",
    "Can you remember something for me?",
    "Writing this down before I forget.",
    "My sister finally visited, it was lovely.",
    "So the plumber came and fixed the sink.",
    "Heads up for later.",
]
CHAT_AFTER = [
    "Anyway, what should I cook tonight?",
    "Talk later!",
    "Also remind me to call mum on Sunday.",
    "I'll be offline most of the afternoon.",
    "Don't share it with anyone obviously.",
    "Thanks a lot 🙏",
    "",
]


def pw(r: random.Random) -> str:
    w = r.choice(WORDS)
    return r.choice(
        [
            f"{w.capitalize()}{r.randrange(10, 999)}!",
            f"{w}{r.choice(WORDS)}{r.randrange(1, 99)}",
            f"{w.upper()}_{r.randrange(1000, 9999)}",
            rand(r, B62, r.randrange(9, 15)),
            f"{w}.{r.choice(WORDS)}.{r.randrange(10, 99)}",
            f"{r.choice(WORDS)}{r.choice('@#$%&')}{w}",
        ]
    )


def chat(r: random.Random, sentence: str) -> str:
    parts = [r.choice(CHAT_BEFORE), sentence, r.choice(CHAT_AFTER)]
    return " ".join(p for p in parts if p)


# -- secrets --------------------------------------------------------------------------------------
def secrets(r: random.Random) -> list[str]:
    out: list[str] = []
    sentences = [
        "the {app} login is {email} and the pasword is {p}",
        "passwrd for {app}: {p}",
        "my {app} pw's {p}",
        "for {app} I went with {p} as the password",
        "oh and the password? {p}",
        "{app} → {email} / {p}",
        "I wrote the password on a post-it but it's {p}",
        "the code to get into the building is {n}",
        "the lock box by the door opens with {n}",
        "my phone's unlock PIN is {n}",
        "atm pin {n}",
        "heslo k wifi je {p}",
        "a jelszó: {p}",
        "пароль от почты: {p}",
        "salasana on {p}",
        "şifre: {p}",
        "ο κωδικός μου είναι {p}",
        "mi clave de acceso es {p}",
        "Passwort lautet jetzt {p}",
        "nouveau mot de passe : {p}",
    ]
    for t in sentences:
        for _ in range(4):
            s = t.format(
                app=r.choice(APPS),
                email=f"{r.choice(PEOPLE).lower()}.{r.choice(WORDS)}@gmail.com",
                p=pw(r),
                n=r.randrange(1000, 999999),
            )
            out.append(chat(r, s[0].upper() + s[1:] + "."))
    # pasted configuration
    for _ in range(3):
        p, tok = pw(r), rand(r, B62, 40)
        out += [
            f"here's the config:\ndatabase:\n  host: db.{r.choice(WORDS)}.internal\n  user: app\n  password: {p}\n",
            f'{{"service": "billing", "apiKey": "{rand(r, B62, 32)}", "region": "eu-west-1"}}',
            f"[smtp]\nserver = mail.{r.choice(WORDS)}.com\nusername = alerts\npassword = {p}",
            f"services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_PASSWORD={p}",
            f"//registry.npmjs.org/:_authToken=npm_{rand(r, B62, 36)}",
            f"git remote set-url origin https://{r.choice(PEOPLE).lower()}:ghp_{rand(r, B62, 36)}@github.com/acme/app.git",
            f'curl -H "X-API-Key: {tok}" https://api.{r.choice(WORDS)}.io/v2/items',
            f'curl -H "Authorization: Bearer {rand(r, URLSAFE, 48)}" https://api.example.com/me',
            f"kind: Secret\ndata:\n  password: {rand(r, B62, 16)}==",
            f"OPENAI_API_KEY=sk-proj-{rand(r, URLSAFE, 64)}\nMODEL=gpt-4o",
            f"the .env for staging has STRIPE_SECRET_KEY=sk_live_{rand(r, B62, 24)} in it",
            f"aws configure said: aws_access_key_id = AKIA{rand(r, string.ascii_uppercase + '234567', 16)}",
            f"mysql -u root -p{p} -h 127.0.0.1 shop",
            f"psql 'postgresql://report:{p}@analytics.{r.choice(WORDS)}.lan:5432/warehouse'",
        ]
    return out


# -- cards, ids, accounts ----------------------------------------------------------------------------
def cards(r: random.Random) -> list[str]:
    out = []
    shapes = [("4", 16), ("5", 16), ("37", 15), ("6011", 16), ("62", 19), ("4", 13)]
    frames = [
        "Order #{o} confirmed. Paid with card {c}, expiry {m:02d}/{y}. Ships Tuesday.",
        "Hi {p}, as discussed my card details are {c} exp {m:02d}{y} and the CVC is {cvv}. Thanks!",
        '{{"card_number": "{c}", "exp_month": {m}, "exp_year": 20{y}}}',
        "Name on card: {p} {p2}\nNumber: {c}\nValid thru: {m:02d}/{y}",
        "can you book the hotel with {c}? it's my work card",
        "mastercard {c} — use this one for groceries",
        "Karte: {c} (Ablauf {m:02d}/{y})",
        "tarjeta {c} vence {m:02d}/{y}",
    ]
    for _ in range(60):
        prefix, length = r.choice(shapes)
        c = card(r, prefix + ("" if prefix != "5" else str(r.randrange(1, 6))), length)
        out.append(
            r.choice(frames).format(
                o=r.randrange(10**6, 10**8),
                c=fmt_card(r, c),
                m=r.randrange(1, 13),
                y=r.randrange(26, 33),
                cvv=r.randrange(100, 999),
                p=r.choice(PEOPLE),
                p2=r.choice(PEOPLE),
            )
        )
    return out


def cnp(r: random.Random) -> str:
    body = f"{r.choice('12')}{r.randrange(50, 99)}{r.randrange(1, 13):02d}{r.randrange(1, 29):02d}{r.randrange(1, 47):02d}{r.randrange(1, 999):03d}"
    k = sum(int(a) * int(b) for a, b in zip(body, "279146358279", strict=True)) % 11
    return body + ("1" if k == 10 else str(k))


def nif_pt(r: random.Random) -> str:
    while True:
        body = str(r.choice([1, 2, 5])) + "".join(str(r.randrange(10)) for _ in range(7))
        k = 11 - sum(int(c) * (9 - i) for i, c in enumerate(body)) % 11
        if k < 10:
            return body + str(k)
        if k in (10, 11):
            return body + "0"


def za_id(r: random.Random) -> str:
    body = f"{r.randrange(50, 99)}{r.randrange(1, 13):02d}{r.randrange(1, 29):02d}{r.randrange(0, 9999):04d}08"
    return body + luhn_digit(body)


def teudat_zehut(r: random.Random) -> str:
    body = "".join(str(r.randrange(10)) for _ in range(8))
    total = 0
    for i, c in enumerate(body):
        d = int(c) * (1 if i % 2 == 0 else 2)
        total += d - 9 if d > 9 else d
    return body + str((10 - total % 10) % 10)


def curp(r: random.Random) -> str:
    u = string.ascii_uppercase
    return (
        f"{r.choice(u)}{r.choice('AEIOU')}{r.choice(u)}{r.choice(u)}{r.randrange(50, 99)}{r.randrange(1, 13):02d}"
        f"{r.randrange(1, 29):02d}{r.choice('HM')}{r.choice(['DF', 'JC', 'NL', 'YN'])}{rand(r, 'BCDFGHJKLMNPQRSTVWXYZ', 3)}"
        f"{r.choice(u + string.digits)}{r.randrange(10)}"
    )


def ssn(r: random.Random) -> str:
    return f"{r.randrange(100, 665)}-{r.randrange(10, 99)}-{r.randrange(1000, 9999)}"


def government_ids(r: random.Random) -> list[str]:
    makers: list[tuple[Callable[[random.Random], str], list[str]]] = [
        (ssn, ["Name: {p}\nDOB: 19{yy}-0{m}-1{d}\nSSN: {v}\nPhone: +1 503 555 01{d}{d}", "for the lease form they need my social: {v}"]),
        (lambda r: f"{r.randrange(10**8, 10**9)}", ["US passport {v}, issued 2019", "passport no {v} (expires 2030)"]),
        (curp, ["CURP: {v}", "mi CURP es {v}"]),
        (cnp, ["CNP {v}", "codul numeric personal: {v}"]),
        (nif_pt, ["NIF {v}", "o meu NIF é {v}"]),
        (za_id, ["SA ID number {v}", "my ID no. is {v} (South Africa)"]),
        (teudat_zehut, ["teudat zehut {v}", "Israeli ID number {v}"]),
        (cpf, ["segue meu CPF {v} pra nota fiscal", "CPF: {v}"]),
        (dni, ["te paso mi DNI: {v}", "DNI {v} para la reserva"]),
        (aadhaar, ["Aadhaar no. {v} linked to the bank", "UIDAI number {v}"]),
        (lambda r: f"{r.choice('ABCDEFGHJKLMNPRSTWXYZ')}{r.choice('ABCEGHJKLMNPRSTWXYZ')}{r.randrange(100000, 999999)}{r.choice('ABCD')}", ["NI: {v}", "my national insurance number is {v}"]),
        (lambda r: f"{r.randrange(10**10, 10**11)}", ["Steuer-IdNr. {v}", "Steuerliche Identifikationsnummer: {v}"]),
    ]  # fmt: skip
    out = []
    for make, frames in makers:
        for _ in range(7):
            out.append(
                r.choice(frames).format(
                    v=make(r), p=r.choice(PEOPLE), yy=r.randrange(60, 99), m=r.randrange(1, 9), d=r.randrange(1, 9)
                )
            )
    return out


def clabe(r: random.Random) -> str:
    body = "".join(str(r.randrange(10)) for _ in range(17))
    total = sum(int(c) * w % 10 for c, w in zip(body, [3, 7, 1] * 6, strict=False))
    return body + str((10 - total % 10) % 10)


def bank_accounts(r: random.Random) -> list[str]:
    out = []
    countries = {
        "DE": lambda: f"{r.randrange(10**17, 10**18)}",
        "FR": lambda: (
            f"{r.randrange(10**9, 10**10)}{rand(r, string.ascii_uppercase + string.digits, 11)}{r.randrange(10, 99)}"
        ),
        "ES": lambda: f"{r.randrange(10**19, 10**20)}",
        "PT": lambda: f"{r.randrange(10**20, 10**21)}",
        "BE": lambda: f"{r.randrange(10**11, 10**12)}",
        "RO": lambda: f"{rand(r, string.ascii_uppercase, 4)}{rand(r, string.ascii_uppercase + string.digits, 16)}",
        "CZ": lambda: f"{r.randrange(10**19, 10**20)}",
        "HU": lambda: f"{r.randrange(10**23, 10**24)}",
    }
    frames = [
        "Invoice 2024-{n}: please pay to IBAN {v}, BIC {bic}, reference {n}.",
        "Dear {p}, my new account for the refund is {v}. Best, {p2}",
        "Bankverbindung: {v} (BIC {bic})",
        "pode transferir para o IBAN {v}",
        "Hi! Rent goes to {v} from now on",
    ]
    for _ in range(35):
        c = r.choice(list(countries))
        v = iban(c, countries[c]())
        v = spaced(v) if r.random() < 0.5 else v
        out.append(
            r.choice(frames).format(
                v=v,
                n=r.randrange(1000, 9999),
                bic=rand(r, string.ascii_uppercase, 6) + "XX",
                p=r.choice(PEOPLE),
                p2=r.choice(PEOPLE),
            )
        )
    for _ in range(6):
        out.append(f"A/c no. {r.randrange(10**11, 10**12)}, IFSC SBIN000{r.randrange(1000, 9999)}")
        out.append(f"mi CLABE interbancaria es {clabe(r)}")
        out.append(f"Acct: {r.randrange(10**8, 10**10)}\nRouting: 0{r.randrange(10**7, 10**8)}")
    return out


# -- negatives ----------------------------------------------------------------------------------------
def near_misses(r: random.Random) -> list[str]:
    out = []
    frames = [
        "Order #{o} confirmed. Paid with Visa ending in {l4}. Ships Tuesday.",
        "card **** **** **** {l4} was charged {amt} EUR",
        "password: ******** (ask me, don't store it)",
        "IBAN DE** **** **** **** **{l4} (masked on the statement)",
        "database:\n  host: db.internal\n  user: app\n  password: ${{DB_PASSWORD}}\n",
        "env:\n  - name: API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: api\n        key: token",
        "export AWS_PROFILE=work && aws s3 ls",
        "2024-05-03T10:22:{s}Z INFO request_id={hx} user_id=u_{o} latency_ms={amt}",
        "Traceback (most recent call last):\n  File \"/srv/app/main.py\", line {s}, in handler\nKeyError: 'password'",
        "Best regards,\n{p} {p2}\nMobile: +49 170 {o}\nOffice: +49 30 {o}\n{p}.{p2}@{w}.de",
        "my PIN? not telling you 😄",
        "changed all my passwords after the breach, using a manager now",
        "the wifi is called {W}-{o} and the router is in the hall",
        "Transfer to savings {amt}.00, balance {o}.12",
        "the last 4 of my card are {l4}",
        "commit {hx}{hx} (HEAD -> main) fix password reset email",
        "Your verification code is valid for 10 minutes.",
        "Gift card balance: {amt} EUR, expires 12/2026",
        "the API returns 401 when the token expired",
        "we need an API key for the maps widget, ask {p}",
        "{p}'s birthday is 19{s}-0{m}-1{m}, she turns {s} this year",
        "IKEA order {o}{o2} delivered to {w} street {s}",
        "my passport expires in 2031, renew before the Japan trip",
        "SSN and passport copies are in the blue folder",
        "flight {W}{s}{m} PNR {PNR}, seat {s}A",
        "ping me on +351 912 {s}{m} {s}{m}{m}",
        "podcast ep {amt}: {p} on password managers",
        "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/pg postgres:16",
    ]
    for t in frames:
        for _ in range(7):
            out.append(
                t.format(
                    o=r.randrange(10**5, 10**7),
                    o2=r.randrange(10, 99),
                    l4=r.randrange(1000, 9999),
                    amt=r.randrange(5, 999),
                    s=r.randrange(10, 59),
                    m=r.randrange(1, 9),
                    hx=rand(r, HEX, 16),
                    p=r.choice(PEOPLE),
                    p2=r.choice(PEOPLE),
                    w=r.choice(WORDS),
                    W=r.choice(WORDS).upper()[:2],
                    PNR=rand(r, string.ascii_uppercase + "23456789", 6),
                )
            )
    return [chat(r, t) if r.random() < 0.3 and "\n" not in t else t for t in out]


def build() -> list[tuple[str, str]]:
    r = random.Random(SEED)
    rows = [("S", t) for t in secrets(r)]
    rows += [("C", t) for t in cards(r)]
    rows += [("G", t) for t in government_ids(r)]
    rows += [("B", t) for t in bank_accounts(r)]
    rows += [("N", t) for t in near_misses(r)]
    return list(dict.fromkeys(rows))  # a template without slots gives one sample, not seven


def write() -> Path:
    header = [
        "# Generated by bench/sensitive_holdout_b.py (seed 2929): the second HELD-OUT part. Do not edit",
        "# by hand; never tune the filter on it. Secrets inside real-sized text: chat, e-mail, pasted",
        "# configuration, forms; new phrasings, typos, languages and countries. Newlines are written \\n.",
    ]
    return write_samples(HOLDOUT_B, header, build())


if __name__ == "__main__":
    print(write())

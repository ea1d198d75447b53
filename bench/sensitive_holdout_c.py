"""The third held-out part of the sensitive-data filter: a clean figure after A and B.

Written after held-out B had been run and fixed against, and committed before the filter
was run on it. Built another way again: clauses are assembled from independent slots
(opener, who owns it, what it is for, how it is joined, how it is written, what follows),
so phrasings arise that no one wrote down as a whole. It also holds shapes neither A nor
B has: Wi-Fi QR strings, otpauth URIs and 2FA seeds, mobile shorthand ("pw 4 netflix"),
lists of several PINs, ids of further countries with their check digits (Korea, Turkey,
Czechia), IBANs written with dashes, and negatives of the same look (documentation
placeholders such as ``YOUR_API_KEY``, masked keys, partial card numbers, phone numbers
in the SSN's shape, a PIN that is only required).

Fixed seed; regenerate with ``python -m bench.sensitive_holdout_c``.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

from bench.sensitive_holdout import B62, card, fmt_card, iban, rand, write_samples

HERE = Path(__file__).parent
HOLDOUT_C = HERE / "sensitive_samples_holdout_c.txt"
SEED = 3737

THINGS = ["netflix", "the bank app", "my laptop", "the router", "grandpa's tablet", "the shared drive", "Spotify"]
THINGS += ["the school portal", "my work VPN", "the printer admin page", "PayPal", "the alarm panel", "Amazon"]
OPENERS = ["", "fyi ", "btw ", "note to self: ", "ok so ", "remember: ", "for the record, ", "just so you know, "]
OWNERS = ["my", "our", "the", "mum's", "the family", "my old"]
TAILS = ["", ".", "!", " thx", " 😅", " (don't lose it)", " – keep it safe", ". changed it last week", "!!"]
WORDS = ["cactus", "meteor", "pebble", "kiwi", "violet", "harpoon", "nugget", "zephyr", "marble", "puffin"]


def password(r: random.Random) -> str:
    w, v = r.choice(WORDS), r.choice(WORDS)
    return r.choice(
        [
            f"{w}{r.randrange(100, 9999)}",
            f"{w.capitalize()}{v.capitalize()}{r.choice('!?#$')}",
            f"{w[0].upper()}{rand(r, B62, r.randrange(7, 12))}",
            f"{w}_{v}_{r.randrange(10, 99)}",
            f"{r.randrange(10, 99)}{w}{r.randrange(10, 99)}",
        ]
    )


def pin(r: random.Random) -> str:
    return str(r.randrange(1000, 999999)).zfill(4)


def secrets(r: random.Random) -> list[str]:
    joins = [
        " password is ",
        " password: ",
        " pw = ",
        " pwd -> ",
        " password got changed to ",
        " password will be ",
        " password is still ",
        " passcode is ",
        " login password = ",
        " p/w: ",
        " passw: ",
    ]
    out = []
    for _ in range(70):
        thing = r.choice(THINGS)
        value = password(r)
        shape = r.randrange(6)
        if shape == 0:
            core = f"{r.choice(OWNERS)} {thing}{r.choice(joins)}{value}"
        elif shape == 1:
            core = f"{value} — that's the {thing} password"
        elif shape == 2:
            core = f"log in to {thing} with {value}"
        elif shape == 3:
            core = f"pw 4 {thing} = {value}"
        elif shape == 4:
            core = f"what's the {thing} password? {value}"
        else:
            core = f"{thing.upper()} PASSWORD {value.upper()}"
        out.append(f"{r.choice(OPENERS)}{core}{r.choice(TAILS)}")
    for _ in range(25):
        shape = r.randrange(5)
        if shape == 0:
            out.append(f"pins: bank {pin(r)}, phone {pin(r)}, garage {pin(r)}")
        elif shape == 1:
            out.append(f"the pin for {r.choice(THINGS)} is {pin(r)}")
        elif shape == 2:
            out.append(f"door code {pin(r)}# then wait for the beep")
        elif shape == 3:
            out.append(f"if the alarm goes off type {pin(r)} on the panel")
        else:
            out.append(f"PIN {pin(r)} (card ending {r.randrange(1000, 9999)})")
    base32 = string.ascii_uppercase + "234567"
    for _ in range(6):
        seed = rand(r, base32, 16)
        out += [
            f"WIFI:T:WPA;S:{r.choice(WORDS).capitalize()}Net;P:{password(r)};;",
            f"otpauth://totp/Acme:me@example.com?secret={seed}&issuer=Acme",
            f"2FA secret for {r.choice(THINGS)}: {seed}",
            f"mapbox secret token sk.eyJ1Ijoi{rand(r, B62, 20)}.{rand(r, B62 + '-_', 22)}",
            f"cloudflare api token {rand(r, B62 + '_-', 40)}",
            f"firebase server key AAAA{rand(r, B62 + '_-', 7)}:APA91b{rand(r, B62 + '_-', 134)}",
            f"okta token 00{rand(r, B62 + '_-', 40)}",
        ]
    return out


def cards(r: random.Random) -> list[str]:
    out = []
    for _ in range(40):
        prefix, length = r.choice([("4", 16), ("51", 16), ("52", 16), ("34", 15), ("6011", 16), ("35", 16)])
        if prefix == "35":
            prefix = "3530"
        c = card(r, prefix, length)
        shape = r.randrange(5)
        if shape == 0:
            out.append(f"card: {c[:4]}-{c[4:8]} {c[8:12]}-{c[12:]}")
        elif shape == 1:
            out.append(f"{fmt_card(r, c)}\n{r.randrange(1, 13):02d}/{r.randrange(26, 33)}\n{r.randrange(100, 999)}")
        elif shape == 2:
            out.append(f"the number on the back of my debit card is {fmt_card(r, c)}")
        elif shape == 3:
            out.append(f"CC# {c} exp {r.randrange(1, 13)}/{r.randrange(2026, 2033)}")
        else:
            out.append(f"just use the visa {fmt_card(r, c)} ok?")
    return out


def korean_rrn(r: random.Random) -> str:
    body = f"{r.randrange(50, 99)}{r.randrange(1, 13):02d}{r.randrange(1, 29):02d}{r.choice('12')}{r.randrange(10**4, 10**5)}"
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    k = (11 - sum(int(a) * b for a, b in zip(body, w, strict=True)) % 11) % 10
    return f"{body[:6]}-{body[6:]}{k}"


def tc_kimlik(r: random.Random) -> str:
    d = [r.randrange(1, 10)] + [r.randrange(10) for _ in range(8)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d.append(d10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))


def rodne_cislo(r: random.Random) -> str:
    while True:
        body = f"{r.randrange(54, 99)}{r.choice([r.randrange(1, 13), r.randrange(51, 63)]):02d}{r.randrange(1, 29):02d}{r.randrange(1000):03d}"
        k = int(body) % 11
        if k < 10:
            return f"{body[:6]}/{body[6:]}{k}"


def ssn(r: random.Random) -> str:
    return f"{r.randrange(100, 665)} {r.randrange(10, 99)} {r.randrange(1000, 9999)}"


def government_ids(r: random.Random) -> list[str]:
    out = []
    makers = [
        (korean_rrn, ["주민등록번호 {v}", "resident registration number {v}", "my RRN is {v}"]),
        (tc_kimlik, ["TC kimlik no {v}", "T.C. Kimlik Numarası: {v}"]),
        (rodne_cislo, ["rodné číslo {v}", "RČ: {v}"]),
        (ssn, ["ssn {v}", "my social is {v}", "SS# {v}"]),
        (lambda r: f"{r.choice('CFGHJK')}{rand(r, 'CFGHJKLMNPRTVWXYZ0123456789', 8)}", ["Personalausweis Nr. {v}", "ID card no {v}"]),
        (lambda r: f"{r.randrange(10**8, 10**9)}", ["passport #{v}", "my passport number: {v}"]),
    ]  # fmt: skip
    for make, frames in makers:
        for _ in range(8):
            out.append(f"{r.choice(OPENERS)}{r.choice(frames).format(v=make(r))}{r.choice(TAILS)}")
    return out


def bank_accounts(r: random.Random) -> list[str]:
    out = []
    for _ in range(20):
        country = r.choice(["DE", "ES", "CH", "AT"])
        bban = {
            "DE": f"{r.randrange(10**17, 10**18)}",
            "ES": f"{r.randrange(10**19, 10**20)}",
            "CH": f"{r.randrange(10**16, 10**17)}",
            "AT": f"{r.randrange(10**15, 10**16)}",
        }[country]
        v = iban(country, bban)
        shape = r.randrange(3)
        if shape == 0:
            v = "-".join(v[i : i + 4] for i in range(0, len(v), 4))
        elif shape == 1:
            v = " ".join(v[i : i + 4] for i in range(0, len(v), 4)).lower()
        out.append(f"{r.choice(OPENERS)}send it to {v}{r.choice(TAILS)}")
    for _ in range(12):
        out.append(
            r.choice(
                [
                    "s/c {a}-{b}-{c} acc no {n8}",
                    "RTN {rt} / acct {n10}",
                    "transit {t} institution 003 account {n7}",
                    "my checking is {n10} at Wells Fargo",
                ]
            ).format(
                a=r.randrange(10, 99),
                b=r.randrange(10, 99),
                c=r.randrange(10, 99),
                n8=r.randrange(10**7, 10**8),
                n10=r.randrange(10**9, 10**10),
                n7=r.randrange(10**6, 10**7),
                rt=r.choice(["021000021", "011401533", "091000019"]),
                t=r.randrange(10000, 99999),
            )
        )
    return out


def near_misses(r: random.Random) -> list[str]:
    out = [
        "replace YOUR_API_KEY with your key in config.yaml",
        "api_key=YOUR_API_KEY",
        "OpenAI keys start with sk- and you should never paste them here",
        "the key looks like sk-...a1b2 in the dashboard",
        "token: <redacted>",
        "password: [hidden]",
        "PIN is required at checkout for cards over 50 EUR",
        "the app asks for a 6-digit passcode now",
        "Kennwort vergessen? Link zum Zurücksetzen kam per Mail",
        "enter the 6-digit code from the authenticator app",
        "the wifi is called PuffinNet, password is on the router sticker",
        "I set up 2FA on everything today",
        "the SSN field on the form is optional",
        "passport renewal costs 75 EUR now",
        "open the PDF with your date of birth as the password",
        "the password must have 12 characters and a symbol",
        "door code changes every month, ask the concierge",
        "pin the tweet about the launch",
        "bank holiday on Monday",
        "card game at 8, bring snacks",
        # public by design (Sentry documents its DSN as safe to expose; Mapbox pk. tokens are public)
        f"sentry dsn https://{rand(r, '0123456789abcdef', 32)}@o{r.randrange(10**5, 10**6)}.ingest.sentry.io/4505",
        f"mapbox public token pk.eyJ1Ijoi{rand(r, B62, 20)}.{rand(r, B62 + '-_', 22)}",
    ]
    for _ in range(20):
        c = card(r, "4", 16)
        out.append(
            r.choice(
                [
                    f"card ending {c[-4:]} declined",
                    f"visa xxxx xxxx xxxx {c[-4:]}",
                    f"first 6 of the card: {c[:6]}",
                    f"call {r.randrange(200, 999)}-{r.randrange(200, 999)}-{r.randrange(1000, 9999)} for support",
                    f"tracking {r.randrange(10**17, 10**18)} (DHL)",
                    f"invoice INV-{r.randrange(10**5, 10**6)}-{r.randrange(10, 99)}",
                    f"the meeting id is {r.randrange(100, 999)}-{r.randrange(100, 999)}-{r.randrange(100, 999)}",
                    f"my frequent flyer number is {r.choice(['LH', 'BA', 'AF'])}{r.randrange(10**8, 10**9)}",
                    f"order number {r.randrange(10**14, 10**15)}",
                    f"{r.randrange(1, 28)}.{r.randrange(1, 12)}.{r.randrange(1950, 2005)} is grandma's birthday",
                ]
            )
        )
    for _ in range(25):
        thing = r.choice(THINGS)
        out.append(
            r.choice(
                [
                    f"I forgot the {thing} password again",
                    f"reset the {thing} password tomorrow",
                    f"the {thing} password is in 1Password",
                    f"{thing} keeps asking for my pin",
                    f"what's the {thing} password? can you text me",
                    f"need a new {thing} pw, the old one leaked",
                    f"my {thing} login stopped working",
                    f"log in to {thing} with your google account",
                ]
            )
        )
    return out


def build() -> list[tuple[str, str]]:
    r = random.Random(SEED)
    rows = [("S", t) for t in secrets(r)]
    rows += [("C", t) for t in cards(r)]
    rows += [("G", t) for t in government_ids(r)]
    rows += [("B", t) for t in bank_accounts(r)]
    rows += [("N", t) for t in near_misses(r)]
    return list(dict.fromkeys(rows))


def write() -> Path:
    header = [
        "# Generated by bench/sensitive_holdout_c.py (seed 3737): the third HELD-OUT part. Do not edit",
        "# by hand; never tune the filter on it. Clauses assembled from independent slots; Wi-Fi QR,",
        "# otpauth, 2FA seeds, mobile shorthand, more countries' ids. Newlines are written \\n.",
    ]
    return write_samples(HOLDOUT_C, header, build())


if __name__ == "__main__":
    print(write())

"""Train the sensitive filter's learned second stage and measure it honestly.

The model (``engram.domain.sensitive.learned_model``) scores a value near a word that names it:
secret, government id, bank account. It is trained here with scikit-learn (a bench
dependency) and exported as ``functions/engram/domain/sensitive/learned_model.json.gz``, which
the filter reads with pure-Python inference.

The measure that matters is leave-one-part-out: train on three of the four labelled
parts (development, held-out A, B, C), score the fourth, for each part in turn; the
benign text is split in four folds the same way (trained on three, refusals counted on
the fourth). Every score goes through the exported pure-Python model, so what is
measured is what runs. It is printed for the model alone and for the filter as it
runs (rules, then the model when no rule fired). The rules themselves were fitted to
all four parts, so the combined figure flatters; the model-alone figure does not.

Long samples are bags of windows: a long negative gives every window as a negative;
a long positive gives only its best window (under a model trained on the short
samples first) as a positive, since the others may hold nothing.

Run: ``python -m bench.sensitive_train`` (LOPO figures, then trains on everything and
writes the weights); ``--no-export`` to only measure.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import time
from collections.abc import Callable
from typing import Any

from engram.domain.sensitive import find_by_rules
from engram.domain.sensitive.filter import learned_category, learned_reading
from engram.domain.sensitive.learned_model import WEIGHTS, ValueModel, model_text, position_features
from engram.domain.sensitive.no_access import keyed_number_grants_nothing
from engram.domain.sensitive.prefilter import prefiltering
from engram.domain.sensitive.reading_view import reading_view

from bench.common import write_results
from bench.sensitive_corpus import CATEGORIES, PARTS, Sample, load, score
from bench.sensitive_holdout import benign_corpus
from bench.sensitive_train_lists import (
    code_lists,
    keypad_digits_not_codes,
    number_lists_not_codes,
    redacted_remainders,
)
from bench.sensitive_train_machine import machine_text
from bench.sensitive_train_talk import counts_not_codes, per_person, secret_talk

CLASSES = ("secret", "government_id", "bank_account")
WINDOW = 24
STRIDE = 12
C = 2.0
# A positive's weight against a negative's in the fit (1.0: as many as there are; swept in 20d).
POSITIVE_WEIGHT = 1.0
THRESHOLD = 1.0  # log-odds a window must clear (chosen by the leave-one-part-out sweep; 0.5 until 18m)
PRUNE = 0.01
# What a text with no value-shaped token (words only) must clear above the threshold
# (chosen by the leave-one-part-out sweep, WORDS_ONLY_MARGINS).
WORDS_ONLY_MARGIN = 1.25  # 1.0 until 18m's last retrain: over a redacted remainder's 2.18, LOPO flat 1.0-2.0
WORDS_ONLY_MARGINS = (0.0, 0.5, 1.0, 2.0, 3.0)
# Weight floors swept at the chosen threshold (a higher floor: a smaller weights file).
PRUNES = (0.03, 0.05, 0.1)
# LOPO (F1, F2, outside 12, 13): 0.03 cost 2 errors more of 119 and halved the file. 0.04 since 19c:
# its features made 0.03's file 1.01 MB, over the code asset's budget after the rules of that
# evening; over I1, I2, J1, J2, H1, H2 left out, 0.05 cost 3 secret errors more of 110 (0.04 lies
# between, not measured itself), and 0.05's file (0.56 MB) lost 10 training labels to 0.04's 4.
# 0.05 since 22e: M's features and 22e's families made 0.045's file 0.80 MB, 55 KB over the code
# asset's budget; over every part 0.05 changed 7 labels of 0.045's (3 fixed, 4 broke), benign 0.
# 0.051 since the freeze of session 22: the rules landed that session took the asset back over
# its budget by 9.6 KB; 0.051 (684 KB) changed one label of 0.05's (holdout_m3:364, a Russian
# Ozon API key, missed), benign 0; 0.052 broke a reading-view test.
# 0.057 since 23e: N's features made 0.055's file 669 KB, leaving under 13 KB of the code asset's
# budget for the rules landing that session; 0.057 (631 KB) lost some words-only secrets (317 errors, 310 at 0.055).
SHIPPED_PRUNE = 0.057
# Decimals a shipped weight keeps. 0.045 and three decimals since 21d: K and L's features made
# 0.04's file 0.96 MB (4 decimals), over the code asset's budget; 0.05 lost 5 training labels
# that 0.045 keeps (outside_7:429 and outside_11's security answers), and the fourth decimal
# is a tenth of the file (0.81 -> 0.73 MB) for at most 0.0005 a weight.
SHIPPED_DECIMALS = 3


def _bags(feats: list[list[str]], window: int = WINDOW) -> list[dict[str, float]]:
    n = len(feats)
    starts = [0] if n <= window else [*range(0, n - window, STRIDE), n - window]
    out = []
    for s in starts:
        bag: dict[str, float] = {}
        for fs in feats[s : s + window]:
            for f in fs:
                bag[f] = bag.get(f, 0.0) + 1.0
        out.append(bag)
    return out


Example = tuple[str | None, list[dict[str, float]]]
Evidence = tuple[tuple[float, ...], bool, bool] | None


# Whether the model is trained (and scored alone) on the text as the filter gives it to the
# model (``learned_reading``: digits spelled out or set apart read as digits, public and
# sealed values masked, numbers named as opening nothing taken out) rather than as written.
# Until session 20 it was trained on the text as written and read the filter's reading.
READ_AS_FILTER = True


def read(text: str, key: str, as_filter: bool | None = None) -> str:
    """What the model reads of ``text`` under ``key`` (training and the LOPO model-alone view)."""
    if not (READ_AS_FILTER if as_filter is None else as_filter):
        return model_text(text, key)
    with prefiltering():
        return model_text(learned_reading(text, reading_view(text)), key)


def examples(samples: list[Sample], benign: list[tuple[str, str]]) -> list[Example]:
    rows: list[Example] = [(s.label, _bags(position_features(read(s.text, s.key)))) for s in samples]
    rows += [(None, _bags(position_features(read(t, k)))) for k, t in benign]
    return rows


def _fit(rows: list[Example], c: float = C) -> ValueModel:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    def design(pick: Callable[[Example], list[tuple[dict[str, float], str | None]]]) -> tuple[Any, ...]:
        xs: list[dict[str, float]] = []
        ys: list[str | None] = []
        for row in rows:
            for bag, y in pick(row):
                xs.append(bag)
                ys.append(y)
        return xs, ys

    def train(xs: list[dict[str, float]], ys: list[str | None]) -> ValueModel:
        vec = DictVectorizer()
        x = vec.fit_transform(xs).tocsr()
        x.indices = x.indices.astype("int32")  # liblinear takes 32-bit indices only
        x.indptr = x.indptr.astype("int32")
        names = vec.get_feature_names_out()
        weights: dict[str, list[float]] = {}
        bias = []
        for ci, cls in enumerate(CLASSES):
            y = [1 if v == cls else 0 for v in ys]
            lr = LogisticRegression(C=c, max_iter=2000, solver="liblinear", class_weight={0: 1.0, 1: POSITIVE_WEIGHT})
            lr.fit(x, y)
            bias.append(round(float(lr.intercept_[0]), 4))
            for name, w in zip(names, lr.coef_[0], strict=True):
                if abs(w) >= PRUNE:
                    weights.setdefault(str(name), [0.0] * len(CLASSES))[ci] = round(float(w), 4)
        return ValueModel(
            classes=CLASSES,
            bias=tuple(bias),
            thresholds=(THRESHOLD,) * len(CLASSES),
            window=WINDOW,
            weights={k: tuple(v) for k, v in weights.items()},
            words_only_margin=WORDS_ONLY_MARGIN,
        )

    # Round 1: short samples whole, every window of a long negative.
    first = train(*design(lambda r: [(b, r[0]) for b in r[1]] if len(r[1]) == 1 or r[0] is None else []))
    index = {c: i for i, c in enumerate(CLASSES)}

    def second(r: Example) -> list[tuple[dict[str, float], str | None]]:
        label, bags = r
        if len(bags) == 1 or label is None:
            return [(b, label) for b in bags]
        if label not in index:  # a long card sample: its windows say nothing for these classes
            return []
        ci = index[label]
        best = max(bags, key=lambda b: sum(first.weights.get(f, (0.0,) * 3)[ci] * v for f, v in b.items()))
        return [(best, label)]

    return train(*design(second))


# Hard negatives for training only (never scored): the words with no value after them,
# references to where a secret is kept, and the long hex and id shapes that are not
# secrets. Written here, apart from every corpus part, so the leave-one-part-out
# figures are not helped by them on the left-out part.
_KEYWORDS = (
    "password",
    "pw",
    "passcode",
    "pin",
    "pin code",
    "wifi password",
    "door code",
    "api key",
    "token",
    "secret",
    "passphrase",
    "recovery phrase",
    "security answer",
    "mot de passe",
    "passwort",
    "contraseña",
    "senha",
    "hasło",
    "wachtwoord",
    "lösenord",
    "ssn",
    "social security number",
    "passport number",
    "passport",
    "driver's licence",
    "driving licence number",
    "tax id",
    "national id",
    "id number",
    "personal number",
    "aadhaar",
    "nhs number",
    "insurance number",
    "iban",
    "account number",
    "routing number",
    "sort code",
    "bank account",
    "bank details",
    "swift code",
    "account",
)
_TEMPLATES = (
    "{k}",
    "my {k}",
    "{k}?",
    "what's my {k}?",
    "I forgot my {k} again",
    "reset the {k} tomorrow",
    "the {k} changed last week",
    "where do I find my {k}",
    "need to renew my {k} before June",
    "{k}: see 1Password",
    "{k} is in Bitwarden",
    "the {k} is on the sticky note in the drawer",
    "don't store my {k}",
    "ask me for the {k} when you need it",
    "{k} reset link sent to my email",
    "my {k} expires in 2031",
    "the {k} has 8 characters",
    "changed the {k} 3 times this year",
)


def hard_negatives(seed: int = 1818) -> list[tuple[str, str]]:
    r = random.Random(seed)
    rows = [("", t.format(k=k)) for k in _KEYWORDS for t in _TEMPLATES]
    hexes = "0123456789abcdef"
    for _ in range(120):
        n = r.choice((32, 40, 64))
        h = "".join(r.choice(hexes) for _ in range(n))
        u = "-".join("".join(r.choice(hexes) for _ in range(k)) for k in (8, 4, 4, 4, 12))
        rows.append(
            ("", r.choice(("sha256 {}", "md5: {}", "commit {}", "checksum {}", "digest is {}", "build {}")).format(h))
        )
        rows.append(
            ("", r.choice(("request id {}", "trace {}", "order {}", "device id: {}", "session {} expired")).format(u))
        )
        rows.append(("", f"commit {h[:7]} fixed the login page password reset"))
    # Identifiers with no word naming a secret: tickets, SKUs, builds, hosts, slugs, and
    # keys made of them (a batch of keys "iso012-b-r495" is not a batch of passwords).
    words = (
        "ticket",
        "sku",
        "build",
        "room",
        "ref",
        "item",
        "batch",
        "run",
        "job",
        "bucket",
        "branch",
        "host",
        "release",
        "invoice",
        "case",
        "part",
        "serial",
        "model",
        "lot",
        "seat",
        "gate",
        "table",
        "size",
    )
    alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
    for _ in range(300):
        slug = "-".join("".join(r.choice(alnum) for _ in range(r.randint(1, 6))) for _ in range(r.randint(1, 4)))
        if r.random() < 0.5:
            slug = slug.upper()
        w = r.choice(words)
        rows.append(
            (
                "",
                r.choice(("{w} {s}", "{w}: {s}", "the {w} is {s}", "moved to {w} {s} today", "{s}")).format(
                    w=w, s=slug
                ),
            )
        )
        key = r.choice((slug.lower(), f"{w}_{slug.lower()}", f"{w}-{r.randint(1, 999)}"))
        rows.append((key, r.choice(("value {s}", "{s}", "{w} {s} done", "see {s}")).format(w=w, s=slug)))
    rows += _numbers_that_are_not_ids(r) + _references_not_secrets(r) + _settings_about_secrets(r)
    rows += _postal_pin_codes(r) + _digests_in_base64(r) + _developer_text_without_values(r)
    rows += _codes_talked_about_without_values(r) + _ids_and_codes_that_are_not_secrets(r)
    rows += _alarm_times_and_electronics_pins(r) + _everyday_entries_with_mixed_values(r)
    rows += _sign_in_pages(r) + [("", t) for label, t in _shouted_credentials(r) if label is None]
    rows += number_lists_not_codes(r) + redacted_remainders(r) + keypad_digits_not_codes(r)
    rows += counts_not_codes(r) + secret_talk(r)[0] + per_person(r)[0]
    return rows + machine_text()[0]


_SHOUTED_SERVICES = (
    *("YAHOO", "OUTLOOK", "HOTMAIL", "ICLOUD", "AMAZON", "NETFLIX", "FACEBOOK", "PAYPAL", "WIFI", "ROUTER"),
    *("LAPTOP", "EMAIL", "WORK", "SCHOOL", "STEAM", "SPOTIFY", "EBAY", "DROPBOX", "BANK APP", "PHONE"),
)


def _shouted_credentials(r: random.Random) -> list[tuple[str | None, str]]:
    """A message written in capitals (caps lock, a voice note's transcript, an older person's
    texting): a run of letters nobody would read as a word after the password's word is the
    password ("YAHOO PASSWORD QWHRTKLMZ"); the same words with no value are not. The corpus
    holds almost none (session 20d: the model trained with K scored a review's shouted case
    under its threshold, "gmail" having lost weight near a value), so both are written here
    (training only, never scored; the LOPO folds were run without them)."""
    consonants = "BCDFGHJKLMNPQRSTVWXZ"
    rows: list[tuple[str | None, str]] = []
    for _ in range(150):
        svc = r.choice(_SHOUTED_SERVICES)
        value = "".join(r.choice(consonants if r.random() < 0.8 else "AEIOU") for _ in range(r.randint(6, 12)))
        if r.random() < 0.3:
            value += str(r.randint(1, 999))
        digits = "".join(r.choice("0123456789") for _ in range(r.randint(4, 6)))
        rows.append(
            (
                "secret",
                r.choice(
                    (
                        f"{svc} PASSWORD {value}",
                        f"{svc} PASSWORD IS {value}",
                        f"MY {svc} PASSWORD {value} PLEASE REMEMBER",
                        f"{svc} PW {value}",
                        f"PASSWORD FOR {svc} {value}",
                        f"{svc} PIN {digits}",
                        f"{svc} PASSCODE {digits} DONT TELL ANYONE",
                    )
                ),
            )
        )
        rows.append(
            (
                None,
                r.choice(
                    (
                        f"{svc} PASSWORD RESET TOMORROW",
                        f"FORGOT MY {svc} PASSWORD AGAIN",
                        f"CHANGE THE {svc} PASSWORD BEFORE FRIDAY",
                        f"{svc} PASSWORD EXPIRED",
                        f"{svc} PASSWORD IS IN THE NOTEBOOK",
                        f"{svc} PIN LOCKED AFTER THREE TRIES",
                        f"NEED A NEW {svc} PASSWORD",
                    )
                ),
            )
        )
    return rows


def written_positives(seed: int = 2020) -> list[Sample]:
    """Positives written in the script for families the corpus lacks (training only)."""
    r = random.Random(seed)
    rows = _shouted_credentials(r) + code_lists(r) + secret_talk(r)[1] + per_person(r)[1] + machine_text()[1]
    return [Sample(label, text, "", f"written:{i}") for i, (label, text) in enumerate(rows) if label is not None]


def _sign_in_pages(r: random.Random) -> list[tuple[str, str]]:
    """Where one signs in: a login, SSO or OAuth page's URL beside a login word names the page,
    not a credential. With a value's kind read (19c: a URL), the model trained on I and J
    scored "SSO login: https://login.microsoftonline.com/common/oauth2/v2.0/authorize" just
    over its threshold (a webhook's URL is a secret, and reads alike)."""
    hosts = ("login.example.com", "sso.acme.io", "auth.northwind.dev", "id.example.org", "accounts.example.net")
    paths = (
        *("login", "signin", "oauth2/v2.0/authorize", "common/oauth2/authorize", "saml2/idp/SSO"),
        *("auth/realms/staff/protocol/openid-connect/auth", "app/UserHome", "#home", "account/login?next=/dash"),
        *("o/oauth2/v2/auth", "adfs/ls/", "cas/login", "users/sign_in", "wp-login.php", "admin/"),
    )
    words = ("SSO login", "login", "sign-in", "login page", "admin login", "okta", "SSO", "portal login", "sign in")
    rows = []
    for _ in range(200):
        url = f"https://{r.choice(hosts)}/{r.choice(paths)}"
        w = r.choice(words)
        rows.append(
            (
                "",
                r.choice(
                    (
                        f"{w}: {url}",
                        f"{w} is {url}",
                        f"the {w} for the team is {url} (password in the vault)",
                        f"{w} at {url}, use your work account",
                        f"{w} redirects to {url}",
                    )
                ),
            )
        )
    return rows


def _everyday_entries_with_mixed_values(r: random.Random) -> list[tuple[str, str]]:
    """Ordinary memory entries whose value mixes letters, digits and marks: a pet, a city, a
    team, a flight, a parking bay, a test's marker ("[pet] MARK-gone-5"). The model trained
    with E and outside 6 refused "[pet] MARK-gone-5" (an integration test's entry): a key
    that is also a security question's topic is no security answer without the question."""
    keys = (
        *("pet", "dog", "cat", "pet_name", "city", "home_town", "school", "street", "team", "color"),
        *("favourite_food", "car", "car_model", "flight", "seat", "parking", "room", "hotel", "gym_class", "bus"),
        *("mother", "best_friend", "first_car", "project", "sprint", "ticket", "size", "shoe_size", "version"),
    )
    upper = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    rows: list[tuple[str, str]] = []
    for _ in range(150):
        word = r.choice(("Rex", "Biscuit", "Luna", "Oslo", "Tigers", "MARK", "Golf", "Bay", "Room", "Sprint", "Max"))
        value = r.choice(
            (
                f"{word.upper()}-{r.choice(('gone', 'kept', 'test', 'x'))}-{r.randint(1, 99)}",
                f"{word}{r.randint(2, 99)}",
                f"{r.choice(upper)}{r.choice(upper)}-{r.randint(100, 9999)}",
                f"{r.choice(upper)}{r.randint(1, 9)}-{r.randint(1, 60)}",
                f"{word} {r.randint(1, 12)}",
                f"{word}-{r.choice(upper)}{r.randint(1, 9)}",
            )
        )
        key = r.choice(keys)
        rows.append((key, value))
    return rows


def _alarm_times_and_electronics_pins(r: random.Random) -> list[tuple[str, str]]:
    """What an assistant hears all day that the learned stage read as a code: alarms,
    timers and wake-up times (digits or words), pins of a board or a connector, and what a
    code looks like (its digits, its length) without the code. A
    reviewer found "Set an alarm for 6:45" and "Connect pin 7 to ground" refused; the rules
    already pass them, so only the model needs to learn it."""
    words = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
    minutes = ("", " fifteen", " thirty", " forty-five", " oh five", " twenty")
    rows: list[tuple[str, str]] = []
    for _ in range(300):
        h, m = r.randint(1, 12), r.choice((0, 5, 10, 15, 20, 30, 45, 50))
        digits = r.choice((f"{h}:{m:02d}", f"{h}{r.choice(('am', 'pm', ' am', ' pm'))}", f"{h}", f"{h:02d}{m:02d}"))
        spoken = f"{r.choice(words)}{r.choice(minutes)}"
        when = r.choice((digits, spoken))
        pin, other = r.randint(0, 40), r.randint(0, 40)
        rows.append(
            (
                "",
                r.choice(
                    (
                        f"Set an alarm for {when}",
                        f"set my alarm for {when} tomorrow",
                        f"Alarm for {when} please.",
                        f"wake me up at {when}",
                        f"can you set a timer for {r.randint(2, 90)} minutes",
                        f"move my {when} alarm to {digits}",
                        f"the alarm goes off at {when} on weekdays",
                        "The code for the alarm.",
                        "what's the code for the alarm?",
                        f"Connect pin {pin} to ground",
                        f"pin {pin} is GND, pin {other} is VCC",
                        f"wire the LED to GPIO pin {pin} through a 220 ohm resistor",
                        f"the sensor's data line goes on pin {pin}",
                        f"Arduino digital pin {pin} reads HIGH when the button is pressed",
                        f"a {r.choice((8, 14, 20, 24, 40))}-pin connector, pin {pin} is unused",
                        # What a code looks like, not the code.
                        f"{r.choice(('CVV', 'the CVC', 'The security code'))} is the {r.choice((3, 4))} digits on the back",
                        f"{r.choice(('a PIN', 'your PIN', 'the passcode'))} must be {r.randint(4, 6)} to {r.randint(6, 8)} digits",
                        f"the verification code is {r.choice((6, 8))} digits long and expires in {r.randint(2, 15)} minutes",
                    )
                ),
            )
        )
    return rows


def _ids_and_codes_that_are_not_secrets(r: random.Random) -> list[tuple[str, str]]:
    """Promo codes, a company's registration and tax numbers, API objects' ids, masked and
    example keys: what looks like a credential or an id and is none."""
    alnum = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"
    rows = []
    for _ in range(200):
        body = "".join(r.choice(alnum) for _ in range(r.randint(14, 26)))
        n = r.randint(10**7, 10**9)
        word = r.choice(("SAVE", "WELCOME", "THANKYOU", "SPRING", "BLACKFRIDAY", "VIP"))
        rows.append(
            (
                "",
                r.choice(
                    (
                        f"promo code {word}{r.randint(5, 50)} gives {r.randint(5, 50)}% off",
                        f"use the discount code {word}{r.randint(5, 50)} at checkout",
                        f"voucher {word}-{r.randint(100, 999)} expires Friday",
                        f"referral code {word.lower()}{r.randint(10, 99)}",
                        f"VAT number DE{n} of the company",
                        f"KvK-nummer {n} van het bedrijf",
                        f"CIF de la empresa B-{n}",
                        f"the company's EIN is {r.randint(10, 99)}-{r.randint(10**6, 10**7 - 1)} (Acme Holdings Inc.)",
                        f"Invoice No. 2026-{r.randint(1000, 9999)}\nPO: {n}\nCustomer ID: C-{r.randint(1000, 99999)}",
                        f"{r.choice(('ch', 'cus', 'sub', 'pi', 'req', 'msg', 'call', 'org', 'evt'))}_{body} succeeded",
                        f'"id": "{r.choice(("chatcmpl", "msg", "toolu", "run"))}-{body}"',
                        f"export {r.choice(('STRIPE_SECRET_KEY', 'OPENAI_API_KEY', 'GITHUB_TOKEN'))}="
                        f"{r.choice(('sk_live_', 'sk-', 'ghp_'))}{'x' * r.randint(16, 36)}",
                        f"api key: sk-...{body[:4]} (shown once)",
                        f'token: "<{r.choice(("CHANGE_ME", "YOUR_TOKEN", "REDACTED"))}>"',
                        f"my {r.choice(('aadhaar', 'pan', 'bank account', 'passport'))} is linked to "
                        f"{r.randint(70000, 99999)} {r.randint(10000, 99999)} for the OTP",
                        f"Your discount code is {r.randint(1000, 9999)}. Don't share it with your friends!",
                    )
                ),
            )
        )
    return rows


def _codes_talked_about_without_values(r: random.Random) -> list[tuple[str, str]]:
    """Long, everyday messages that name a code, a PIN, a password or an id without giving
    it (it comes by post, in person, is on the card, was changed), with the harmless
    numbers such messages hold: times, dates, phones, prices, references, years. Written
    for the families outside 3 showed (its own lines are not copied here)."""
    things = (
        "the door code",
        "the alarm code",
        "the gate code",
        "my PIN",
        "the new PIN",
        "the combination",
        "the wifi password",
        "the admin password",
        "the activation code",
        "the access code",
        "the lockbox code",
        "my passport",
        "the BSN",
        "my licence",
        "the backup codes",
        "the recovery key",
    )
    where = (
        "I'll give you {t} in person on {day}, please don't ask for it by text",
        "{t} is in the email from the management company (sent {date})",
        "{t} was changed on {date}; the new one comes by post in {n} working days",
        "you don't need {t}, {name} will sort it before you arrive at {time}",
        "{t} is printed on the card in the red folder, second drawer",
        "I forgot {t} and got it wrong three times, now it's blocked until {day}",
        "{t} expires {month} {year}, renewal costs £{price}",
        "ask {name} for {t}, he keeps it in the vault",
        "{t} is on the residence permit, back side, bottom right",
    )
    fillers = (
        "Parking is on level {n}, bay {n2}.",
        "Call me on {phone} if anything comes up.",
        "The bins go out {day} night.",
        "Reference {ref}, invoice {n3} for £{price}.",
        "Flight lands {time}, gate {n2}.",
        "Bug: login shows 'invalid password' after release {ver}, status 401.",
        "Direct debit reference {ref}, originator {n6}.",
        "Tlf {phone}.",
    )
    names = ("Greg", "Leon", "Marta", "Ravi", "Jens", "Beth", "Dee", "Tom")
    days = ("Monday", "Tuesday", "Thursday", "Friday", "Sunday")
    months = ("Jan", "Mar", "Aug", "Nov")
    rows: list[tuple[str, str]] = []
    for _ in range(400):
        v = {
            "t": r.choice(things),
            "day": r.choice(days),
            "date": f"{r.randint(1, 28)} {r.choice(months)}",
            "n": r.randint(2, 10),
            "n2": r.randint(1, 40),
            "n3": r.randint(10000, 99999),
            "n6": r.randint(100000, 999999),
            "name": r.choice(names),
            "time": f"{r.randint(7, 20)}:{r.choice(('00', '15', '30', '45'))}",
            "month": r.choice(months),
            "year": r.randint(2025, 2035),
            "price": f"{r.randint(10, 300)}.{r.randint(10, 99)}",
            "phone": " ".join(str(r.randint(10, 99)) for _ in range(4)),
            "ref": f"{r.choice(('GYM', 'HS', 'INC', 'PO', 'REF'))}-{r.randint(100, 99999)}",
            "ver": f"{r.randint(1, 5)}.{r.randint(0, 20)}.{r.randint(0, 9)}",
        }
        parts = [r.choice(where), *r.sample(fillers, r.randint(1, 3))]
        r.shuffle(parts)
        sentences = [p.format(**v) for p in parts]
        rows.append(("", " ".join(x[0].upper() + x[1:] + ("" if x.endswith(".") else ".") for x in sentences)))
    # codes that open nothing: discounts, vouchers, gift cards, referrals, with the same
    # "don't share it" a one-time code carries
    for _ in range(120):
        kind = r.choice(("discount", "promo", "voucher", "coupon", "referral", "gift card", "loyalty", "member"))
        code = r.choice((str(r.randint(1000, 99999)), f"SAVE{r.randint(5, 50)}", f"WELCOME{r.randint(10, 99)}"))
        rows.append(
            (
                "",
                r.choice(
                    (
                        f"Your {kind} code is {code}. Don't share it with your friends, it's just for you!",
                        f"{code} is your {kind} code, valid until {r.randint(1, 28)} {r.choice(months)}.",
                        f"use {kind} code {code} at checkout for {r.randint(5, 40)}% off, never share it on forums",
                    )
                ),
            )
        )
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    for _ in range(60):
        body = "AAAAC3NzaC1lZDI1NTE5AAAAI" + "".join(r.choice(b64) for _ in range(43))
        rows.append(("", f"my SSH public key, please add it: ssh-ed25519 {body} me@laptop"))
        var = r.choice(("DB_PASSWORD", "PGPASSWORD", "REDIS_PASS", "API_TOKEN"))
        rows.append(
            ("", f"the .env:\nHOST=localhost\nUSER=app\nPASSWORD=${{{var}}}\nPORT=5433\n({var} is in the keychain)")
        )
    return rows


def _developer_text_without_values(r: random.Random) -> list[tuple[str, str]]:
    """Code, configuration, logs and shell history that name secrets and hold none."""
    hexes = "0123456789abcdef"
    words = ("token", "password", "secret", "api key", "credentials", "auth", "session")
    rows = []
    for _ in range(200):
        w = r.choice(words)
        sha = "".join(r.choice(hexes) for _ in range(7))
        svc = r.choice(("POSTGRES", "MYSQL", "REDIS", "SMTP", "STRIPE", "GITHUB", "AUTH"))
        rows.append(
            (
                "",
                r.choice(
                    (
                        f"{sha} fix {w} refresh race\n{sha[::-1]} add {w} reset flow",
                        f"services:\n  db:\n    environment:\n      {svc}_USER: app\n      {svc}_PASSWORD_FILE: /run/secrets/{svc.lower()}",
                        f"{svc}_PROVIDER=cognito\n{svc}_REGION=eu-central-1\n{svc}_POOL_ID=eu-central-1_{sha}",
                        r.choice(("mysql -u root -p -h 127.0.0.1", "psql -U app -W -h db", "ssh -p 2222 deploy@host")),
                        f"INFO auth: {w} refreshed for user_id={r.randint(1000, 99999)} expires_at={r.randint(10**9, 2 * 10**9)}",
                        f"WARN {w} validation failed for request {sha}, retrying in {r.randint(1, 60)}s",
                        f"def check_{w.replace(' ', '_')}(user: User, {w.replace(' ', '_')}: str) -> bool:",
                        # (no traceback is written here: the ones in tests/unit/test_sensitive_families.py
                        # pass because code expressions are read as the names they are, not as values)
                        f"kubectl create secret generic {svc.lower()}-creds --from-file={w.replace(' ', '_')}=./{sha}.txt",
                        f"E0501 reflector.go:{r.randint(1, 300)}] Failed to watch *v1.Secret: secrets is forbidden",
                        f"{w.replace(' ', '_')} = settings.{w.replace(' ', '_')}",
                        f"const {w.replace(' ', '')} = await get{w.title().replace(' ', '')}();",
                    )
                ),
            )
        )
    return rows


def _digests_in_base64(r: random.Random) -> list[tuple[str, str]]:
    """Digests written in base64 after their algorithm (subresource integrity, CSP, Nix,
    go.sum) and certificates in base64 (a kubeconfig's certificate-authority-data)."""
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    rows = []
    for _ in range(80):
        alg, n = r.choice((("sha256", 43), ("sha384", 64), ("sha512", 86), ("sha1", 27)))
        digest = "".join(r.choice(b64) for _ in range(n)) + ("=" if n % 4 == 3 else "==" if n % 4 == 2 else "")
        pkg = r.choice(("github.com/stretchr/testify", "golang.org/x/net", "github.com/spf13/cobra"))
        cert = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t" + "".join(r.choice(b64) for _ in range(r.randint(40, 120)))
        rows.append(
            (
                "",
                r.choice(
                    (
                        f'"integrity": "{alg}-{digest}"',
                        f'<script src="/static/app.js" integrity="{alg}-{digest}" crossorigin="anonymous"></script>',
                        f"Content-Security-Policy: script-src 'self' '{alg}-{digest}'",
                        f'hash = "{alg}-{digest}";',
                        f"{pkg} v1.{r.randint(0, 20)}.{r.randint(0, 9)} h1:{digest[:43]}=",
                        f"certificate-authority-data: {cert}",
                    )
                ),
            )
        )
    return rows


def _postal_pin_codes(r: random.Random) -> list[tuple[str, str]]:
    """India's postal "PIN code" of six digits in an address."""
    cities = ("Bengaluru", "Mumbai", "Delhi", "Chennai", "Pune", "Kolkata", "Hyderabad", "Jaipur", "Kochi", "Indore")
    streets = ("MG Road", "Station Road", "Nehru Nagar", "Sector 21", "Park Street", "Anna Salai", "Civil Lines")
    rows = []
    for _ in range(80):
        pin = f"{r.randint(1, 8)}{r.randint(0, 99999):05d}"
        city, street = r.choice(cities), r.choice(streets)
        rows.append(
            (
                "",
                r.choice(
                    (
                        f"PIN code {pin} {city}",
                        f"{r.randint(1, 300)} {street}, {city}, PIN code {pin}",
                        f"ship it to {street}, {city} - pincode {pin}",
                        f"pin code: {pin}, {city}",
                        f"my address is {r.randint(1, 99)}, {street}, {city} {pin}",
                    )
                ),
            )
        )
    return rows


def _settings_about_secrets(r: random.Random) -> list[tuple[str, str]]:
    """Settings and code that are about a secret without holding one: masked values, password
    hashes, a tokenizer's special tokens, counts of model tokens, token types and URLs,
    pagination cursors, CSRF cookies, type annotations, password policies, cache keys."""
    alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./"
    rows = []
    for _ in range(200):
        name = r.choice(("password", "db_password", "apiKey", "token", "secret", "client_secret", "pass"))
        masked = r.choice(("********", "••••••••", "xxxxxxxx", "<redacted>", "[REDACTED]", "***", "(hidden)"))
        salt = "".join(r.choice(b64) for _ in range(22))
        digest = "".join(r.choice(b64) for _ in range(31))
        crypt = r.choice(
            (f"$2b$12${salt}{digest}", f"$argon2id$v=19$m=65536,t=3,p=4${salt}${digest}", f"$6${salt[:16]}${digest}")
        )
        cursor = "".join(r.choice(alnum) for _ in range(r.randint(12, 40)))
        n = r.randint(16, 32768)
        rows.append(
            (
                "",
                r.choice(
                    (
                        f'"{name}": "{masked}"',
                        f"{name}: {masked}",
                        f"{r.choice(('password_hash', 'hashed_password', 'pwd_hash', 'passwordHash'))}: {crypt}",
                        f'"{r.choice(("eos", "bos", "pad", "unk", "sep", "cls", "mask"))}_token": "{r.choice(("</s>", "<s>", "<pad>", "[PAD]", "<unk>", "[SEP]", "<|endoftext|>"))}"',
                        f'"{r.choice(("max_tokens", "prompt_tokens", "completion_tokens", "total_tokens", "max_new_tokens"))}": {n}',
                        f"token_type: bearer\nexpires_in: {n}",
                        f'"{r.choice(("token_url", "auth_url", "revoke_url", "tokenEndpoint"))}": "https://auth.example.com/{cursor[:8]}"',
                        f'{{"{r.choice(("nextPageToken", "pageToken", "continuation_token", "cursor", "next_token"))}": "{cursor}"}}',
                        f"Cookie: {r.choice(('csrftoken', 'XSRF-TOKEN', '_ga', 'theme'))}={cursor}",
                        f"{r.choice(('password', 'token', 'api_key', 'secret'))}: {r.choice(('str', 'string', 'Optional[str] = None', 'SecretStr', 'bytes'))}",
                        f"{r.choice(('password_min_length', 'PASSWORD_EXPIRY_DAYS', 'token_ttl', 'max_password_age', 'pass_rate'))}: {r.randint(1, 365)}",
                        f"{r.choice(('key', 'cache key', 'object key', 'partition key'))}: {r.choice(('user', 'session', 'orders', 'tenant'))}:{r.choice(('profile', 'cart', 'v2'))}:{n}",
                    )
                ),
            )
        )
    return rows


# Phone, order, customer, invoice, tracking, policy and member numbers in the languages
# the id and account words come in: without them every foreign word before a number
# reads as an id.
_NUMBER_WORDS = (
    "phone",
    "mobile",
    "cell",
    "Telefon",
    "Handy",
    "Tel.",
    "téléphone",
    "portable",
    "teléfono",
    "móvil",
    "celular",
    "telefone",
    "telefono",
    "cellulare",
    "telefoon",
    "mobiel",
    "telefon",
    "komórka",
    "telefonnummer",
    "電話番号",
    "携帯",
    "电话",
    "手机",
    "전화번호",
    "order",
    "Bestellnummer",
    "numéro de commande",
    "número de pedido",
    "numero d'ordine",
    "bestelnummer",
    "numer zamówienia",
    "ordernummer",
    "订单号",
    "注文番号",
    "주문번호",
    "customer number",
    "Kundennummer",
    "numéro de client",
    "número de cliente",
    "klantnummer",
    "numer klienta",
    "kundnummer",
    "invoice",
    "Rechnungsnummer",
    "numéro de facture",
    "factura",
    "tracking number",
    "Sendungsnummer",
    "快递单号",
    "追跡番号",
    "policy number",
    "Vertragsnummer",
    "numéro de contrat",
    "número de póliza",
    "member ID",
    "Mitgliedsnummer",
    "loyalty card",
    "booking reference",
    "confirmation code",
    "ticket",
    "case number",
    "Aktenzeichen",
    "référence",
    "referencia",
    "parcel",
    "Paketnummer",
    "meter number",
    "Zählernummer",
    # more languages and scripts (after the outside parts: shipment and phone numbers read as accounts)
    *("رقم الجوال", "رقم الهاتف", "رقم الشحنة", "رقم الطلب", "מספר טלפון", "מספר הזמנה", "номер телефона"),
    *("номер заказа", "трек-номер", "फ़ोन नंबर", "ऑर्डर नंबर", "เบอร์โทร", "เลขพัสดุ", "telefon numarası"),
    *("sipariş no", "kargo takip no", "nomor hp", "nomor pesanan", "số điện thoại", "mã đơn hàng"),
)
_NUMBER_TEMPLATES = (
    "{w} {v}",
    "{w}: {v}",
    "my {w} is {v}",
    "{w} {v} for the delivery",
    "new {w}: {v}",
    "{w} {v} (ask for Ana)",
    "mein {w} ist {v}",
    "mon {w} : {v}",
    "mi {w} es {v}",
    "o meu {w} é {v}",
    "{w}は{v}です",
    "{w}是{v}",
)


def _number_value(r: random.Random) -> str:
    digits = "0123456789"
    pick = r.randrange(6)
    if pick == 0:
        return (
            "+"
            + str(r.choice((1, 33, 34, 39, 44, 49, 55, 81, 86)))
            + " "
            + " ".join("".join(r.choice(digits) for _ in range(r.choice((3, 4)))) for _ in range(3))
        )
    if pick == 1:
        return (
            "0"
            + "".join(r.choice(digits) for _ in range(r.choice((1, 2))))
            + "-"
            + "".join(r.choice(digits) for _ in range(8))
        )
    if pick == 2:
        return " ".join("".join(r.choice(digits) for _ in range(3)) for _ in range(3))
    if pick == 3:
        return "".join(r.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(2)) + "".join(
            r.choice(digits) for _ in range(r.randint(8, 12))
        )
    if pick == 4:
        return "".join(r.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    return "".join(r.choice(digits) for _ in range(r.randint(6, 18)))


def _numbers_that_are_not_ids(r: random.Random) -> list[tuple[str, str]]:
    return [("", r.choice(_NUMBER_TEMPLATES).format(w=r.choice(_NUMBER_WORDS), v=_number_value(r))) for _ in range(500)]


def _references_not_secrets(r: random.Random) -> list[tuple[str, str]]:
    """Configuration that names where a secret is, and technical text that holds none."""
    names = ("DB_PASSWORD", "API_KEY", "GITHUB_TOKEN", "SECRET_KEY", "STRIPE_KEY", "SMTP_PASS", "AUTH_TOKEN")
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    hexes = "0123456789ABCDEF"
    rows = []
    for _ in range(120):
        n = r.choice(names)
        low = n.lower()
        rows.append(
            (
                "",
                r.choice(
                    (
                        f"env:\n  {n}: ${{{{ secrets.{n} }}}}",
                        f'{low} = os.environ["{n}"]',
                        f"{low} = os.getenv('{n}')",
                        f"const {low} = process.env.{n};",
                        f"{n}_FILE: /run/secrets/{low}",
                        f"tls_key: /etc/ssl/private/{low}.key",
                        f"password: ${{{n}}}",
                        f"{low}: <{low}>",
                    )
                ),
            )
        )
        fp = " ".join("".join(r.choice(hexes) for _ in range(4)) for _ in range(10))
        rows.append(("", f"my PGP key fingerprint is {fp}"))
        body = "\n".join("".join(r.choice(b64) for _ in range(64)) for _ in range(3))
        rows.append(("", f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----"))
        pkgs = ("requests", "urllib3", "pydantic", "boto3", "numpy", "cryptography")
        pins = "\n".join(f"{p}=={r.randint(0, 3)}.{r.randint(0, 30)}.{r.randint(0, 9)}" for p in r.sample(pkgs, 3))
        rows.append(("", f"pip freeze:\n{pins}"))
    return rows


def _benign_folds(n: int = 4) -> list[list[tuple[str, str]]]:
    rows = [r for source in benign_corpus().values() for r in source]
    return [rows[i::n] for i in range(n)]


# The rules as they stood when each held-out part had its first run: the filter before
# the part's misses were fixed. Rules then model on a part, with the model trained
# without that part, is the honest estimate of the two stages together.
FIRST_RUN_RULES = {
    "held_out": "0d44a47",
    "held_out_b": "b27495b",
    "held_out_c": "b5e6e80",
    "held_out_d": "b0369bd",
    "outside_3": "ecd098f",
    "outside_1": "d022fd1",
    "outside_2": "d022fd1",
    "held_out_e": "be63fac",
    "outside_6": "6139a54",
    "outside_9": "d244fe8",
    "outside_4": "67cae30",
    "outside_5": "67cae30",
    "outside_7": "67cae30",
    "outside_8": "67cae30",
    "held_out_f1": "4571848",
    "held_out_f2": "4571848",
    "outside_12": "4b53f6f",
    "outside_13": "4b53f6f",
    "outside_10": "23379cf",
    "outside_11": "23379cf",
    "held_out_g1": "fd8a624",
    "held_out_g2": "fd8a624",
    "held_out_g3": "fd8a624",
    "held_out_h1": "c1c77ed",
    "held_out_h2": "c1c77ed",
    "held_out_i1": "e9c28d6",
    "held_out_i2": "e9c28d6",
    "held_out_j1": "e9c28d6",
    "held_out_j2": "e9c28d6",
    "held_out_k1": "f200111",
    "held_out_k2": "f200111",
    "held_out_k3": "f200111",
    "held_out_k4": "f200111",
    "held_out_l1": "27b8777",
    "held_out_l2": "27b8777",
    "held_out_l3": "27b8777",
    "held_out_l4": "27b8777",
    "held_out_m1": "18518c4",
    "held_out_m2": "18518c4",
    "held_out_m3": "18518c4",
    "held_out_m4": "18518c4",
    "held_out_n1": "2f49c89",
    "held_out_n2": "2f49c89",
    "held_out_n3": "2f49c89",
    "held_out_n4": "2f49c89",
}
# The parts the model is trained on, named one by one: a part added to the bench later is
# not trained on until it is named here (a part whose first run is still to come must not be).
# held_out_e is trained on since its three clean runs were recorded, held_out_f1 and _f2 since
# their first run (docs/security.md), G1-G3 and H1-H2 since session 18x, I1, I2, J1 and J2 since
# session 19, K1-K4 since session 20, L1-L4 since session 21, M1-M4 and N1-N4 since session
# 22 (each after its first run); a part still held out is never named here.
TRAIN_PARTS = (
    "development",
    "held_out",
    "held_out_b",
    "held_out_c",
    "held_out_d",
    "outside_1",
    "outside_2",
    "outside_3",
    "held_out_e",
    "outside_6",
    "outside_9",
    "outside_4",
    "outside_5",
    "outside_7",
    "outside_8",
    "held_out_f1",
    "held_out_f2",
    "outside_12",
    "outside_13",
    "outside_10",
    "outside_11",
    "held_out_g1",
    "held_out_g2",
    "held_out_g3",
    "held_out_h1",
    "held_out_h2",
    "held_out_i1",
    "held_out_i2",
    "held_out_j1",
    "held_out_j2",
    "held_out_k1",
    "held_out_k2",
    "held_out_k3",
    "held_out_k4",
    "held_out_l1",
    "held_out_l2",
    "held_out_l3",
    "held_out_l4",
    "held_out_m1",
    "held_out_m2",
    "held_out_m3",
    "held_out_m4",
    "held_out_n1",
    "held_out_n2",
    "held_out_n3",
    "held_out_n4",
)
THRESHOLDS = (-1.0, -0.5, 0.0, 0.5, 1.0, 1.5)


_OLD_RULES_SCRIPT = """
import json, sys
import engram.domain.sensitive as s
find = getattr(s, "find_by_rules", None) or s.find_sensitive
out = []
for text, key in json.load(sys.stdin):
    found = find(text, key)
    out.append(None if found is None else str(found.rule))
json.dump(out, sys.stdout)
"""


def _old_rules(commit: str, rows: list[tuple[str, str]]) -> Callable[[str, str], str | None]:
    """The rules as they stood at ``commit`` (a single module or the package), run in a
    subprocess on that commit's own tree, on ``rows`` of (text, key); the learned stage
    is left out (``find_by_rules`` where the commit has it)."""
    import subprocess
    import sys
    import tarfile
    import tempfile
    from io import BytesIO

    root = tempfile.mkdtemp(prefix=f"sensitive_{commit}_")
    tree = subprocess.run(["git", "archive", commit, "functions/engram"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(tree)) as tar:
        tar.extractall(root, filter="data")
    unique = sorted(set(rows))
    found = subprocess.run(
        [sys.executable, "-c", _OLD_RULES_SCRIPT],
        input=json.dumps(unique),
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": f"{root}/functions", "PATH": "/usr/bin:/bin"},
    ).stdout
    table = dict(zip(unique, json.loads(found), strict=True))

    def detect(text: str, key: str) -> str | None:
        return table[(text, key)]

    return detect


def _current_rules(text: str, key: str) -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


def _summary(r: dict[str, Any]) -> dict[str, Any]:
    return {
        **{c: {k: r["per_category"][c][k] for k in ("precision", "recall", "tp", "fp", "fn")} for c in CATEGORIES},
        "any": r["any"],
    }


def _at(m: ValueModel, threshold: float) -> ValueModel:
    return ValueModel(m.classes, m.bias, (threshold,) * len(m.classes), m.window, m.weights, m.words_only_margin)


def _pruned(m: ValueModel, floor: float, decimals: int = 4) -> ValueModel:
    """``m`` without its weights under ``floor`` (a smaller file), as exported with ``--prune``,
    each rounded to ``decimals``."""
    weights = {}
    for name, ws in m.weights.items():
        kept = tuple(round(w, decimals) if abs(w) >= floor else 0.0 for w in ws)
        if any(kept):
            weights[name] = kept
    return ValueModel(m.classes, m.bias, m.thresholds, m.window, weights, m.words_only_margin)


def _as_filter(text: str, key: str, m: ValueModel) -> str | None:
    if key and keyed_number_grants_nothing(text, key):
        return None
    with prefiltering():
        return learned_category(text, key, m, reading_view(text))


def lopo(
    parts: dict[str, list[Sample]],
    c: float = C,
    show: bool = False,
    only: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Per left-out part and threshold: the model alone, the current rules then the
    model (flattering: the rules saw the part), and, for A, B and C, the rules of the
    part's first run then the model (honest)."""
    folds = _benign_folds(len(parts))
    # every text's features are read once, not once a fold (the same rows, in the same order)
    by_part = {name: examples(ss, []) for name, ss in parts.items()}
    by_fold = [examples([], f) for f in folds]
    # the written families, negatives and positives, in every fold (session 21d: the positives too,
    # so a fold is trained as the shipped model is; they are never scored)
    negatives = examples(written_positives(), hard_negatives())
    out: dict[str, Any] = {}
    for k, held in enumerate(parts):
        if only and held not in only:
            continue
        rows = [r for name, rs in by_part.items() if name != held for r in rs]
        rows += [r for i, rs in enumerate(by_fold) if i != k for r in rs] + negatives
        m = _fit(rows, c)
        cache: dict[tuple[str, str], Evidence] = {}

        def evidence(
            text: str, key: str, m: ValueModel = m, cache: dict[tuple[str, str], Evidence] = cache
        ) -> Evidence:
            if (text, key) not in cache:
                cache[(text, key)] = m.evidence(read(text, key))
            return cache[(text, key)]

        pruned = {floor: _pruned(m, floor) for floor in PRUNES}
        rules: dict[str, Callable[[str, str], str | None]] = {"current_rules": _current_rules}
        if held in FIRST_RUN_RULES:
            rows = [(s.text, s.key) for s in parts[held]] + [(t, key) for key, t in folds[k]]
            rules["first_run_rules"] = _old_rules(FIRST_RUN_RULES[held], rows)
        out[held] = {}
        for threshold in THRESHOLDS:

            def alone(
                text: str, key: str, t: float = threshold, m: ValueModel = m, wm: float = WORDS_ONLY_MARGIN
            ) -> str | None:
                return m.verdict(evidence(text, key), (t,) * len(CLASSES), wm)

            detectors: dict[str, Callable[[str, str], str | None]] = {"model_alone": alone}
            for name, rule in rules.items():
                detectors[f"{name}_alone"] = rule
                detectors[f"{name}_then_model"] = lambda text, key, rule=rule, alone=alone: (
                    rule(text, key) or alone(text, key)
                )
                if threshold != THRESHOLD:
                    continue
                for wm in WORDS_ONLY_MARGINS:  # the words-only margin, swept at the chosen threshold
                    detectors[f"{name}_then_model_wm{wm}"] = lambda text, key, rule=rule, wm=wm: (
                        rule(text, key) or alone(text, key, wm=wm)
                    )
                for floor, pm in pruned.items():  # the weight floor, swept at the chosen threshold
                    detectors[f"{name}_then_model_prune{floor}"] = lambda text, key, rule=rule, pm=pm, t=threshold: (
                        rule(text, key)
                        or pm.verdict(pm.evidence(read(text, key)), (t,) * len(CLASSES), WORDS_ONLY_MARGIN)
                    )
                # what runs: the rules, then the shipped (pruned) model on the filter's reading,
                # its id and account verdicts gated (learned_verdicts.py), as find_sensitive does
                shipped = _pruned(m, SHIPPED_PRUNE, SHIPPED_DECIMALS)
                detectors[f"{name}_then_filter"] = lambda text, key, rule=rule, pm=shipped: (
                    rule(text, key) or _as_filter(text, key, pm)
                )
            row: dict[str, Any] = {}
            for name, detect in detectors.items():
                if name.endswith("_alone") and name != "model_alone" and threshold != THRESHOLDS[0]:
                    continue
                r = score(parts[held], detect)
                refused = [t for key, t in folds[k] if detect(t, key) is not None]
                row[name] = {**_summary(r), "benign_refused": len(refused), "benign_samples": len(folds[k])}
                if show and name == "model_alone" and threshold == THRESHOLD:
                    for miss in r["misses"]:
                        print(
                            f"    {held} miss: expected {miss['expected']}, got {miss['got']}: {miss['text'][:110]!r}"
                        )
                    for t in refused:
                        print(f"    {held} benign refused: {t[:110]!r}")
            out[held][str(threshold)] = row
        out[held]["features"] = {"all": len(m.weights), **{str(f): len(pm.weights) for f, pm in pruned.items()}}
    return out


def export(m: ValueModel) -> None:
    raw = {
        "classes": list(m.classes),
        "bias": list(m.bias),
        "thresholds": list(m.thresholds),
        "window": m.window,
        "words_only_margin": m.words_only_margin,
        "weights": {k: list(v) for k, v in sorted(m.weights.items())},
    }
    # mtime=0: the same weights give the same bytes, so a retrain that changes nothing shows no diff.
    text = json.dumps(raw, separators=(",", ":"), ensure_ascii=False) + "\n"
    WEIGHTS.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    global READ_AS_FILTER, POSITIVE_WEIGHT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-export", action="store_true", help="only the leave-one-part-out figures")
    parser.add_argument("--no-lopo", action="store_true", help="only train on everything and export")
    parser.add_argument("--c", type=float, default=C, help="inverse regularisation strength")
    parser.add_argument(
        "--prune",
        type=float,
        default=SHIPPED_PRUNE,
        help="drop the exported weights smaller than this (a smaller file; swept by LOPO, PRUNES)",
    )
    parser.add_argument("--show", action="store_true", help="print the model's misses on each left-out part")
    parser.add_argument("--folds", default="", help="leave out only these parts (comma-separated), to save time")
    parser.add_argument("--out", default="sensitive_model_lopo", help="name of the results file")
    parser.add_argument("--as-written", action="store_true", help="train on the text as written (before session 20)")
    parser.add_argument("--positive-weight", type=float, default=POSITIVE_WEIGHT, help="a positive's weight in the fit")
    args = parser.parse_args(argv)
    READ_AS_FILTER = not args.as_written
    POSITIVE_WEIGHT = args.positive_weight
    parts = {name: load(PARTS[name]) for name in TRAIN_PARTS if name in PARTS}
    result: dict[str, Any] = {"window": WINDOW, "C": args.c, "threshold": THRESHOLD, "prune": args.prune}
    if not args.no_lopo:
        folds = tuple(f for f in args.folds.split(",") if f)
        result["leave_one_part_out"] = lopo(parts, args.c, args.show, folds)
        for held, by_t in result["leave_one_part_out"].items():
            print(f"left out {held}:")
            for threshold, by in by_t.items():
                if threshold == "features":
                    print(f"  features by weight floor: {by}")
                    continue
                for name, v in by.items():
                    cells = "  ".join(
                        f"{c[:6]} {v[c]['precision']:.3f}/{v[c]['recall']:.3f}" for c in (*CATEGORIES, "any")
                    )
                    print(f"  t={threshold:4s} {name:28s} {cells}  benign {v['benign_refused']}/{v['benign_samples']}")
    if not args.no_export:
        started = time.perf_counter()
        m = _fit(
            examples(
                [s for ss in parts.values() for s in ss] + written_positives(),
                [r for f in _benign_folds() for r in f] + hard_negatives(),
            ),
            args.c,
        )
        if args.prune > PRUNE:
            m = _pruned(m, args.prune, SHIPPED_DECIMALS)
        export(m)
        result["features"] = len(m.weights)
        result["train_seconds"] = round(time.perf_counter() - started, 1)
        print(f"exported {len(m.weights)} features -> {WEIGHTS}")
    if not args.no_lopo:
        print(f"  -> {write_results(args.out, result)}")
    return result


if __name__ == "__main__":
    main()

"""Precision and recall of the sensitive-data filter on a generated, labelled corpus.

Positives: payment cards of several brands (valid Luhn), US SSNs and UK NI numbers,
IBANs of several countries (valid mod-97), account numbers, passwords and PINs in
sentences, API keys and tokens. Negatives: their look-alikes (Luhn failures, phone
numbers, order ids, dates, invalid IBANs, talk about passwords without one) and
ordinary facts. Run: ``.venv/bin/python -m bench.sensitive_corpus``
"""

from __future__ import annotations

import random
import string
from collections import Counter

from engram.domain.sensitive import find_sensitive

from bench.common import write_results

RNG = random.Random(20261122)


def luhn_complete(prefix: str, length: int) -> str:
    body = prefix + "".join(RNG.choice(string.digits) for _ in range(length - len(prefix) - 1))
    for check in string.digits:
        digits = body + check
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch) * (2 if i % 2 else 1)
            total += d - 9 if d > 9 else d
        if total % 10 == 0:
            return digits
    raise AssertionError


def luhn_break(number: str) -> str:
    last = int(number[-1])
    return number[:-1] + str((last + RNG.randint(1, 9)) % 10)


def spaced(n: str) -> str:
    return " ".join(n[i : i + 4] for i in range(0, len(n), 4))


def iban(country: str, bban_len: int) -> str:
    bban = "".join(RNG.choice(string.digits) for _ in range(bban_len))
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    return spaced(f"{country}{check:02d}{bban}")


def corpus() -> list[tuple[str, str, str | None]]:
    """(key, text, expected rule or None)."""
    items: list[tuple[str, str, str | None]] = []
    brands = [("4", 16), ("51", 16), ("37", 15), ("6011", 16), ("35", 16)]
    for _ in range(60):
        prefix, length = RNG.choice(brands)
        card = luhn_complete(prefix, length)
        items.append(("note", RNG.choice([card, spaced(card), f"my card is {spaced(card)}"]), "payment_card"))
        items.append(("note", RNG.choice([luhn_break(card), f"order {luhn_break(card)}"]), None))
    for _ in range(40):
        a, b, c = RNG.randint(1, 665), RNG.randint(1, 99), RNG.randint(1, 9999)
        items.append(("note", f"my SSN is {a:03d}-{b:02d}-{c:04d}", "government_id"))
        items.append(
            ("note", f"call me on {RNG.randint(200, 999)}-{RNG.randint(200, 999)}-{RNG.randint(1000, 9999)}", None)
        )
        items.append(
            (
                "note",
                f"NI number {RNG.choice('ABCEGHJKLMNPRSTWXYZ')}{RNG.choice('ABCEGHJKLMNPRSTWXYZ')} "
                f"{RNG.randint(10, 99)} {RNG.randint(10, 99)} {RNG.randint(10, 99)} {RNG.choice('ABCD')}",
                "government_id",
            )
        )
        items.append(
            ("note", f"born {RNG.randint(1950, 2010)}-{RNG.randint(1, 12):02d}-{RNG.randint(1, 28):02d}", None)
        )
    for country, n in (("DE", 18), ("FR", 23), ("NL", 14), ("ES", 20), ("IT", 23)):
        for _ in range(8):
            good = iban(country, n)
            items.append(("note", f"pay to {good}", "bank_account"))
            bad = good[:-1] + str((int(good[-1]) + 1) % 10) if good[-1].isdigit() else good
            items.append(("note", f"reference {bad}", None))
    for _ in range(20):
        items.append(("note", f"my account number is {RNG.randint(10_000_000, 99_999_999)}", "bank_account"))
        items.append(("note", f"I have {RNG.randint(2, 9)} accounts at the bank", None))
    secrets = ["hunter2", "Tr0ub4dor&3", "correct horse battery staple", "qwerty123", "S3cr3t!"]
    for s in secrets:
        items += [
            ("note", f"my password is {s}", "secret"),
            ("wifi_password", s, "secret"),
            ("note", f"the pin code is {RNG.randint(1000, 9999)}", "secret"),
            ("note", "I forgot my password again and had to reset it", None),
            ("note", "the secret garden is my favourite book", None),
            ("note", f"my pin collection has {RNG.randint(20, 400)} pins", None),
        ]
    tokens = [
        "AKIA" + "".join(RNG.choice(string.ascii_uppercase + string.digits) for _ in range(16)),
        "sk-" + "".join(RNG.choice(string.ascii_letters + string.digits) for _ in range(40)),
        "ghp_" + "".join(RNG.choice(string.ascii_letters + string.digits) for _ in range(36)),
        "xoxb-" + "-".join(str(RNG.randint(10**9, 10**10)) for _ in range(2)),
    ]
    for t in tokens:
        items += [
            ("note", f"use {t} for the deploy", "secret"),
            ("note", f"build {t[:4].lower()}-{RNG.randint(1, 99)}", None),
        ]
    facts = [
        "my favourite colour is blue",
        "I live in Lisbon",
        "my daughter is 7",
        "I work at Acme as a nurse",
        "my flight is at 14:35 on 2026-12-03",
        "version 2.3.4-123-45 broke my build",
        "I run 5 km every morning",
        "my phone is +44 20 7946 0958",
        "I prefer window seats",
        "my postcode is SW1A 1AA",
    ]
    items += [("note", f, None) for f in facts]
    return items


def main() -> dict[str, object]:
    items = corpus()
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    wrong_rule = 0
    for key, text, expected in items:
        found = find_sensitive(text, key)
        got = None if found is None else found.rule
        if expected is None and got is not None:
            fp[got] += 1
        elif expected is not None and got is None:
            fn[expected] += 1
        elif expected is not None:
            tp[expected] += 1
            wrong_rule += got != expected
    rules = sorted(set(tp) | set(fp) | set(fn))
    per_rule = {}
    for r in rules:
        p = tp[r] / (tp[r] + fp[r]) if tp[r] + fp[r] else 1.0
        rc = tp[r] / (tp[r] + fn[r]) if tp[r] + fn[r] else 1.0
        per_rule[r] = {"precision": round(p, 4), "recall": round(rc, 4), "tp": tp[r], "fp": fp[r], "fn": fn[r]}
    all_tp, all_fp, all_fn = sum(tp.values()), sum(fp.values()), sum(fn.values())
    overall = {
        "precision": round(all_tp / (all_tp + all_fp), 4) if all_tp + all_fp else 1.0,
        "recall": round(all_tp / (all_tp + all_fn), 4) if all_tp + all_fn else 1.0,
        "positives": sum(1 for *_, e in items if e),
        "negatives": sum(1 for *_, e in items if not e),
        "rule_mismatches": wrong_rule,
    }
    path = write_results("sensitive_corpus", {"overall": overall, "per_rule": per_rule})
    print(
        f"Sensitive-data filter on {len(items)} generated samples ({overall['positives']} sensitive, {overall['negatives']} look-alikes)"
    )
    for r, v in per_rule.items():
        print(
            f"  {r:14s} precision {v['precision']:.3f}  recall {v['recall']:.3f}  (tp {v['tp']}, fp {v['fp']}, fn {v['fn']})"
        )
    print(f"  overall        precision {overall['precision']:.3f}  recall {overall['recall']:.3f}")
    print(f"  -> {path}")
    return {"overall": overall, "per_rule": per_rule}


if __name__ == "__main__":
    main()

"""Secret recall from held-out M's missed secrets (22a, session 12): the causes, not M's
samples. Each family is tested with hand-written variants in other languages, products and
layouts, read by the rules alone (the learned stage is retrained separately), and with its
look-alikes: the same words with no value, which no rule may refuse."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules

# 1. A one-time code in the shape its message prints it (3+3, 4+4, "G-" and six digits) after a
# word for "code" in any language and inflection, or quoted as the message came.
_PRINTED_CODES = [
    "a Wallapop comprador me pide el código que me llegó: 552 901, ¿se lo doy?",
    "Leboncoin : l'acheteur veut le code reçu « Votre code Leboncoin est 318 642 »",
    "Allegro: kupujący prosi o kod 447 120 z SMS-a, żeby odebrać paczkę",
    "Avito написал покупатель, просит код 609 314 для доставки",
    "OLX.ua: покупець просить код 281 907 з повідомлення",
    "Trendyol doğrulama kodunuz 604 118, kimseyle paylaşmayın diye yazıyor ama alıcı istiyor",
    "Bazoš kód 550 218 mi prišiel, kupujúci ho chce",
    "Blocket köparen vill ha koden 732 019 som kom på sms",
    "FINN.no kjøper spør etter koden 903 552",
    "Το OTP της τράπεζας είναι 774 205, πες μου αν το χρειάζεσαι",
    "Jiji: namba ya uthibitisho 905 331, mnunuzi anaiomba",
    "Kijiji buyer keeps asking for the verification code 665-402 that came by text",
    "미니 인증번호 443 017 알려달라고 하네요",
    "闲鱼验证码 502 447，买家让我发给他",
    "microsoft account backup code: 8841 2290",
    "Google: your code for the recovery is G-730215",
    'got this: "Your Mercari code is 40917" and the buyer wants it',
    'прийшло "Prom.ua: ваш код 58219", покупець просить',
]
_PRINTED_LOOK_ALIKES = [
    "I got an OTP from OLX but didn't share it with the buyer",
    "the verification code is in the app, don't ask me for it",
    "order code 830 215 for the sofa",
    "код ошибки 500 100 на терминале",
    "codice postale 001 200",
    "the price went from 120 000 to 135 000 Ft",
    "Trendyol kodu 100 000 TL indirim kampanyası",
    'okta said "invalid code" for 118 402 because it was already used',
    'the SMS said "your code will arrive shortly"',
]


@pytest.mark.parametrize("text", _PRINTED_CODES)
def test_a_printed_one_time_code_is_found_in_any_language(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize("text", _PRINTED_LOOK_ALIKES)
def test_a_code_word_with_no_code_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 2. A gift card's code: a bearer credential, by policy (docs/security.md), in every language.
_GIFT_CODES = [
    "Xbox gift card code 7QKM-X2PL-9TZR-44WB for your birthday!",
    "carte cadeau Fnac : code 7KQ2-X9PL-M4TZ pour l'anniversaire de Léa",
    "подарочная карта Ozon, код 4KXQ-77TZ-PLM2-9QWE, дарю сестре",
    "tarjeta regalo de Amazon: AQ7X-K2M9PZ-R4TB, es para tu cumple",
    "Steam gift card for the raffle: QW7E8R9T2Y3U4P",
    "Google Play card: 9KXQ2LMP4T7ZWB3R — redeem it before Friday",
]
_GIFT_LOOK_ALIKES = [
    "the gift card shows $0",
    "the gift card code is in the envelope, I didn't open it",
    "gift card code X7QK-88RT-2MZP-4B1C, already redeemed",
    "Gutscheincode WINTER15 bei Zalando, gilt bis sonntag",
    "gift card order number ORD-2291-4471 is on the receipt",
    "the voucher PRIYA-GIFT-2231 gives 10% off",
]


@pytest.mark.parametrize("text", _GIFT_CODES)
def test_a_gift_cards_code_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize("text", _GIFT_LOOK_ALIKES)
def test_a_gift_card_with_no_code_to_spend_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 3. Providers' keys: any "<name>_live_" key, Klaviyo's private "pk_" hex key, an API's key that
# is a UUID named in another language.
_KEYS = [
    "EASYPOST_KEY=ezak_live_9f2c4a7e1b8d03e6f5a1c0b9",
    "shippo token: shippo_live_0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b",
    "restream stream key re_live_4c9a2e7f1b8d0356 leaked in the screenshot",
    "klaviyo = pk_0e7a4c2f9b1d83e6a5f0c7b2d9e4f1a8c3",
    "clé API Mirakl : 7c2a9f40-1e83-4d6b-a5f0-92c8e1b37d64",
    "API-Schlüssel von Billbee: 2f4e6a8c-1b3d-4f5a-9c7e-0d2b4f6a8c1e",
]
_KEY_LOOK_ALIKES = [
    "pk_live_51HxYzAbCdEfGhIjKlMnOp is the publishable key for checkout.js",
    "Client-Id Ozon: 7c2a9f40-1e83-4d6b-a5f0-92c8e1b37d64",
    "ключ заказа 7c2a9f40-1e83-4d6b-a5f0-92c8e1b37d64",
    "use the shippo_live_ prefix for production keys, shippo_test_ for tests",
]


@pytest.mark.parametrize("text", _KEYS)
def test_a_providers_key_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize("text", _KEY_LOOK_ALIKES)
def test_a_keys_name_or_a_public_key_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 4. A login told as it went: the way in, then the user and the password joined by a slash or
# by "with".
_NARRATED = [
    "the router's page let me in with admin/Admin2023 straight away",
    "log in as j.perez@correo.es with Naranja-Valencia-19 and download the certificate",
    "signed in as pita.fifita using Kava!Bowl77 on the club laptop",
    "club website: logged into the CMS as treasurer / Ledger#2024 to fix the fees page",
]
_WAYS_IN = [
    "log in with Google / Apple, not with a password",
    "sign in with your email/password on the new page",
    "logged in as admin with 2FA this time",
    "login ratio is 3/4 this week",
]


@pytest.mark.parametrize("text", _NARRATED)
def test_a_login_told_as_it_went_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize("text", _WAYS_IN)
def test_a_way_of_logging_in_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 5. Codes named by the access they grant (pairing, restore, activation, security, access,
# transfer), in the shape an issuer prints them, with or without a separator.
_ACCESS_CODES = [
    "pairing code for the new Sonos: 4KQ7-9XMP, it's on the box",
    "restore code for my authenticator is 8ZK2QX4MPL7R, keep it safe",
    "Aktivierungscode für das Elster-Konto: 7KQ2 X9PL 4MTZ",
    "activatiecode DigiD app 5KXQ-8MPL-2TZW, kwam per brief",
    "code d'activation de l'Identité Numérique : 4KX7-PQ29",
    "código de activación del DNIe: 8XK2-QP47",
    "overschrijving: tenaamstellingscode 5520193847, de koper krijgt hem morgen",
]
_ACCESS_LOOK_ALIKES = [
    "the pairing code is in the app, not on the box",
    "JetBrains activation code for the student license expires 2025-09-30",
    "restore code expired, I asked for a new one",
    "device code version-2 is the old one",
]


@pytest.mark.parametrize("text", _ACCESS_CODES)
def test_a_code_named_by_the_access_it_grants_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize("text", _ACCESS_LOOK_ALIKES)
def test_an_access_codes_word_with_no_live_code_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 6. Locks and agreed words: a keypad's code ended by "*", a parcel locker's pickup code, a
# delivery box's or a door's code in Dutch and Finnish compounds, a parental control's code, a
# combination described at length, a service's code word in quotes, a wallet's counted words.
_LOCKS = [
    "bike shed keypad 4471# if the door sticks",
    "丰巢快递柜取件码 5-2-9-0-1-7，帮我取一下",
    "de code van de pakketkluis is 4-7-2-9-B",
    "de code van het fietsslot is 3-8-1-5",
    "ulko-oven koodi on 4271",
    "le code parental de la box est 2580",
    "Jugendschutz-PIN vom Receiver: 5531",
    "the combination for the padlock on the shed behind the greenhouse is 12-31-08",
    'Alarmfirma: unser Codewort für Rückrufe ist "Zitronenbaum"',
    "the 24 words for dad's ledger wallet: arch brisk cedar dune ember fable gaunt harbor ivory jolt kernel lumber"
    " mango nectar oyster pistol quarry rustic saddle timber umpire velvet walnut yonder",
]
_LOCK_LOOK_ALIKES = [
    "the keypad is broken, 3 of 4 keys stick",
    "the parental controls are on, the code is in my head",
    "write 12 words about autumn: leaves falling slowly golden amber crimson breeze chilly morning harvest pumpkin",
    'the code word "Edelweiß" appears in the song',
    "my 24 words for the ledger are in the safe, not here",
]


@pytest.mark.parametrize("text", _LOCKS)
def test_a_lock_or_an_agreed_word_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize("text", _LOCK_LOOK_ALIKES)
def test_a_lock_with_no_code_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 7. A security answer in French after "c'est", the account named between; the question itself
# quoted after "c'est" is no answer.
def test_a_french_answer_after_cest_is_found_and_the_question_passes() -> None:
    found = find_by_rules("la réponse à ma question secrète pour le compte Ameli c'est « Bouboule »")
    assert found is not None and found.rule == "secret"
    assert find_by_rules("la question secrète du compte Ameli c'est « ville de naissance », trop facile") is None

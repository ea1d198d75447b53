"""Secret precision from held-out M's wrong refusals (22b, session 12): texts that give a code
or a password that opens nothing, or name one and give none. Each family is tested with
hand-written variants that are not the corpus's samples, in several languages and layouts,
and with the look-alikes (the same words with a live value) that must still be found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. A value said to be dead in more ways: a keypad's verbs ("reprogrammed", "recoded",
# "rekeyed"), a word before the verb ("was force-reset", "it's been changed"), German's "wurde"
# with words between ("wurde aber im Sommer geändert"), said no longer to be it before the value
# ("is no longer 3319", "ya no es", "n'est plus", "ist nicht mehr"), a death in brackets between
# the name and the value, a quoted value with no digit, "the ... one/thing was removed", a
# temporary value said dead, where it was between "old" and the value.
_DEAD = [
    "the alarm panel code was 7731 until the installer reprogrammed it in March, it's dead now",
    "front door keypad was 4 0 9 2 but the landlord recoded the keypad, old one is dead",
    "bike shed lock combo was 6620, we rekeyed it over the summer",
    "Der Tresorcode im Büro war 8 8 1 4, wurde aber im Sommer geändert",
    "the staff room code was 3*3*7*1 last term but it's been changed since",
    "the shared folder password (Fjord!2019) was force-reset by IT after the breach",
    'the old guest wifi password at the cafe downstairs was "croissant" but we changed it',
    'the "Maple2020!" one was deleted when we moved to single sign-on',
    "the gate code is no longer 3319, ask the caretaker",
    "el pin de la alarma ya no es 5512, lo cambiaron los del seguro",
    "le code de l'immeuble n'est plus 4471 depuis lundi",
    "der Code vom Fahrradkeller ist nicht mehr 2290",
    "a senha do wifi não é mais Lua#2020",
    "code du portail (ne marche plus depuis les travaux) : 4B771",
    "Türcode Keller (funktioniert nicht mehr): 5521",
    "I reset the temporary password Start#2024 at first login, it's dead",
]
# The same words with a live value: a new value given, one still working, "if" it fails, a
# value given after its death, a bracket that says it is new, a temporary value to be changed.
_LIVE = [
    "the alarm panel code was 7731 and still works, nobody reprogrammed it",
    "the keypad was reprogrammed, the new code is 4471",
    "the gate code is no longer 3319, it's 8841 now",
    "ya no es 2819, ahora es 7730",
    "code du portail (nouveau depuis les travaux) : 4B771",
    "Türcode Keller (neu seit Montag): 5521",
    "the temporary password is Start#2024, change it at first login",
    "temporary password Start#2024, reset it after you log in",
    "I reset the temporary password to Start#2025",
    "if the old gate code 3319 doesn't work, try 3319#",
    'the old guest wifi password was "croissant", the new one is "Baguette#77"',
    "the shared folder password Fjord!2019 still works, it was never force-reset",
]


@pytest.mark.parametrize("text", _DEAD)
def test_a_value_said_to_be_dead_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _LIVE)
def test_a_live_value_beside_the_same_words_is_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


# 2. Talk about a password that gives none: a word saying there is none ("geen", "kein", "no",
# "sin"), where it is after a verb of place or on a thing it is printed on, what it is made of
# ("based on", "tied to"), whose it is with what happened to it in more languages ("wygasło",
# "verlopen"), a mail address under its label beside a password sent another way, and a
# placeholder behind a provider's prefix ("sk-your-key-here").
_NO_VALUE = [
    "opa heeft geen wachtwoord voor MijnOverheid.nl, alleen DigiD",
    "there's no password on the Guest_5G network, it's open",
    "kein Passwort für Moodle2 mehr nötig, Login läuft über Shibboleth",
    "Passwort liegt unter der Tastatur von PC-Raum3",
    "Ziggo-7B2F — wachtwoord op de sticker onder de modem",
    "my banking password is based on my mum's birthday, is that bad?",
    "the app PIN is tied to my SIM, right?",
    "hasło do Librus2 wygasło, co robić?",
    "wachtwoord voor Office365 verlopen, wat nu?",
    "Login-Daten:\nE-Mail: anna.k@posteo.de\nPasswort: (kommt per Post)",
    "template .env: GITHUB_TOKEN=ghp_your_token_here",
]
_NO_VALUE_LIVE = [
    "no password needed for the guest wifi, but the admin password is Router#2291",
    "Passwort liegt unter der Tastatur: Sommer#2024",
    "my password is based on my dog: Rex2016!",
    "Login-Daten:\nE-Mail: anna.k@posteo.de\nPasswort: Anna#Posteo22",
    "hasło do Librus2 to Kasia#2011",
    "the wifi password is Livebox-4A2F-Kiwi77",
]


@pytest.mark.parametrize("text", _NO_VALUE)
def test_talk_about_a_password_with_no_value_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


# (the rules pass it; the learned stage still refuses it: listed for 22e, who retrains it)
_NO_VALUE_RULES = ["the wifi password is printed on the sticker on the Livebox-4A2F"]


@pytest.mark.parametrize("text", _NO_VALUE_RULES)
def test_talk_about_where_a_password_is_printed_passes_the_rules(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _NO_VALUE_LIVE)
def test_a_password_given_beside_the_same_words_is_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


# 3. Games' own words ("in-game", a walkthrough, a spoiler, a puzzle box) and values public by
# design: a friend code, a Steam trade offer's link, an extended public key as written by hand,
# an app's public client id named in brackets.
_PUBLIC_OR_MADE_UP = [
    "the in-game code for the vault in Fallout is 4-2-7-1",
    "walkthrough says the safe combination in chapter 3 is 2-9-1-7",
    "spoiler: the door code in the last level is 0451",
    "puzzle box from the toy shop, its lock code 5-2-8 is printed in the manual",
    "Switch friend code SW-1234-5678-9012, add me for Animal Crossing",
    "mein Freundescode: 1234 5678 9012",
    "my trade link: https://steamcommunity.com/tradeoffer/new/?partner=99887766&token=Ab3dEf9H",
    "watch-only wallet: xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD2",
    "OAuth app's public client id: 4b7c9d2e1f0a3b5c6d8e9f1a2b3c4d5e, for the login button",
]
_REAL_BESIDE = [
    "in-game my account password is Zelda#Link77",
    "friend code 1234 5678 9012, and my account password is Poke#Mon2024",
    "the garage door code is 4471 and the kids play a game in there",
]


@pytest.mark.parametrize("text", _PUBLIC_OR_MADE_UP)
def test_a_public_or_made_up_value_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _REAL_BESIDE)
def test_a_real_secret_beside_them_is_found(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"

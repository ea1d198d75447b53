"""Review of session 12 (rv9): look-alikes that main refused, written as field workers, clubs,
shared houses, logs and scanned papers put them in an assistant's memory, each seen red on
main before its fix, and the values of the same kind that must stay found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


# 1. A lock's word, then "is" in one of its languages ("er", "to", "on", "es") before the digits:
# the word was matched inside another word, so a customer's, an order's or an engineer's number
# near a door, a gate or an alarm was its code.
@pytest.mark.parametrize(
    "text",
    [
        "Garage door repaired for customer 88213, invoice to follow",
        "Gym locker combo lock broke again, they gave me locker 118 instead",
        "alarm went off at 3am again, the engineer 4471 is coming Monday",
        "Ring the buzzer for the porter 118 if nobody answers",
        "padlock cutter from the hire shop, order 88213",
        "gate sensor swapped, see photo 2281 in the album",
        "grandma's complex has a gate with a callbox, dial 014 to reach her unit",
    ],
)
def test_a_number_after_a_word_ending_like_is_is_no_lock_code(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "door code is 4471",
        "safe is 28-04-61",
        "combo lock: 3-9-0-6",
        "bike lock 3-9-0-6",
        "the gate code is 5581#",
        "garage er 4471",
        "Tür ist 4471",
        "la puerta es 2580",
        "the shed lock, it's 1942",
        "safe was 2207",
        "padlock set to 2207",
        "Kiosk unlock: hold the logo 5s, enter 271828",
    ],
)
def test_a_lock_code_stays_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


# 2. A code's word, then the last digits of the phone or the card it went to or belongs to
# ("sent to your phone ending 2281", "the PIN for the card ending in 4471"): those digits say
# which phone or card, and are no code. In the languages that say it with a word before the
# digits, and Turkish, which says it after them.
@pytest.mark.parametrize(
    "text",
    [
        "Verification code sent to your phone ending 2281. It expires in 10 minutes.",
        "We sent a verification code to the number ending in 4471",
        "Enter the PIN for the card ending 4471",
        "the PIN for my card ending in 4471 is in my head, not here",
        "security code sent to the mobile that ends with 2281",
        "Kode verifikasi dikirim ke nomor berakhiran 2281",
        "Doğrulama kodu 2281 ile biten numaraya gönderildi",
        "PIN do cartão final 4471 fica comigo, não anoto",
    ],
)
def test_the_last_digits_of_a_phone_or_card_are_no_code(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Verification code sent to your phone ending 2281: 604913",
        "passcode for the card ending in 4471 is 0917",
        "PIN 4471",
        "Kode verifikasi 604913",
        "Doğrulama kodu 604913",
    ],
)
def test_a_code_beside_the_last_digits_stays_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


# 3. A locker's, a flat's or a house's number, then the code's word and the way the code will
# come ("Your parcel is in locker 4471, code sent by SMS"): the number says where; the code is
# in the message, not in the text.
@pytest.mark.parametrize(
    "text",
    [
        "InPost: paczka czeka w paczkomacie WAW118M, kod odbioru w aplikacji",
        "Your parcel is in locker 4471, code sent by SMS",
        "flat 4B at no. 2281, code sent by WhatsApp the day before",
        "Colis au casier 4471, code envoyé par SMS",
        "Pacco nel locker 2281, codice di ritiro nell'app",
        "Pakket in kluis 4471, ophaalcode staat in de app",
        "we're in cabin 2281, the code comes by text on the day",
    ],
)
def test_a_places_number_before_a_code_that_will_come_is_no_code(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Parcel code 582913 sent by SMS",
        "448120 is your code, sent by SMS",
        "551 204 — o código do SMS",
        "locker 14: code from the SMS is 582913",
        "kod odbioru z SMS: 582913",
        "kod odbioru z paczkomatu 638 204 — możesz odebrać paczkę z InPostu przy Biedronce?",
    ],
)
def test_a_code_that_came_stays_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


# 4. A Wi-Fi password said to be elsewhere (on the router, on the fridge), then the network's
# name: the name is what the guest picks, not the password.
@pytest.mark.parametrize(
    "text",
    [
        "Wifi-Passwort steht auf der Rückseite vom Router, Name ist FRITZ!Box 7590 XY",
        "WLAN-Passwort klebt unten am Router, Netzwerkname: FRITZ!Box 6660 Cable QR",
        "Das WLAN Passwort ist auf dem Zettel, SSID: Vodafone-A4F2",
        "La contraseña del wifi está en la nevera, red: MOVISTAR_A4F2",
        "mot de passe wifi sur la box, nom du réseau : Livebox-A4F2",
        "senha do wifi tá no roteador, nome da rede: NET_2G4F2A",
        "Hasło do wifi jest na routerze, nazwa sieci: UPC_A4F2x9",
        "Wifi şifresi modemin altında, ağ adı: TurkTelekom_TA4F2",
        "wifi password is on the fridge, network name is BT-Hub6-X2F9",
    ],
)
def test_a_networks_name_after_a_password_kept_elsewhere_is_no_password(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Wifi-Passwort: Zitrone!Baum77, Name ist FRITZ!Box 7590 XY",
        "SSID: Vodafone-A4F2, WLAN Passwort Sommer2024!Haus",
        "senha do wifi: Praia#2024Sol, nome da rede: NET_2G4F2A",
        "wifi password is Otter!Lamp42 (network name is BT-Hub6-X2F9)",
        'saved: "bluebell42" = wifi pw at grandma\'s (network name is BTHub-7F2A)',
    ],
)
def test_a_wifi_password_beside_its_networks_name_stays_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


# 5. An SSN's spaced form inside a longer spaced number (a meter's supply number as a scanned
# bill prints it, "S 01 801 100 12 3456 7890 123"; a customer number in groups): digits run on
# before and after it, so it is a piece of that number.
@pytest.mark.parametrize(
    "text",
    [
        "Utility: Customer ref 4471 2281. Meter serial E12Z88213. Supply number S 01 801 12 3456 7890 123",
        "MPAN: S 01 801 100 12 3456 7890 123",
        "Gas MPRN 7 412 28 1904 9",
        "Cust no 2024 118 22 8131 07, pay by 12/12",
    ],
)
def test_an_ssns_spaced_form_inside_a_longer_number_is_no_ssn(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "SSN 123 45 6789",
        "my ssn is 801 12 3456",
        "SSN: 801 12 3456 (DOB 04 05 1988)",
        "social security 801 12 3456 4471 is his phone",
        "801-12-3456 7890",
    ],
)
def test_an_ssn_beside_other_numbers_stays_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "government_id"


# 6. (2f6082b, organisations.py) An aside after a person's tax number that says what an
# organisation does with it ("(escola pediu para a matrícula)": the school asked for it) read as
# the organisation owning the number: a child's or a parent's NIF for a school form was no id.
# The aside names the holder only when the organisation ends it, with one word at most after it
# ("(clinic)", "(es una fundación)", "(szkoła językowa, do faktury)").
@pytest.mark.parametrize(
    "text",
    [
        "NIF do Tiago: 123456789 (escola pediu para a matrícula)",
        "NIF 123456789 (a escola pediu para a matrícula do Tiago)",
        "Tax ID 123456789 (club membership form)",
    ],
)
def test_an_organisation_doing_something_with_a_persons_number_does_not_own_it(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "NIP: 5260250274 (szkoła językowa, do faktury)",
        "Tax ID 47-3310294 (charity), goes on the gift aid form",
        "RUT 71.543.200-4 (es una fundación) para la boleta de la matrícula",
        "NIF da escola para a fatura: 600 012 344 (entidade pública, está no site)",
    ],
)
def test_an_aside_naming_the_organisation_still_owns_the_number(text: str) -> None:
    assert find_by_rules(text) is None


# 7. (064ca65, printed_codes.py) A number in a one-time code's printed shape after "code" was
# read as a one-time code when the code's word named an order, a booking, a survey or a barcode
# in a language the list of other codes lacked (review rv9, 6 of 11 look-alikes refused).
@pytest.mark.parametrize(
    "text",
    [
        "kod zamówienia 482 913, dostawa jutro",
        "A rendelési kódod 720 315, szállítás holnap",
        "κωδικός παραγγελίας 629 104",
        "código de reserva 482 913 para el hotel",
        "Teilnehmercode 482 913 für die Umfrage",
        "code barre 720 315 sur l'étiquette",
        "numer rezerwacji i kod rezerwacji 482 913 w mailu",
    ],
)
def test_an_orders_or_bookings_code_in_a_one_time_codes_shape_is_no_secret(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    ["kod z SMS 482 913, nie podawaj nikomu", "A Jófogás kódod: 720 315", "código de verificação 482 913"],
)
def test_a_one_time_code_beside_those_words_stays_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"

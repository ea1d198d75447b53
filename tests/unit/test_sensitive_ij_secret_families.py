"""Secret families from held-out I and J's misses (19a, session 9): each family tested with
hand-written variants that are not the corpus's samples, in several languages, and the
look-alikes (same words, same shapes, no secret) that must keep passing."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. A security question's answer named "secret answer", "respuesta de seguridad", "risposta
# alla domanda di sicurezza", or given after the question as "→ A: ...", with a quoted answer
# that does not end the line.
_SECURITY_ANSWERS = [
    'my secret answer is "Marmalade" (the cat)',
    "the secret answer for the bank is Thornbury",
    "Security Q: first school → A: St Brigid's",
    "security question: mother's maiden name -> A: Okafor",
    'la respuesta de seguridad es "Pelusa" (mi primer gato)',
    "mi respuesta secreta es Valdivia",
    'la risposta alla domanda di sicurezza è "Nonna Rosa", con la maiuscola',
    'a resposta da pergunta de segurança é "Tobias", sem acento',
    'ma réponse secrète est "Biscotte", avec une majuscule',
]
_NO_SECURITY_ANSWER = [
    "security word for my bank wasn't accepted, can I reset it online?",
    "the security answer wasn't recognised so they sent a letter",
    "Security Q: first school → caller couldn't remember, verified by SMS instead",
    "Security Q: mother's maiden name → customer didn't know, passed via the app",
    "la respuesta de seguridad no la recuerdo, ¿me la pueden restablecer?",
    "what's a good secret answer that I won't forget?",
    "the secret answer is case sensitive, remember that",
]


@pytest.mark.parametrize("text", _SECURITY_ANSWERS)
def test_a_security_answer_named_in_more_ways_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NO_SECURITY_ANSWER)
def test_a_security_question_without_its_answer_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


# 2. A one-time code named with the way it came (SMS, e-mail, an app) or what it is given for
# (to collect a parcel, to release it), where the code's word alone says too little.
_SENT_CODES = [
    "the code from the email is K4T-9PX-22Q",
    "reset code from the email: 7XK2P9",
    "code de confirmation reçu par SMS : 512 407",
    "código de confirmación por SMS: 66 20 91",
    "recebi o código 448 120 por SMS, passo para o atendente?",
    "kód z SMS je 55 81 20",
    "ho ricevuto il codice via SMS: 880 412",
    "收到验证码 551 204，要告诉客服吗",
    "인증번호 [662 018] 받았습니다",
    "inlogcode van de app: 55921",
    "o token do banco apareceu 551 902 no app",
    "code de vérification Wave : 44 81 20, ne le donne à personne",
    "the pickup code for the pharmacy is 6621",
    "code to collect the parcel at the post office: 7719",
    "the courier asked for the release code, it's 4821",
    "Abholcode für die Packstation: 661 204",
    "code de retrait colis : 448 201",
    "código de recogida del paquete 55 81 20",
    "the code I'm supposed to give the driver to release the sofa is 5512",
    "551 204 is the code from the SMS",
    "448120 é o código do app",
]
_NO_SENT_CODE = [
    "the SMS with the code never arrived, tried 3 times",
    "text STOP to 88022 to unsubscribe from SMS codes",
    "the verification code from the app expires after 10 minutes",
    "order confirmation code 4471 by email",
    "booking confirmation code by email: KXR4P2",
    "code de confirmation de commande envoyé par email : 4471",
    "tracking code from the email is 1Z999AA10123456784",
    "pickup number 42 at counter 3",
    "parcel locker 4471 at Tesco, pickup by 6pm",
    "the SMS code arrived at 10:42",
    "the reset code was texted to +44 7700 900123",
    "the login code screen of the app changed in version 4.2.1",
    "pickup code expires in 3 days, collect before Friday",
    "flat 4417 on the third floor (the code is in the app)",
    "the office number is 3318 and the code for the post room is in the email",
    'tool result: {"otp_sent":true,"channel":"sms","masked_phone":"+44 ******8812"}',
]


@pytest.mark.parametrize("text", _SENT_CODES)
def test_a_code_named_by_how_it_came_or_what_it_releases_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NO_SENT_CODE)
def test_an_order_booking_or_tracking_code_a_time_or_a_phone_number_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 3. Values public by design that look like secrets: a key named public then what it is for,
# an extended public key, a wallet's address after its word, a Firebase web config's apiKey,
# a Twilio resource's SID. What a name says is private, and a provider's secret format, stay.
_PUBLIC_BY_DESIGN = [
    "the server's wireguard public key for the office tunnel is Hq3vX9mL2pR7tK4wN8yB1cF6gJ0sD5aE2uZ9oI3rT7k=",
    "my age public key for the backups: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
    "chave pública do Mercado Pago: APP_USR-7c1d9e2a-4b3f-4a8e-9d0c-2e1f3a4b5c6d, vai no checkout",
    "watch-only wallet: zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs",
    "send the refund to my TRC20 address TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    "dirección de mi wallet de Solana: 9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    'const firebaseConfig = { apiKey: "AIzaSyC4pL9qW2eR5tY8uI1oP3aS6dF9gH2jK5l", authDomain: "recipes-9a1f.firebaseapp.com" }',
    "messaging service SID MG3f9c2a17e4b0d8c6a5f1e2d3b4c5a6f7, sender pool of 3 numbers",
]
_STILL_SECRET = [
    "the server's wireguard private key is Hq3vX9mL2pR7tK4wN8yB1cF6gJ0sD5aE2uZ9oI3rT7k=",
    "public key for stripe is pk_live_51Hx, the secret one is sk_live_51HxQ2pL9aZ8bK7cJ6dM5eN4fO3gP2hQ1i",
    "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LHF5NDjtrkdrjmJkAHVZUkdRXuRz8wyLke",
    "solana private key: 4Z7cXSyeFR8wNGMVXUE1TwtKn5D5Vu7FzEv69dokLv7KrQk7h6pu4XqLQmLeBvF8RJ1mHXP2Y8zMuz9Nk3aPfpe8",
    'const config = { apiKey: "AIzaSyC4pL9qW2eR5tY8uI1oP3aS6dF9gH2jK5l", maps: true }',
    "Twilio auth token 8f3c2a17e4b0d8c6a5f1e2d3b4c5a6f7b, account AC3f9c2a17e4b0d8c6a5f1e2d3b4c5a6f7",
]


@pytest.mark.parametrize("text", _PUBLIC_BY_DESIGN)
def test_a_value_public_by_design_passes_the_rules(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _STILL_SECRET)
def test_a_private_key_or_a_providers_secret_beside_them_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 4. A secret's word with what happened to it or how it is used where its value would be,
# a bank's branch code, a locker's id, a queue's ticket ("senha"): no value given.
_NAMED_WITHOUT_A_VALUE = [
    "password auth disabled in sshd_config, keys only",
    "my email password was hacked last year, changed all of them since",
    "le mot de passe du wifi est affiché dans la cuisine",
    "the guest wifi password is posted at the front desk",
    "na fila do INSS, minha senha é C045",
    "senha de atendimento B112, guichê 3",
    "FNB branch code 250655, universal for all accounts",
    "the locker code didn't work, locker id 4471, row 3",
]
_NAMED_WITH_A_VALUE = [
    "my password is hunter2 and it was hacked",
    "the wifi password is Kiwi!Fruit7, posted at the front desk",
    "senha do banco: 4471",
    "the locker code is 4471",
    "le mot de passe du wifi est Soleil!Cuisine42, affiché dans la cuisine",
    "senha do app do banco: Fila#2024",
]


@pytest.mark.parametrize("text", _NAMED_WITHOUT_A_VALUE)
def test_a_secret_named_without_its_value_passes_the_rules(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _NAMED_WITH_A_VALUE)
def test_the_same_words_with_a_value_are_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 5. A card's PIN or code in more words (Mexico's and Quebec's "nip", "code confidentiel",
# "cryptogramme", Italy's "codice dispositivo"), a lock named by what it keeps (a vault, a
# deposit box, a car radio's anti-theft code), an aside in brackets between a secret's word and
# its value, a device's password of digits after a German compound.
_CODES_AND_LOCKS = [
    "mi nip del banco es 4471, no se lo den a nadie",
    "le nip de ma carte est 8812",
    "mon code confidentiel est 5 5 2 1",
    "le cryptogramme au dos c'est 472",
    "ho dettato il codice dispositivo 77104 all'operatore",
    "vault code for the coin collection: 31-07-58",
    "the deposit box code is 60-21-44, key with my brother",
    "radio code for the old Astra is 5179",
    "exchange withdrawal password (6 digits, not the login one): 551902",
    "PIN karty (tej z mBanku) 7719",
    "Routerpasswort 40918822 steht auf dem Aufkleber",
]
_NOT_CODES_OR_LOCKS = [
    "a nip of the 1990 port after dinner",
    "the bank vault was built in 1923",
    "Vault version 1.15.2 is out, upgrade the cluster",
    "deposit box number 214 at the Main Street branch",
    "radio station 1049 plays jazz all night",
    "password (see the vault) for the router is in 1Password",
    "the PIN (4 digits) is required at checkout",
    "Routerpasswort geändert am 12.03.2024",
]


@pytest.mark.parametrize("text", _CODES_AND_LOCKS)
def test_a_card_code_a_kept_lock_or_an_aside_before_the_value_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_CODES_OR_LOCKS)
def test_the_same_words_without_a_code_pass_the_rules(text: str) -> None:
    assert find_by_rules(text) is None


# 6. A wallet's recovery phrase after "seed" beside a wallet's word, in French, Spanish,
# Portuguese, German, or numbered one word each after "word 1".
_RECOVERY_PHRASES = [
    "seed for the trezor (keep offline): ripple mango civil harbor thunder pilot agree invest cushion maple toast usual",
    "phrase de récupération: olive brave toucan light marble pencil ridge coast hazard tunnel window acid",
    "frase semilla de la billetera: olive brave toucan light marble pencil ridge coast hazard tunnel window acid",
    "backup in the safe note: word 1 scout, 2 velvet, 3 absurd, 4 rain, 5 fossil, 6 denial, 7 orbit, 8 candy, "
    "9 wheat, 10 shrimp, 11 vital, 12 glad",
]
_NO_RECOVERY_PHRASE = [
    "shopping list: 1 eggs, 2 milk, 3 bread, 4 apples, 5 pears, 6 rice, 7 beans, 8 flour, 9 sugar, 10 butter, "
    "11 cheese, 12 onions",
    "seed list: carrots onions leeks beans peas kale chard beets radish garlic mint sage",
    "the seed phrase is on the steel plate in the safe, never typed anywhere",
]


@pytest.mark.parametrize("text", _RECOVERY_PHRASES)
def test_a_recovery_phrase_named_in_more_ways_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NO_RECOVERY_PHRASE)
def test_a_list_of_words_that_is_no_recovery_phrase_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 7. Provider and tool formats: Mailgun's key-<32 hex>, a password printed by a tool's
# --password-command; a command that reads it from elsewhere gives none.
_TOOL_SECRETS = [
    'curl -s --user "api:key-9c1e5b2d8f4a6c0e9b7d1f3a5c8e3a9f" https://api.mailgun.net/v3/x/messages',
    'borg-style: restic backup --password-command "echo Harbor!Lamp77" ~/docs',
]
_TOOL_POINTERS = [
    'restic backup --password-command "pass show restic/nas" ~/docs',
    "restic backup --password-command 'echo $RESTIC_PASSWORD' ~/docs",
    "mailgun key is in the vault under key-name mailgun-prod",
]


@pytest.mark.parametrize("text", _TOOL_SECRETS)
def test_a_tools_secret_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _TOOL_POINTERS)
def test_a_tool_that_reads_its_secret_from_elsewhere_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 8. Developer and export text that names a secret and gives none: MySQL's "(using password:
# YES)", an export's header row, a variable's name where a secret is kept, a key's note with a
# count written with its thousands.
_DEV_TEXT_WITHOUT_A_SECRET = [
    ("", "ERROR 1045 (28000): Access denied for user 'app'@'172.18.0.4' (using password: YES)"),
    ("", "Access denied for user 'report'@'localhost' (using password: NO)"),
    ("", '"name","url","username","password","totp"\n"GitHub","https://github.com","mira","",""'),
    ("", "the deploy token lives in the repo secret DEPLOY_TOKEN, the action reads it from there"),
    ("maps_api_key", "paid tier, 25,000 loads/month, key in the CI settings"),
    ("", '"title","login","password","notes"\n"Epic","ka_tk","********","(hidden)"\n"Uplay","ka_tk","",""'),
    ("", "name,password,note\nname,password,note"),
]
_DEV_TEXT_WITH_A_SECRET = [
    ("", "mysql -u app -p'Harbor!Lamp77' -h db.internal"),
    ("", '"name","url","username","password"\n"GitHub","https://github.com","mira","Tulip#Field42"'),
    ("", "title,login,password,otpauth\nSteam,gamer_tk,Volcano!Dust9,"),
    ("", "the deploy token is Xk9!mPq2rT7vLw4z, the action reads it from there"),
    ("maps_api_key", "AIzaSyC4pL9qW2eR5tY8uI1oP3aS6dF9gH2jK5l"),
]


@pytest.mark.parametrize(("key", "text"), _DEV_TEXT_WITHOUT_A_SECRET)
def test_dev_text_naming_a_secret_without_one_passes_the_rules(key: str, text: str) -> None:
    assert find_by_rules(text, key) is None


@pytest.mark.parametrize(("key", "text"), _DEV_TEXT_WITH_A_SECRET)
def test_dev_text_with_the_secret_is_found(key: str, text: str) -> None:
    assert find_by_rules(text, key) is not None


# 9. A number beside a PIN's word that is a helpline's or a year it was set, a booking's code
# in Indonesian; a password in brackets said to be the current one.
_NOT_A_PIN_NUMBER = [
    "jazzcash ka mpin bhool gaya, hotline 4444 pe call karo",
    "card PIN reset, helpline 0800 123 456 open till 8",
    "mobile banking passcode set 2021, security questions set too",
    "kode booking Lion Air QWE7R2, nomor kursi 14C",
]
_A_PIN_OR_PASSWORD = [
    "jazzcash mpin 5512, don't tell anyone",
    "the passcode set to 4471 yesterday",
    "my app passcode 2023 is my birth year",
    "note: change the nas admin pw (currently Velvet!Otter3) before friday",
    "wifi pw (now Harbor!Lamp77), the old one is gone",
]


@pytest.mark.parametrize("text", _NOT_A_PIN_NUMBER)
def test_a_helpline_a_year_set_or_a_booking_code_beside_a_pin_word_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _A_PIN_OR_PASSWORD)
def test_a_pin_or_a_current_password_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 10. A code asked for in a call's or a chat's turn and said in the customer's next turn
# (spoken digits too), and a code read off a bank's card reader.
_CODES_IN_THE_NEXT_TURN = [
    "Agent: can I take the telephone passcode? Customer: sure, it's seven seven one nine",
    "AGENTE: ¿me confirma el PIN? CLIENTE: sí, es 8812",
    "Rep: please pick a new PIN. Caller: okay, 4410",
    "Operator: read me the one-time code please. Customer: 55 81 20, no wait, 558120",
    "the code from my card reader is 8 8 1 2 0 4",
    "Agent: For security, I've sent a 6-digit code to your phone. Could you read it back?\nCustomer: 552 190\nAgent: Thanks",
]
_NO_CODE_IN_THE_NEXT_TURN = [
    "Agent: please choose a new 6-digit PIN in the app. Customer: done, thanks",
    "Agent: can you confirm your PIN? Customer: I'd rather not, can you send a code instead?",
    "Agent: can you confirm your date of birth and PIN? Customer: I was born in 1984",
    "Agent: what's the reference on the letter? Customer: it's 55120",
    "Agent: and your PIN? Customer: my account number is 40871234, the PIN I don't have",
    "the card reader model 4471 costs 12 pounds",
    "the card reader at the bakery printed ************4471 on the slip",
    "Agent: what's the reference code on the letter?\nCustomer: 55120",
    "Agent: I sent a code to your email\nCustomer: it hasn't arrived after 20 minutes",
]


@pytest.mark.parametrize("text", _CODES_IN_THE_NEXT_TURN)
def test_a_code_said_in_the_turn_after_it_was_asked_for_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NO_CODE_IN_THE_NEXT_TURN)
def test_a_turn_with_no_code_or_another_number_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 11. A password's word followed by the login's name, not the password ("forgot the password,
# username ..."), or by null in an export's JSON.
_LOGIN_NAME_OR_NULL = [
    "نسيت كلمة السر للموقع، اسم المستخدم sara.m91",
    "olvidé la contraseña, nombre de usuario maria.k77",
    '{"name":"nas","login":{"username":"root","password":null},"notes":"use the key"}',
]
_PASSWORD_BEFORE_THE_LOGIN_NAME = [
    "parola Ronda#Toledo19, kullanıcı adı maria.k77",
    "hasło Lipa#Kwiat2020, nazwa użytkownika ola.k",
    '{"name":"nas","login":{"username":"root","password":"Kelp!Harbor19"},"notes":"router"}',
]


@pytest.mark.parametrize("text", _LOGIN_NAME_OR_NULL)
def test_a_login_name_or_null_after_a_password_word_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _PASSWORD_BEFORE_THE_LOGIN_NAME)
def test_a_password_before_the_login_name_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 12. A quoted password after where it is used and its copula ("password in wow is "..."");
# where it is kept, quoted, names a place.
_QUOTED_AFTER_A_PLACE = [
    'my guild password in eve is "pods all the way down"',
    'mi contraseña en steam es "atún con queso"',
]
_QUOTED_PLACE = [
    'the password is in 1Password under "Bank"',
    'das Passwort im Ordner "Privat" ist gespeichert',
    'my password in the app is "hidden"',
]


@pytest.mark.parametrize("text", _QUOTED_AFTER_A_PLACE)
def test_a_quoted_password_after_where_it_is_used_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _QUOTED_PLACE)
def test_a_quoted_place_where_a_password_is_kept_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 13. A password described, then given after "like" ("my dog's name and year, like Bailey2017").
_DESCRIBED_THEN_GIVEN = [
    "my new password is the street and the year, like Elmwood1998, is that ok?",
    "Caller: can the new password be my son's name plus 2 digits, like Oscar07? Agent: please choose a longer one",
]
_DESCRIBED_ONLY = [
    "the password should be long, like a sentence",
    "password rules: long, like twelve characters or more",
]


@pytest.mark.parametrize("text", _DESCRIBED_THEN_GIVEN)
def test_a_password_described_then_given_after_like_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _DESCRIBED_ONLY)
def test_a_password_described_without_a_value_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 14. A key that ends in the answer to a password's hint is the answer, not the hint.
_ANSWER_KEYS = [("pw_hint_answer", "biscuit"), ("password.hint.answer", "Lisbon"), ("pin_question_answer", "Rex")]
_HINT_KEYS = [
    ("password_hint", "name of my first cat"),
    ("answer_hint", "my first cat"),
    ("quiz_answer", "Lisbon"),
    ("pw_hint_answer", "see the notebook"),
]


@pytest.mark.parametrize(("key", "text"), _ANSWER_KEYS)
def test_a_value_under_a_hints_answer_key_is_found(key: str, text: str) -> None:
    assert find_by_rules(text, key) is not None


@pytest.mark.parametrize(("key", "text"), _HINT_KEYS)
def test_a_hint_or_another_answer_under_its_key_passes(key: str, text: str) -> None:
    assert find_by_rules(text, key) is None


# 15. A network's key written as its 16 bytes (Zigbee's network_key).
_BYTE_KEYS = [
    "zigbee2mqtt advanced:\n  network_key: [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 13]",
    "Netzwerkschlüssel vom Zigbee-Stick: [12, 200, 7, 91, 33, 4, 250, 18, 66, 9, 140, 77, 3, 201, 58, 120]",
]
_NOT_BYTE_KEYS = [
    "network key: [1, 2, 3]",
    "pan_id: [26, 98, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]",
    "the network key is a list of 16 bytes like [1, 2, ...]",
]


@pytest.mark.parametrize("text", _BYTE_KEYS)
def test_a_network_key_written_as_bytes_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_BYTE_KEYS)
def test_a_short_list_or_another_settings_bytes_pass(text: str) -> None:
    assert find_by_rules(text) is None

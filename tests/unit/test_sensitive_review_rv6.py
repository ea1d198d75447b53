"""Review rv6 (session 9) of the rules landed for held-out I and J: the look-alikes those rules
refused or let through, written in the same words and domains (developer, business, medical,
customer service), each seen failing on main before its fix."""

from __future__ import annotations

import time

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. (review of 40a2069) A vault or a deposit box opens with a code only when a code is named:
# HashiCorp Vault's port, TTLs and counts, a box's fee, are no lock's code.
_NO_LOCK_CODE = [
    "Vault is listening on 8200, the UI too",
    "vault server started on 8200 with the raft backend",
    "the Vault lease TTL is 86400 seconds",
    "vault token ttl=3600 in the policy",
    "HashiCorp Vault: 1204 secrets migrated last night",
    "the deposit box rental is 4500 per year, billed in March",
    "our vault inventory: 1200 bars",
]
_LOCK_CODE = [
    "vault code for the coin collection: 31-07-58",
    "the vault combination is 24-11-37",
    "the deposit box code is 60-21-44, key with my brother",
    "deposit box pin: 4471",
    "strongbox code 5521",
]


@pytest.mark.parametrize("text", _NO_LOCK_CODE)
def test_a_vault_or_a_deposit_box_without_a_code_word_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _LOCK_CODE)
def test_a_vaults_or_a_deposit_boxs_code_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 2. (review of 8129573) A code's word and a channel's word in one clause are not a one-time
# code when the code is a program's, a billing's, an SMS provider's status, or a count.
_NOT_A_SENT_CODE = [
    "SMS delivery failed with code 30007 (carrier filtering), retrying tomorrow",
    "Billing code 99213 per the email from the clinic",
    "the app's source code has 12000 lines now",
    "Received the code review for PR 4821 by email this morning",
    "app versionCode is now 1042 after the release",
    "the SMS template code 4410 is approved by the carrier",
    "the campaign code 2024Q3 went out by text",
    "the email says diagnosis code 4019 was billed twice",
    "the app returned code 5003 when the text was sent",
    "the email bounced with code 5501",
    "o SMS falhou com código de erro 30007",
    "le SMS a échoué, code erreur 30007",
    "SMS fehlgeschlagen, Fehlercode 30007",
]
_STILL_A_SENT_CODE = [
    "the code from the email is 448120",
    "the app code is 551902, it expires soon",
    "SMS code 448 120, don't share it",
    "the code I got by text is 7719",
]


@pytest.mark.parametrize("text", _NOT_A_SENT_CODE)
def test_a_programs_or_a_billings_code_beside_a_channel_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _STILL_A_SENT_CODE)
def test_a_code_that_came_by_a_channel_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 3. (review of c8bafaf) A company is named by its legal form and its registration number's
# word, not by German's article "ein", a "house" or a "bin": a seller's or a supplier's word
# beside them does not make a person's id a company's.
_PERSONS_ID_BESIDE_A_SELLER = [
    "der Lieferant braucht ein Dokument: meine Sozialversicherungsnummer 65 170839 J 003",
    "my Aadhaar 2345 6789 0123 for the vendor, documents are in the shared bin",
    "merchant form: national insurance number QQ 12 34 56 C, see house rules",
    "my Aadhaar 2345 6789 0123 for the house seller's agreement",
]


@pytest.mark.parametrize("text", _PERSONS_ID_BESIDE_A_SELLER)
def test_a_persons_id_beside_a_sellers_word_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 4. (review of 9780139) An e-wallet's name is also a person's (Maya, Momo, Dana) and a word
# ("rocket"): a number is the wallet's phone only when the wallet is named at its account.
_A_PERSONS_BANK_ACCOUNT = [
    "Maya's account number is 41222919",
    "please pay Maya's account 41222919 sort code 30-94-57 by Friday",
    "Momo's account number is 41222919",
    "Dana's account number is 0123456789 with GTBank",
    "rocket emoji aside, my account number is 0123456789 (Zenith)",
]
_A_WALLETS_PHONE = [
    "GCash account 0917 555 0142",
    "Maya account 09175550142",
    "my MoMo account is 0244 123 456",
    "bKash account: 01712 345678",
]


@pytest.mark.parametrize("text", _A_PERSONS_BANK_ACCOUNT)
def test_an_account_of_a_person_named_like_a_wallet_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _A_WALLETS_PHONE)
def test_an_e_wallets_phone_at_its_account_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 5. (review of 12b5140) A "pass" column is a result's or a travel pass's, unless the table
# names whose login it is; Bitwarden's "login_password" column is a password's.
_NO_EXPORTED_PASSWORD = [
    "student,score,pass\nAna,78,PASS\nBen,41,FAIL",
    "rider,zone,pass\nAna Ruiz,2,monthly\nBen Ode,1,annual",
]
_EXPORTED_PASSWORD = [
    "user,pass\nmira,Tulip#Field42",
    "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
    ",,login,GitHub,,,0,https://github.com,mira,Tulip#Field42,",
]


@pytest.mark.parametrize("text", _NO_EXPORTED_PASSWORD)
def test_a_pass_column_of_results_passes(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _EXPORTED_PASSWORD)
def test_an_exported_password_column_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 6. (review of 57614e4) A code in the customer's next turn is one only when the agent asked
# for it: a turn that says what happened to a PIN or a password, or names a PIN pad, asks
# for nothing, and a number after a place's, an error's or a sum's word is theirs.
_NO_CODE_ASKED_FOR = [
    "Agent: I've reset your password, you'll get an email. Customer: thanks, my extension is 4471 if you need me",
    "Agent: your new card PIN will arrive by post. Customer: great, I'm in flat 2204 now",
    "Support: which PIN pad do you use? User: the Verifone 8006 on the counter",
    "Agent: the password reset link expires soon. Customer: ok, the app shows error 5012 though",
    "Agent: did you change the PIN? Customer: no, but I paid 2500 yesterday",
]
_CODE_ASKED_FOR = [
    "Agent: can you confirm the passcode? Customer: it's 4471",
    "Agent: PIN please. Customer: 8812",
    "Agent: and your PIN? Customer: 2258",
    "Agent: please choose a new 6-digit PIN in the app. Customer: done, i picked 031190",
]


@pytest.mark.parametrize("text", _NO_CODE_ASKED_FOR)
def test_a_turn_that_asks_for_no_code_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _CODE_ASKED_FOR)
def test_a_code_asked_for_and_given_in_the_next_turn_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 7. (review of c8bafaf) DHS names the redress number a "Redress Control Number".
@pytest.mark.parametrize("text", ["my redress control number is 2212345", "Redress Control Number: 2212345 (DHS TRIP)"])
def test_a_redress_control_number_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 8. (review of 8129573) A security question in another language is read up to its line's end
# or the next question, not each question to the line's end (quadratic: 56 s at 90,000
# characters of "question secrète ").
def test_a_line_of_many_security_questions_reads_in_linear_time() -> None:
    text = "question secrète " * 6000
    started = time.process_time()
    assert find_by_rules(text) is None
    assert time.process_time() - started < 3.0


@pytest.mark.parametrize(
    "text",
    [
        "question secrète : Biscotte",
        "question secrète: nom du chien, question de sécurité 2: Paris",
        "pregunta de seguridad: primer colegio → San Marcos",
    ],
)
def test_a_security_answer_in_another_language_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


def test_a_text_with_another_languages_script_and_no_security_question_passes() -> None:
    assert find_by_rules("Привет, как дела? Встреча в пятницу в 10:00") is None


# 9. (review of 41943c2) A provider's or a tax office's name is a person's or a payee's too:
# said as theirs, with a bank's details after the number, or a refund paid into the account.
_A_BANK_ACCOUNT_BESIDE_A_PROVIDERS_NAME = [
    "Tom Rogers account number 41222919 sort code 30-94-57",
    "pay Rogers' account 41222919 for the fence",
    "Sky's account number is 41222919, she banks with Monzo",
    "the IRS refund went to account 4410028817",
]


@pytest.mark.parametrize("text", _A_BANK_ACCOUNT_BESIDE_A_PROVIDERS_NAME)
def test_a_bank_account_beside_a_providers_name_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 10. (review of 8129573) An answer is withheld when a person did not give it ("→ customer
# didn't remember"), not when the answer given was refused ("Okafor wasn't accepted").
@pytest.mark.parametrize(
    "text",
    [
        "security answer: Okafor wasn't accepted by the bank",
        "Security Q: mother's maiden name → Okafor didn't match their records",
        "secret answer is Marmalade failed twice on the app",
    ],
)
def test_an_answer_given_then_refused_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 11. (review of 39eed95) A "senha" named as a card's or a bank's is a PIN, a queue beside it
# or not; a queue's ticket still passes.
@pytest.mark.parametrize(
    "text",
    [
        "a senha do cartão é 4471, estou na fila do banco",
        "minha senha do caixa eletrônico é 8812, tô na fila",
        "senha 4471 do cartão, estou na fila do atendimento",
    ],
)
def test_a_card_senha_beside_a_queue_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", ["na fila, minha senha é C045", "senha de atendimento A047, guichê 5"])
def test_a_queues_senha_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 12. (review of d347cf2) A key ending in a question's or a hint's answer is a password's or
# a security question's only when it names one; a FAQ's, a quiz's or an interview's is none.
@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("faq.question_answer", "Returns are accepted within 30 days with a receipt"),
        ("interview.question.answer", "I led the migration to Kubernetes in 2023"),
        ("quiz.question_answer", "Paris"),
        ("exam_question_answer", "photosynthesis"),
        ("support.question.answers", "Reset the router, then wait two minutes"),
    ],
)
def test_a_faqs_or_a_quizs_answer_under_its_key_passes(key: str, text: str) -> None:
    assert find_sensitive(text, key) is None


@pytest.mark.parametrize(
    ("key", "text"),
    [("pw_hint_answer", "fluffy"), ("security_question_answer", "Okafor"), ("pin_question_answer", "Rex")],
)
def test_a_password_hints_or_a_security_questions_answer_is_found(key: str, text: str) -> None:
    assert find_by_rules(text, key) is not None


# 13. A Wi-Fi QR payload is read from its "WIFI:" over a payload's length, not to the line's
# end (quadratic: 3.7 s for a 90,000-character line of "wifi: ..." notes).
def test_a_line_of_many_wifi_notes_reads_in_linear_time() -> None:
    text = ("wifi: Kelp ref X7K-Q2P path ~/.cfg/a.b " * 2300)[:90000]
    started = time.process_time()
    find_by_rules(text)
    assert time.process_time() - started < 2.5


@pytest.mark.parametrize(
    "text",
    [
        "WIFI:T:WPA;S:MyNet;P:Kelp_Harbor_19;;",
        "WIFI:S:Some Long Network Name 2.4GHz Guest;T:WPA2;H:false;P:x8Hj2kLp;;",
    ],
)
def test_a_wifi_qr_payload_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 14. (review of 804450a) A payment's reference or an invoice's number beside an IFSC is no
# account: Indian payment confirmations give the UTR and the branch's IFSC.
@pytest.mark.parametrize(
    "text",
    [
        "NEFT done, UTR 402118765432, beneficiary IFSC HDFC0001234",
        "IMPS ref no 402118765432 to IFSC SBIN0004567, amount 25000",
        "Invoice no. 202400123456, our bank IFSC HDFC0001234 (account details on page 2)",
    ],
)
def test_a_payments_reference_beside_an_ifsc_passes(text: str) -> None:
    assert find_by_rules(text) is None


def test_an_account_beside_an_ifsc_is_still_found() -> None:
    assert find_by_rules("transfer to 50100234567812 IFSC HDFC0001234") is not None

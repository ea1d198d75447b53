"""A password named in developer, terminal or figurative text that gives none (18t, from
held-out G's wrong refusals, tested with unseen variants): a prompt with no answer on its
line, code that reads the password, a log line's next field, a case ending after an
abbreviation's colon, a password said to be switched off, sealed or huge, and "the key to
success". The values next to them are still found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


@pytest.mark.parametrize(
    "text",
    [
        # prompts with no answer on their line
        "$ sudo passwd backup\nNew password:\nRetype new password:\npasswd: password updated successfully",
        "$ mysql -u root -p\nEnter password:\nERROR 1045 (28000): Access denied for user 'root'@'localhost'",
        "$ passwd\nChanging password for ci.\nCurrent password:\npasswd: Authentication failure",
        # code that reads the password
        'db_pass = getpass.getpass(prompt="Vault password: ")',
        "password = await readSecret('prod/db');",
        "master_password = var.rds_master_password\nskip_final_snapshot = true",
        "admin_password = local.generated_admin_pw",
        # a log line's next field
        "2026-03-02T10:01:44Z level=info msg=login auth=password status=ok user_id=4410",
        # an abbreviation's case ending after its colon (Swedish, Finnish)
        "jag hittar inte lösenordet till WLAN:et",
        "unohdin salasanan VPN:n takia",
        # switched off, sealed away or too big to remember
        "the old root password is disabled since the SSO migration",
        "das Admin-Kennwort ist deaktiviert, Anmeldung nur per Smartcard",
        "la contraseña del router es enorme, nadie se la sabe",
        "the emergency password is sealed in the safe, two people needed",
        # the key to success
        "la clave del éxito es la constancia",
        "a chave do sucesso é planejar bem",
    ],
)
def test_a_password_named_in_code_or_prose_without_a_value_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "wifi password:\nKettle-Drum-5521",
        'password:\n"blue lantern 77"',
        "password = Summer(2024)",
        'db_password = os.getenv("DB_PASSWORD") or "Fallback-Pw-9"',
        "la clave del wifi es Sol-Playa-77",
        "lösenordet till WLAN:et är Fika_Hela_Dagen7",
        'password = "var.x-Secret9"',
        "passwd: Hunter-22-Gamma",
    ],
)
def test_a_value_next_to_the_same_words_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None

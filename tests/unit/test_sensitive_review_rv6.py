"""Review rv6 (session 9) of the rules landed for held-out I and J: the look-alikes those rules
refused or let through, written in the same words and domains (developer, business, medical,
customer service), each seen failing on main before its fix."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules

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

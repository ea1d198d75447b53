"""A value typed into a form's secret field by a browser automation or an agent's tool call:
the field's name, id or type says what the value is (secret_settings)."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


@pytest.mark.parametrize(
    "text",
    [
        '{"tool": "browser.type", "args": {"selector": "#login-pin", "text": "550231"}}',
        "await page.fill('#password', 'Tr0ub4dor&3');",
        'await page.type("input[type=password]", "Kestrel-99x")',
        "cy.get('#otp').type('482913')",
        'driver.find_element(By.ID, "password").send_keys("Winter2024!")',
        'page.locator("#current-password").fill("Quartz#Moon7")',
    ],
)
def test_a_value_typed_into_a_secret_field_is_found(text: str) -> None:
    assert find_by_rules(text) is not None
    assert find_sensitive(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        # another field, no literal, a key to press, a placeholder, a hint, an empty value
        "await page.fill('#username', 'alice.smith')",
        "await page.fill('#password', process.env.E2E_PASSWORD)",
        "cy.get('#password').type('{enter}')",
        '{"tool":"browser.type","args":{"selector":"input[name=search]","text":"reset my password"}}',
        "await page.fill('#password-hint', 'my first dog')",
        "await page.fill('#password', '')",
        "await page.fill('#password', '${E2E_PASSWORD}')",
        '{"tool":"browser.fill","args":{"selector":"#promo-code","value":"SAVE20NOW"}}',
    ],
)
def test_a_value_typed_into_another_field_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None

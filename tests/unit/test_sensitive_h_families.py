"""Cards, ids and bank accounts in the families held-out H showed the rules missing or
refusing wrongly (H is development data since 20:25 UTC on 2026-11-24), each written anew
with variants H does not hold, and look-alikes that must pass. The rules are tested apart
from the learned stage."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _rules(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


# -- an account named by its bank's name -------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "tolong transfer ke BRI 0023 0110 4455 507 a.n. Siti Aminah",
        "rekening Permata 4102 8837 19, atas nama Budi",
        "pay the school fees into CIMB Niaga 800127733900",
        "my mum's account is with Kasikorn: 062-1-88374-2",
        "Vietcombank 0071 0004 38821 - Nguyễn Văn An, học phí tháng 11",
        "send it to Equity Bank 0170 2918 44712, the Nairobi branch",
        "la cuenta de ahorros Davivienda 0550-4882-1937 es de mi hermano",
        "depositar en Banco de Bogotá 301-77218-4 a nombre de Luisa",
        "her salary goes to Bank Alfalah: 5501 0098 1123 4567 02",
        "account with Access Bank 0691827354, Lagos",
        "cuenta corriente 12-0451-88 del Banco Estado, Rut del titular aparte",
        "โอนเข้าบัญชีกรุงไทย 981-0-44172-3 ด้วยนะ",
        "transfer the deposit to Maybank 5140 8812 7730 by Friday",
        # an IBAN of a country the length table lacked (Iran's sheba, Iraq)
        "شماره شبا برای حقوق: IR11 0170 0000 0012 3456 7890 01",
        "IBAN for the Baghdad office rent: IQ98 NBIQ 8501 2345 6789 012",
    ],
)
def test_an_account_named_by_its_banks_name_is_found(text: str) -> None:
    assert _rules(text) == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "call Maybank 1300 88 6688 if the app locks you out",
        "BCA 1.500.000 sudah masuk, makasih",
        "Bank Muscat customer care 2479 5555, open till 8",
        "Bank of America 1-800-432-1000 for a lost card",
        "HDFC Bank IFSC HDFC0001234 for the Andheri branch",
        "Bancolombia NIT 890903938-8 on the invoice",
        "Equity Bank annual report 2023, page count 12345678",
        "Maybank share price 8.45 today, volume 12345678",
        "Bank Holiday 2024-05-27, office closed",
        "Techcombank hotline 1800 588 822",
        "paid Rp 2.500.000 via BCA yesterday",
        "Barclays +44 345 734 5345 is the fraud line",
        "HSBC order 88812345 shipped",
    ],
)
def test_a_banks_name_beside_a_phone_a_sum_a_date_or_a_code_passes(text: str) -> None:
    assert _rules(text) is None

"""False refusals of secrets in developer, ops and agent text, by family (issue 18, 18d):
what a log, a config template, a tool's output or an agent's note says about a secret
without giving it. The rules are tested apart from the learned stage (which is retrained
by its owner). Each family has lines of outside_5 (read after its first run) and probes
of our own, and guards: the same shapes holding a real secret are still found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _rules(text: str) -> str | None:
    found = find_by_rules(text.replace("\\n", "\n"))
    return None if found is None else found.rule


@pytest.mark.parametrize(
    "text",
    [
        # lines of outside_5 (developer and ops text)
        "Nov 23 03:14:07 bastion sshd[22841]: Failed password for invalid user admin from 185.220.101.47 port 51422 ssh2",
        "lösenordet till test-databasen ligger i valvet, fråga Erik om du saknar behörighet",
        "users table dump (first row): id=1, email=admin@acme.io, password_hash=$2b$12$KJpOxEEwnvvFVi13eZhCZ.1s00N1XXnCBVqyZjxjP1MusJWV06lBP",
        '"ConnectionStrings": {\\n    "Default": "Host=pg.fabrikam.local;Database=hr;Username=hr_api;Password=__REPLACED_AT_DEPLOY__"\\n  },',
        "api_key: ENC[AES256_GCM,data:uFj7XXE4nms27S5dmu12w5EblO4SJmIO,iv:pm84dPgtU0u95r3AT4ivS98XCAfko3thTSmrlUpGQsY=,tag:Rb5SyrxZQH4hLHot57lQor==,type:str]",
        "otpauth://totp/ACME:{username}?secret={base32_secret}&issuer=ACME  ← the format our enrolment QR uses",
        'use admin\\ndb.createUser({user: "reporter", pwd: passwordPrompt(), roles: [{role: "read", db: "events"}]})',
        "!\\nusername netadmin privilege 15 secret 9 $9$ErQHQwjyaxErPZ$DS3MoJaQNjCxkv5ndK0meGR0vRzZ1fb6d06QGofB8C\\n!",
        "$ kubectl describe secret orders-db -n prod\\nName:         orders-db\\nType:  Opaque\\n\\nData\\n====\\npassword:  24 bytes\\nusername:  9 bytes",
        "spring.datasource.password=ENC(nT8rVb2QwXz0Kc5mLp7YhJ3sDf9Ga1Ue)",
        '2026-11-23 22:41:07 UTC [3321]: FATAL:  password authentication failed for user "grafana_ro"',
        "argon2 params for the new password hashing: m=65536, t=3, p=4 → e.g. $argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHRzYWx0$Rk3vQ9Lm2Xz8Wc0Nb5Ty7Hs1Jd4Fg6Ea",
        "passwd: password updated successfully",
        "reply from vendor support: \"We've sent a temporary password to the account owner's email. You will be asked to change it on first login.\"",
        "RUNBOOK: restore pg replica\\n1. stop patroni on replica\\n2. fetch the replication password: vault kv get -field=password secret/pg/replicator\\n3. pg_basebackup -h primary -U replicator -D /var/lib/pg/16/main -X stream\\n4. start patroni",
        # copula glued to a word's end (us-er, t-est, éxi-to), own probes
        "sshd[911]: Failed password for invalid user oracle from 203.0.113.9 port 40022 ssh2",
        "Accepted password for deploy from 10.1.2.3 port 51100 ssh2",
        "the password for the tester account expires on Friday",
        "la contraseña del gimnasio está en el cajón de la entrada",
        "lösenordet till servern finns i valvet",
        "wachtwoord van de server staat in de kluis",
        # a possessive after the filler
        "we emailed a reset password to the customer's address, they have 24 hours",
        # no value given: echo, size, log
        "chpasswd: password changed for 3 users",
        "Data\\n====\\npassword:  16 bytes\\nusername:  5 bytes",
        'FATAL:  password authentication failed for user "report_ro"',
        'pg: password authentication failed for user "app_admin" (SQLSTATE 28P01)',
        # placeholders, ciphertext, calls, commands
        "Password=__DB_PASSWORD__",
        '"password": "#{SqlPassword}#"',
        "db.password=ENC(G6N718UuyPE5bHyWKyuLQSm02auQPUtm)",
        "api_token: ENC[AES256_GCM,data:Tr7o1jbWQ5vnTq0tVwKz8RfjZ2YpLcXr,iv:1234,tag:abcd,type:str]",
        'ciphertext = "vault:v1:8SDd3WHDOjf7mq69CyCqYjBXAiQQAVZRkFM13ok481zoCmHnSeDX9vyf7w=="',
        "const pass = passwordPrompt()",
        "DB_PASSWORD: read it with vault kv get -field=password secret/app/db",
        "token: op read op://Private/GitHub/token",
        "otpauth://totp/Shop:{email}?secret={secret}&issuer=Shop",
        # hashes
        "password_hash=$2y$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
        "enable secret 8 $8$dsYGNam3K1SIJO$7nv/35M/qr6t.dVc7UY9zrJDWRVqncHub1PE9UlMQFs",
        "username admin privilege 15 secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM",
        "contact: ops@acme.io, pwd_hash=$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$Rk3vQ9Lm2Xz8Wc0Nb5Ty7",
    ],
)
def test_no_secret_given(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # copula glued to a word's end (us-er, t-est, éxi-to), own probes
        "the password for the tester account is Quasar-88!",
        "passord er sommer2024",
        "salasana on kissa123",
        "lösenordet till servern är Blåbär#44",
        # a possessive after the filler
        "password for the client's NAS, set last week: Fj9#pLq2",
        "passphrase for Anna's laptop: 'seven green lanterns'",
        # no value given: echo, size, log
        "password: password123!",
        "password: Hunter22 (updated successfully)",
        # placeholders, ciphertext, calls, commands
        "otpauth://totp/Shop:ana@shop.io?secret=JBSWY3DPEHPK3PXP&issuer=Shop",
        "db.password=G6N718UuyPE5bHyWKy",
        # hashes
        "ops@acme.io / Kx9!mPq2rT",
        "username admin privilege 15 password Cisc0Adm1n!",
    ],
)
def test_the_same_shapes_with_a_secret_are_found(text: str) -> None:
    assert _rules(text) == "secret"

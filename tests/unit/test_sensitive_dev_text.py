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


@pytest.mark.parametrize(
    "text",
    [
        # lines of outside_5
        "mongodb+srv://<username>:<password>@cluster0.ab1cd.mongodb.net/events?retryWrites=true&w=majority",
        "2026-11-23T14:02:11.482Z DEBUG http.client send: POST /oauth/token client_id=acme-etl client_secret=[FILTERED]",
        "[Peer]\\nPublicKey = xTIBNCc9vIFShP88xbjV0fhZ7bDkJUvzFjlQcE30peX=\\nAllowedIPs = 0.0.0.0/0\\nEndpoint = vpn.acme.io:51820",
        'algolia: appId "K8T2MZQ9XL", search-only key "9c9b9f89900715dc1ac1a27df8713e47" (safe to ship in the frontend)',
        "arn:aws:secretsmanager:eu-west-1:481920337756:secret:prod/orders/db-master-Q8mZx2",
        "RECAPTCHA_SITE_KEY=6LcQ8mZxAAAAAL2wV4cN9bjG5SvkGDyMG1TpDDY2",
        'env:\\n  global:\\n    secure: "kQm2uQAg3ePeO0ZWCGN8bRPTCEHGy4zeobdQBcprTL0zUBDZpzyuFoO69PfcElFxTM4nXCOOWNQU2MS0RqpE6FytN"',
        "spec:\\n  encryptedData:\\n    password: AgBiOQfDeC6HeH6caMLsIqBZKfksWmplrUJblY5j5cND6WLya75FdleJXP6xuQEYcHsG02ORHV8IlMXXkhMBpQCJXqYTYUpqFIo2LMFqcmMT==",
        "wachtwoord van de test-FTP vergeten, kan iemand het resetten in DirectAdmin?",
        "本番DBのパスワードはSecrets Managerに移しました。Slackには貼らないでください",
        # public by design
        "[Interface]\\nPrivateKey = (see vault)\\n[Peer]\\nPublicKey = HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=\\nAllowedIPs = 10.8.0.0/24",
        "NEXT_PUBLIC_MAPBOX_TOKEN_ID=cl4b8x2qk0001mz3m9a7w2h1c",
        "VITE_RECAPTCHA_SITE_KEY=6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI",
        "webpush: VAPID_PUBLIC_KEY=BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U",
        "SUPABASE_ANON_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiIsImlzcyI6InN1cGFiYXNlIn0.ZopqoUt20nEV9cklpv9e3yw3PVyZLmKs5qLD6nGL1SI",
        'Meilisearch search-only key "a8f0d5c4e3b2a1908f7e6d5c4b3a2910" goes in the widget config',
        '{"kty":"EC","crv":"P-256","kid":"k1","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}',
        # still encrypted
        'secure: "Hk3lq8G9mFvV2pLx0sW7eR4tY1uI6oP5aZ3nXc8bV2mQ9wE4rT7yU1iO0pA6sD5f"',
        "kind: SealedSecret\\nspec:\\n  encryptedData:\\n    api_key: AgA4Xq1mP9vB7nL2kJ5hG8fD3sA6qW0eR4tY7uI1oP3lK9jH2gF5dS8aZ0xC6vB4nM",
        # references, not values
        "mongodb://<user>:<password>@localhost:27017/app",
        "POST /v1/token client_id=web-portal client_secret=[REDACTED]",
        "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/api/stripe-AbC123",
        "postgres://report_ro@analytics.internal:5432/warehouse (password from PGPASSFILE)",
        "スマホのパスワードは1Passwordに保存しました",
        "Passwort für die Test-VM vergessen, bitte im Portal zurücksetzen",
        "our 10th anniversary password rules: 12 chars, no reuse",
    ],
)
def test_public_sealed_or_referenced_values_are_no_secret(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # the same shapes with a secret
        "[Peer]\\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\\nPublicKey = HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=",
        "NEXT_PUBLIC_STRIPE_KEY=sk_live_51HqLy2CjK9xWvRz4mNp0T8aB6dF3gS7h",
        "SUPABASE_SERVICE_ROLE_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.M9Lq2xVb7nPz4KcR1tYw8sDf3GhJ6aE0uI5oQ",
        '{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}',
        "mongodb://admin:Kv8!rT2qLm@localhost:27017/app",
        "POST /v1/token client_id=web-portal client_secret=Q7v!x9Lm2Rt8Kp4Zs",
        "postgres://report_ro:Wr1te0nly!@analytics.internal:5432/warehouse",
        "スマホのパスワードはsakura2024です",
        "Passwort für die Test-VM: WinterTest-42",
        # two settings on one line: the second was swallowed by the first's look-ahead
        "DB_HOST=db1.internal DB_PASSWORD=Rk4!vPz92mQ",
        "export AWS_REGION=eu-west-1 AWS_SECRET_ACCESS_KEY=q8Lm2Vx9Rt4Kp7Zs1Nb6Wc3Yd0Fg5Hj8Ua2Ie4O",
        '{"tool":"read_env","content":"SMTP_PASSWORD=tulip-Harbor-58"}',
        "GET failed for url: https://api.example.com/v2/items?page=2&api_token=7c1e9a3b5d2f4e6a8b0c1d2e3f4a5b6c",
    ],
)
def test_secrets_beside_public_values_and_in_one_line_settings_are_found(text: str) -> None:
    assert _rules(text) == "secret"


def _rules_keyed(text: str, key: str) -> str | None:
    found = find_by_rules(text.replace("\\n", "\n"), key)
    return None if found is None else found.rule


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # lines of outside_4, 5, 8 and 9
        (
            "grafana:\\n  adminUser: admin\\n  admin:\\n    existingSecret: grafana-admin\\n    passwordKey: admin-password",
            "",
        ),
        ("helm upgrade --install kc bitnami/keycloak --set auth.existingSecret=keycloak-admin -n sso", ""),
        ("la password del wifi è scritta sul modem", ""),
        ("heslo je napsané na routeru", ""),
        ("hasło jest u mamy, zapytaj ją", ""),
        ("demander au gardien", "digicode_immeuble"),
        ("set for the bank — user knows them, not shared", "security_answers"),
        ("lo sa solo lei", "pin_bancomat_nonna"),
        # the name of a secret kept elsewhere
        ("helm install pg bitnami/postgresql --set auth.existingSecret=pg-admin-creds", ""),
        ("redis:\\n  auth:\\n    existingSecret: redis-auth\\n    existingSecretPasswordKey: redis-password", ""),
        ("mysql:\\n  auth:\\n    existingSecret: mysql-creds\\n    passwordKey: mysql-root-password", ""),
        # where it is, or who has it, in other languages
        ("the wifi password is under the router", ""),
        ("wifi password: inside the router box", ""),
        ("Passwort ist bei Oma", ""),
        ("le mot de passe est chez ma sœur", ""),
        ("la password della banca è scritta nel quaderno rosso", ""),
        ("heslo k wifi je napsané na krabici", ""),
        ("hasło do wifi jest zapisane w zeszycie", ""),
        ("demander au voisin du 3e", "gate_code"),
        ("lo sa solo mio padre", "alarm_pin"),
        ("only the landlord knows it", "wifi_password"),
    ],
)
def test_where_it_is_or_who_has_it_is_no_secret(text: str, key: str) -> None:
    assert _rules_keyed(text, key) is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # the same with the value
        ("the wifi password is Under-the-Router-77", ""),
        ("Passwort ist Oma1954!", ""),
        ("la password della banca è Quaderno_Rosso9", ""),
        ("heslo k wifi je Krabice2024", ""),
        ("4417#", "gate_code"),
        ("redis:\\n  auth:\\n    password: Rd!s-Pr0d-2026", ""),
        ("helm install pg bitnami/postgresql --set auth.postgresPassword=Pg!Adm1n-2026", ""),
    ],
)
def test_the_value_itself_is_still_found(text: str, key: str) -> None:
    assert _rules_keyed(text, key) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        # lines of outside_2, 4 and 7
        '{"tool_call_id":"call_8Hk2Pq9LmX4vT7yR","name":"search_memory","arguments":"{\\\\"query\\\\":\\\\"where is the db password stored\\\\"}"}',
        'password = "<CHANGE_ME>"',
        "todo:\\n- change netflix password\\n- renew passport\\n- call plumber",
        "Support chat transcript (copied by the user):\\nAgent: Thanks for waiting. For security I can't see your password, and I'll never ask for it.",
        "Connection string the user pasted into a question about timeouts: mongodb+srv://cluster0.x7k2q.mongodb.net/shop?retryWrites=true with the user and password removed.",
        "Transcript of the user's voice note while driving: \"Hey, remind me tonight to set up the new laptop for Mum. She'll type her Microsoft password herself\"",
        # prose and transcripts that name a user and a password without giving them
        "Chat log (pasted by the user):\\nAgent: Hello, I can't see passwords on my side.\\nCustomer: okay",
        'Notes from the call with the user: "Okay, remember to renew the domain before Friday"',
        "the user opened a ticket: mongodb://cluster1.example.net/app?ssl=true fails with a timeout",
        '{"name":"search_memory","arguments":"{\\"query\\":\\"which wifi password is saved\\"}"}',
        'password = "<YOUR_PASSWORD>"',
        "DB_PASSWORD=\"${DB_PASSWORD}\" # then: password = '<fill in>'",
        "shopping:\\n- milk\\n- reset router password\\n- renew car insurance",
    ],
)
def test_prose_lists_and_transcripts_without_a_value_are_no_secret(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # outside_7: found before only because "Agent: Thanks" was read as a user and a password
        "Support chat transcript (copied by the user):\\nAgent: Thanks for waiting. To verify, can you confirm the"
        " answer to your security question?\\nUser: first pet was Biscuit, spelled with a c",
        # the same with a value
        "Chat log (pasted by the user):\\nAgent: what is your security question?\\nCustomer: my first car was Corolla",
        "login: maria / Tulpen#Amsterdam9",
        "the user's login is maria, Tulpen#Amsterdam9",
        "shopping:\\n- milk\\n- router password - Kx9!mPq2rT",
    ],
)
def test_pairs_lists_and_answers_with_a_value_are_found(text: str) -> None:
    assert _rules(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        # lines of outside_7 (cut)
        "Notes from the webinar 'Securing small businesses': never reuse the admin password for the website and the email. Speaker: J. Adeyemi. Slides at the link they'll email.",
        "Helmets are mandatory, rental 12 a day. Group size max 8. Booking ref SKI-44071. Lift pass for under-12s is free.",
        # the filler stops at a sentence's end
        "Reminder: never share the admin password with the vendor. Contact: R. Okafor",
        "the password for the portal and the app. Owner: T. Berg (IT)",
        # a pass that is a ticket
        "boarding pass for seat 14C is in the wallet app",
        "season pass for 2026: SP-88213, valid at all lifts",
    ],
)
def test_a_sentence_end_or_a_ticket_is_no_value(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # the same with a value
        "the password for the portal and the app: Portal#2026!",
        "the wifi password for guest.example.com is Guest-Net-77",
        "guest wifi pass: Sunny-Day-2026",
    ],
)
def test_a_value_in_the_same_sentence_is_found(text: str) -> None:
    assert _rules(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        # probes of our own (no corpus line): developer and agent text with no secret in it
        "Error: password must be at least 12 characters long",
        'WARN  [auth] login failed for user "svc-backup": invalid password (attempt 3/5)',
        "kubectl create secret generic db-creds --from-file=password=./db-pass.txt",
        "export GITHUB_TOKEN=$(gh auth token)",
        'password: "{{ .Values.db.password }}"',
        'api_key = os.getenv("OPENAI_API_KEY")',
        '{"event":"password_reset_requested","user_id":"u_8812","ip":"203.0.113.7"}',
        'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com/v1/me',
        "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/pg -d postgres:16",
        "age public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
        # ... and the four the rules refused on main
        "aws secretsmanager get-secret-value --secret-id prod/db/password --query SecretString",
        "password: !vault |\\n  $ANSIBLE_VAULT;1.1;AES256\\n  62313365396662343061393464336163383764373764613633653634306231",
        'redis-cli -h cache.internal -a "$REDIS_PASSWORD" ping',
        'The secret "api-keys" in namespace "prod" was updated 3m ago',
    ],
)
def test_developer_text_of_our_own_without_a_secret(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "redis-cli -h cache.internal -a 'Rd!s-2026-pw' ping",
        "db:\\n  password: Vault-Pa55!word",
        'The secret "api-keys" holds key=sk_live_51HqLy2CjK9xWvRz4mNp0T8aB6dF3gS7h',
        "the db password --> Hunter22!x",
    ],
)
def test_the_same_commands_and_settings_with_a_secret_are_found(text: str) -> None:
    assert _rules(text) == "secret"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # probes of our own: what an agent writes (entries, tool calls, metadata) about a secret
        ("2026-10-02", "password_last_changed"),
        ("the neighbours upstairs", "wifi_password_shared_with"),
        ("yes, for purchases over 50 EUR", "pin_required"),
        ("read:orders write:refunds", "api_key_scope"),
        ("3600", "token_expires_in"),
        ("repo, workflow", "github_token_permissions"),
        ("every first Monday of the month", "door_code_changes"),
        ("Priya draws Tom this year", "secret_santa"),
        ('memory.save({"key": "vpn_setup", "value": "uses the company SSO, no separate password"})', ""),
        ('{"tool":"notes.add","args":{"text":"remind user to rotate the Stripe key on Friday"}}', ""),
        ('{"role":"assistant","content":"I can\'t store passwords; please use your password manager."}', ""),
        ('{"metadata":{"pii_redacted":true,"redacted_fields":["password","card_number"]}}', ""),
        ("agent summary: user set up 2FA with an authenticator app; backup codes printed and kept offline", ""),
        ("entry: alarm code is known by the neighbour Mrs. Patel (spare key too)", ""),
        ('tool result: {"status":"ok","secret_id":"sec_01HZX9","version":3}', ""),
        ('{"kind":"credential_reference","provider":"1password","item":"Home NAS","field":"password"}', ""),
    ],
)
def test_agent_entries_about_a_secret_are_no_secret(text: str, key: str) -> None:
    assert _rules_keyed(text, key) is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Sunflower-Guest-2026", "wifi_password_guest"),
        ("4821", "pin_required"),
        ('memory.save({"key": "vpn_password", "value": "Vpn!Acme-2026"})', ""),
        ('{"tool":"notes.add","args":{"text":"Stripe key: sk_live_51HqLy2CjK9xWvRz4mNp0T8aB6dF3gS7h"}}', ""),
    ],
)
def test_agent_entries_holding_a_secret_are_found(text: str, key: str) -> None:
    assert _rules_keyed(text, key) == "secret"

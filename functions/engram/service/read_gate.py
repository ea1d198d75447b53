"""The read gate: every read of a user's memory asks it for the policy that applies.

Loads the user's settings once per request and hands back a ``ReadPolicy``
(``engram.domain.read_policy``). Services call it rather than reading settings
themselves, so a new read path cannot forget memory off or retention.
"""

from __future__ import annotations

from dataclasses import dataclass

from engram.domain.models import Principal, UserSettings
from engram.domain.read_policy import ReadPolicy, reader_of
from engram.ports import Clock, ProfileRepository


@dataclass(frozen=True, slots=True)
class ReadGate:
    settings: ProfileRepository
    clock: Clock

    def policy(self, principal: Principal, user_id: str, *, as_agent: bool = False) -> ReadPolicy:
        return self.policy_of(principal, user_id, self.settings.get_settings(principal.tenant_id, user_id), as_agent)

    def policy_of(
        self, principal: Principal, user_id: str, settings: UserSettings | None, as_agent: bool = False
    ) -> ReadPolicy:
        """The policy of settings the caller already read (a count reads them with its counters)."""
        t = principal.tenant_id
        return ReadPolicy.of(settings or UserSettings(t, user_id), self.clock.now(), reader_of(principal, as_agent))

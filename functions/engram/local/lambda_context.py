"""A stand-in for the Lambda context object, for driving handlers outside Lambda."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field


@dataclass
class LocalContext:
    function_name: str = "engram-local"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:local:000000000000:function:engram-local"
    aws_request_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    function_version: str = "$LATEST"
    log_group_name: str = "local"
    log_stream_name: str = "local"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000

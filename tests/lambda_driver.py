"""Runs one Lambda handler the way the Lambda runtime does, from the shipped artefacts only.

Started as ``python -I -S tests/lambda_driver.py HANDLER PATH...`` by
``tests/artefacts.py``: no site-packages, no PYTHONPATH, not even this file's directory
on ``sys.path``; the paths given (the code asset, then the layers, as Lambda orders
``/var/task`` and ``/opt/python``) go in front of the standard library. It then reads
one JSON event per line on stdin, invokes the handler, and writes one JSON line per
invocation: ``{"result": ...}`` or ``{"error": type, "message": ...}``. The process
lives on between events, as a warm Lambda instance does.

It imports nothing outside the standard library before the handler, so whatever the
handler needs must come from the paths it was given.
"""

import json
import os
import sys
import time
import traceback
import uuid

handler_path, *paths = sys.argv[1:]
sys.path[:0] = paths
# Answers go to the original stdout; the function's own output (Powertools logs to stdout)
# goes to stderr, where the runtime would send it to CloudWatch.
answers = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
sys.stdout = sys.stderr


def answer(payload: dict) -> None:
    answers.write(json.dumps(payload, default=str) + "\n")
    answers.flush()


class Context:
    """What the Lambda runtime passes as ``context`` (the attributes Powertools reads)."""

    def __init__(self, name: str) -> None:
        self.function_name = name
        self.function_version = "$LATEST"
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:123456789012:function:{name}"
        self.memory_limit_in_mb = 1024
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{name}"
        self.log_stream_name = "artefact-test"
        self._deadline = time.monotonic() + 60

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


module_name, function_name = handler_path.rsplit(".", 1)
started = time.process_time()
try:
    module = __import__(module_name, fromlist=[function_name])
    handler = getattr(module, function_name)
except BaseException as exc:  # the import itself failing is what the test looks for
    answer({"error": type(exc).__name__, "message": str(exc), "trace": traceback.format_exc()})
    raise SystemExit(3) from None
answer({"ready": True, "import_cpu_ms": (time.process_time() - started) * 1000})

for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    if request.get("modules"):
        # Where every loaded module came from: the test checks nothing came from elsewhere.
        files = {n: getattr(m, "__file__", None) for n, m in list(sys.modules.items())}
        answer({"result": {k: v for k, v in files.items() if v}})
        continue
    try:
        result = handler(request["event"], Context(module_name.rsplit(".", 1)[-1]))
        answer({"result": result})
    except BaseException as exc:
        answer({"error": type(exc).__name__, "message": str(exc), "trace": traceback.format_exc()})

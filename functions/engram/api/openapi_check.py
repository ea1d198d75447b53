"""Generate the OpenAPI document and check it against the checked-in copy.

``python -m engram.api.openapi_check docs/openapi.json`` fails when the API changed
without the document being regenerated (``--write`` regenerates it, and the Python
client's generated models and operations with it), so docs/ and the client cannot drift
from the code.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engram.api import client_codegen
from engram.api.app import openapi_document


def render() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("path")
    p.add_argument("--write", action="store_true")
    args = p.parse_args(argv)
    target = Path(args.path)
    fresh = render()
    if args.write:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(fresh, encoding="utf-8")
        print(f"wrote {target}")
        for path in client_codegen.write(json.loads(fresh)):
            print(f"wrote {path}")
        return 0
    if not target.exists() or target.read_text(encoding="utf-8") != fresh:
        print(
            f"{target} is out of date with the API; run `make openapi` and commit it.",
            file=sys.stderr,
        )
        return 1
    stale = client_codegen.stale(json.loads(fresh))
    if stale:
        print(f"{', '.join(stale)} out of date with the API; run `make openapi` and commit it.", file=sys.stderr)
        return 1
    print(f"{target} matches the API (and so does the generated client)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

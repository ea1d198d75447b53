"""What each Lambda ships: the dependency layers and the code asset, unzipped and zipped.

Measures exactly what the stack deploys (the code asset with the stack's exclude rules,
the layers as built by `make layer`) and each function's total against Lambda's 250 MB
unzipped limit. Prints a table and writes bench/results/sizes.json.

    make sizes        # builds the layers if needed, then runs this
"""

from __future__ import annotations

import io
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

from bench.common import write_results

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "infra"))

from engram_infra.assets import (
    CODE_DIR,
    CORE_LAYER,
    LAMBDA_UNZIPPED_LIMIT_BYTES,
    LAYER_BUDGET_BYTES,
    LAYER_DIR,
    MCP_LAYER,
    shipped_files,
)

MIB = 1024 * 1024


def measure(root: Path, files: Iterable[Path]) -> dict[str, float | int]:
    """Unzipped bytes, and zipped bytes as a deployment package (deflate, level 9)."""
    buffer = io.BytesIO()
    unzipped = 0
    count = 0
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for relative in files:
            path = root / relative
            unzipped += path.stat().st_size
            count += 1
            archive.write(path, relative.as_posix())
    zipped = buffer.getbuffer().nbytes
    return {
        "files": count,
        "unzipped_bytes": unzipped,
        "zipped_bytes": zipped,
        "unzipped_mib": round(unzipped / MIB, 2),
        "zipped_mib": round(zipped / MIB, 2),
    }


def tree(root: Path) -> list[Path]:
    return sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file())


def main() -> int:
    artifacts: dict[str, dict[str, float | int]] = {}
    for layer in (CORE_LAYER, MCP_LAYER):
        root = LAYER_DIR / layer
        if not (root / "python").is_dir():
            print(f"No {layer} layer in {LAYER_DIR}: run `make layer` first.", file=sys.stderr)
            return 1
        artifacts[f"layer_{layer}"] = measure(root, tree(root))
    artifacts["code"] = measure(CODE_DIR, list(shipped_files(CODE_DIR)))

    code = int(artifacts["code"]["unzipped_bytes"])
    core = int(artifacts[f"layer_{CORE_LAYER}"]["unzipped_bytes"])
    mcp = int(artifacts[f"layer_{MCP_LAYER}"]["unzipped_bytes"])
    functions = {
        "every function but mcp": code + core,
        "mcp": code + core + mcp,
    }

    print(f"{'artifact':<22}{'files':>7}{'unzipped MiB':>15}{'zipped MiB':>13}")
    for name, sizes in artifacts.items():
        print(f"{name:<22}{sizes['files']:>7}{sizes['unzipped_mib']:>15.2f}{sizes['zipped_mib']:>13.2f}")
    for name, total in functions.items():
        share = 100 * total / LAMBDA_UNZIPPED_LIMIT_BYTES
        print(f"{name:<22} deploys {total / MIB:.1f} MiB unzipped ({share:.0f}% of Lambda's 250 MB limit)")
    within_budget = core <= LAYER_BUDGET_BYTES
    print(f"core layer within its {LAYER_BUDGET_BYTES // MIB} MiB budget: {within_budget}")

    path = write_results(
        "sizes",
        {
            "artifacts": artifacts,
            "function_totals_unzipped_bytes": functions,
            "core_layer_budget_bytes": LAYER_BUDGET_BYTES,
            "core_layer_within_budget": within_budget,
        },
    )
    print(f"wrote {path}")
    return 0 if within_budget else 1


if __name__ == "__main__":
    raise SystemExit(main())

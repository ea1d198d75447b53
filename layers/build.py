"""Build the Lambda dependency layers without Docker: manylinux2014 aarch64 wheels for CPython 3.12.

The layers hold exactly the runtime dependencies of pyproject.toml (``[project]
dependencies``), resolved once by pip for the Lambda platform so every version is
consistent, then split by distribution:

- ``core``: the dependency closure of everything but the MCP server (every function);
- ``mcp``: what only the MCP function needs on top (the MCP SDK, its ASGI adapter and
  their dependencies).

The Engram code itself ships separately, as one asset from functions/. pip fetches
binary wheels for the Lambda platform, so no compiler and no container are needed.

    python layers/build.py           # -> layers/build/{core,mcp}/python/...
    python layers/build.py --check   # only check the sizes of an existing build
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "infra"))

from engram_infra.assets import (  # noqa: E402
    CORE_LAYER,
    LAYER_BUDGET_BYTES,
    LAYER_DIR,
    MCP_LAYER,
    MCP_ONLY_DISTRIBUTIONS,
)

PLATFORM = ("--platform", "manylinux2014_aarch64", "--implementation", "cp", "--python-version", "3.12")
# The marker environment of the Lambda runtime, to follow only the dependencies it installs.
LAMBDA_MARKERS = {
    "python_version": "3.12",
    "python_full_version": "3.12.0",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "aarch64",
    "os_name": "posix",
}


def runtime_dependencies() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return list(project["dependencies"])


def tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def install(requirements: list[str], site: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-compile",
        "--only-binary=:all:",
        *PLATFORM,
        "--target",
        str(site),
        *requirements,
    ]
    subprocess.run(command, check=True)  # noqa: S603 - our own interpreter and pyproject's requirements


def closure(requirements: Iterable[str], site: Path) -> set[str]:
    """Names of the distributions installed in ``site`` that ``requirements`` need, extras included."""
    installed = {canonicalize_name(d.metadata["Name"]): d for d in metadata.distributions(path=[str(site)])}
    needed: set[str] = set()
    seen: set[tuple[str, frozenset[str]]] = set()
    todo = [Requirement(r) for r in requirements]
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        key = (name, frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        needed.add(name)
        for spec in installed[name].requires or []:
            dependency = Requirement(spec)
            extras = requirement.extras or {""}
            if dependency.marker is None or any(
                dependency.marker.evaluate({**LAMBDA_MARKERS, "extra": extra}) for extra in extras
            ):
                todo.append(dependency)
    return needed


def move_distributions(names: set[str], source: Path, target: Path) -> None:
    for dist in metadata.distributions(path=[str(source)]):
        if canonicalize_name(dist.metadata["Name"]) not in names:
            continue
        for file in dist.files or []:
            origin = source / file
            if origin.is_file():
                destination = target / file
                destination.parent.mkdir(parents=True, exist_ok=True)
                origin.replace(destination)
    _remove_empty_dirs(source)


def _remove_empty_dirs(root: Path) -> None:
    for directory in sorted((p for p in root.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
        if not any(directory.iterdir()):
            directory.rmdir()


def prune(site: Path) -> None:
    """Drop what Lambda never loads: bytecode for the build machine's Python, console scripts
    for its platform, botocore's documentation examples and packages' own test suites."""
    for pattern in ("__pycache__", "tests"):
        for directory in [p for p in site.rglob(pattern) if p.is_dir()]:
            shutil.rmtree(directory)
    for pattern in ("*.pyc", "examples-1.json"):
        for file in list(site.rglob(pattern)):
            file.unlink()
    shutil.rmtree(site / "bin", ignore_errors=True)


def build(target: Path) -> dict[str, Path]:
    if target.exists():
        shutil.rmtree(target)
    core_site = target / CORE_LAYER / "python"
    mcp_site = target / MCP_LAYER / "python"
    core_site.mkdir(parents=True)
    mcp_site.mkdir(parents=True)
    dependencies = runtime_dependencies()
    install(dependencies, core_site)
    mcp_only = {canonicalize_name(n) for n in MCP_ONLY_DISTRIBUTIONS}
    core = [d for d in dependencies if canonicalize_name(Requirement(d).name) not in mcp_only]
    everything = closure(dependencies, core_site)
    move_distributions(everything - closure(core, core_site), core_site, mcp_site)
    for site in (core_site, mcp_site):
        prune(site)
    return {CORE_LAYER: core_site, MCP_LAYER: mcp_site}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", type=Path, default=LAYER_DIR, help="where to build (default: layers/build)")
    parser.add_argument("--check", action="store_true", help="only check the sizes of an existing build")
    args = parser.parse_args(argv)
    if args.check:
        sites = {name: args.target / name / "python" for name in (CORE_LAYER, MCP_LAYER)}
    else:
        sites = build(args.target)
    status = 0
    for name, site in sites.items():
        if not site.is_dir():
            print(f"No {name} layer at {site}; run `make layer`.", file=sys.stderr)
            return 1
        size = tree_size(site)
        shown = site.relative_to(ROOT) if site.is_relative_to(ROOT) else site
        print(f"{name} layer: {shown} {size / 2**20:.1f} MiB unzipped")
    core_size = tree_size(sites[CORE_LAYER])
    if core_size > LAYER_BUDGET_BYTES:
        print(
            f"The core layer is {core_size / 2**20:.1f} MiB, over its {LAYER_BUDGET_BYTES / 2**20:.0f} MiB budget: "
            "look for a dependency that pulled in a large extra.",
            file=sys.stderr,
        )
        status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())

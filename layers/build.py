"""Build the Lambda dependency layers without Docker: manylinux2014 aarch64 wheels for CPython 3.12.

The layers hold exactly the runtime dependencies of pyproject.toml (``[project]
dependencies``), resolved once by pip for the Lambda platform so every version is
consistent, then split by distribution:

- ``core``: the dependency closure of everything but the MCP server (every function);
- ``mcp``: what only the MCP function needs on top (the MCP SDK, its ASGI adapter and
  their dependencies).

The Engram code itself ships separately, as one asset from functions/. pip fetches
binary wheels for the Lambda platform, so no compiler and no container are needed.

Both layers ship bytecode for the runtime's Python. ``/opt`` is read-only on Lambda, so
a layer without ``.pyc`` files is compiled again, in memory, on every cold start (about
800 modules, seconds of CPU). The files are ``unchecked-hash`` pycs: the zip the layer
travels in does not keep source timestamps exactly, and a layer never changes once
published, so the interpreter must trust them without comparing. Bytecode is specific
to a Python minor version: when the build runs on another Python than the target's,
it is compiled by CPython 3.12 built for WebAssembly (Pyodide, from npm, run by Node,
which the CDK needs anyway), the same compiler as the Lambda runtime's.

    python layers/build.py           # -> layers/build/{core,mcp}/python/...
    python layers/build.py --check   # only check the sizes of an existing build
    python layers/build.py --host --target DIR   # for this machine's Python (tests)
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata as metadata
import json
import platform
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
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

HERE = Path(__file__).resolve().parent
# CPython 3.12.7 for WebAssembly; its bytecode is what every CPython 3.12.x reads (magic 3531).
PYODIDE = "pyodide@0.27.7"


@dataclass(frozen=True)
class Target:
    """The interpreter a layer is built for: wheels, dependency markers and bytecode follow it."""

    machine: str  # aarch64, x86_64
    python_version: str  # "3.12"

    @property
    def pip_platform(self) -> tuple[str, ...]:
        return (
            "--platform",
            f"manylinux2014_{self.machine}",
            "--implementation",
            "cp",
            "--python-version",
            self.python_version,
        )

    @property
    def markers(self) -> dict[str, str]:
        """The marker environment of the target, to follow only the dependencies it installs."""
        return {
            "python_version": self.python_version,
            "python_full_version": f"{self.python_version}.0",
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "sys_platform": "linux",
            "platform_system": "Linux",
            "platform_machine": self.machine,
            "os_name": "posix",
        }


# The Lambda functions' runtime (infra/engram_infra/functions.py: python3.12 on arm64).
LAMBDA = Target("aarch64", "3.12")


def host_target() -> Target:
    """This machine's interpreter: a layer the test suite can import and run here."""
    return Target(platform.machine(), f"{sys.version_info.major}.{sys.version_info.minor}")


def runtime_dependencies() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return list(project["dependencies"])


def build_key(target: Target) -> str:
    """What a build depends on: the dependency list, the target and this script."""
    material = json.dumps([runtime_dependencies(), target.machine, target.python_version, Path(__file__).read_text()])
    return hashlib.sha256(material.encode()).hexdigest()[:16]


def tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def install(requirements: list[str], site: Path, target: Target) -> None:
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-compile",
        "--only-binary=:all:",
        *target.pip_platform,
        "--target",
        str(site),
        *requirements,
    ]
    subprocess.run(command, check=True)  # noqa: S603 - our own interpreter and pyproject's requirements


def closure(requirements: Iterable[str], site: Path, target: Target = LAMBDA) -> set[str]:
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
                dependency.marker.evaluate({**target.markers, "extra": extra}) for extra in extras
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


def compile_bytecode(sites: list[Path], target: Target) -> str:
    """Write ``__pycache__/*.cpython-3XY.pyc`` beside every module; say which compiler did."""
    if target.python_version == host_target().python_version:
        for site in sites:
            subprocess.run(  # noqa: S603 - our own interpreter on our own build
                [
                    sys.executable,
                    "-m",
                    "compileall",
                    "-q",
                    "-j",
                    "0",
                    "--invalidation-mode",
                    "unchecked-hash",
                    str(site),
                ],
                check=True,
            )
        return f"CPython {sys.version.split()[0]} (this interpreter)"
    if target.python_version != "3.12":
        raise SystemExit(f"No compiler for Python {target.python_version} bytecode: build on that Python.")
    return _compile_with_pyodide(sites)


def _compile_with_pyodide(sites: list[Path]) -> str:
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        raise SystemExit(
            "Compiling Python 3.12 bytecode on this machine needs Node.js and npm (CPython 3.12 runs "
            "there as Pyodide); install them, or build on Python 3.12."
        )
    tools = HERE / "build" / ".pyodide"
    if not (tools / "node_modules" / "pyodide" / "pyodide.asm.wasm").is_file():
        tools.mkdir(parents=True, exist_ok=True)
        subprocess.run(  # noqa: S603 - npm installs one pinned package into our build directory
            [npm, "install", "--prefix", str(tools), "--no-audit", "--no-fund", "--silent", PYODIDE],
            check=True,
        )
    version = ""
    for site in sites:
        done = subprocess.run(  # noqa: S603 - Node runs our own script
            [node, str(HERE / "compile_pyc.mjs"), str(tools / "node_modules" / "pyodide"), str(site.resolve())],
            check=True,
            capture_output=True,
            text=True,
        )
        version = done.stdout.strip().splitlines()[-1]
    if not version.startswith("3.12."):
        raise SystemExit(f"Pyodide compiled with Python {version!r}, not 3.12.")
    return f"CPython {version} (Pyodide, WebAssembly)"


def build(target_dir: Path, target: Target = LAMBDA, *, bytecode: bool = True) -> dict[str, Path]:
    if target_dir.exists():
        shutil.rmtree(target_dir)
    core_site = target_dir / CORE_LAYER / "python"
    mcp_site = target_dir / MCP_LAYER / "python"
    core_site.mkdir(parents=True)
    mcp_site.mkdir(parents=True)
    dependencies = runtime_dependencies()
    install(dependencies, core_site, target)
    mcp_only = {canonicalize_name(n) for n in MCP_ONLY_DISTRIBUTIONS}
    core = [d for d in dependencies if canonicalize_name(Requirement(d).name) not in mcp_only]
    everything = closure(dependencies, core_site, target)
    move_distributions(everything - closure(core, core_site, target), core_site, mcp_site)
    for site in (core_site, mcp_site):
        prune(site)
    if bytecode:
        compiler = compile_bytecode([core_site, mcp_site], target)
        print(f"bytecode: {compiler}")
    return {CORE_LAYER: core_site, MCP_LAYER: mcp_site}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", type=Path, default=LAYER_DIR, help="where to build (default: layers/build)")
    parser.add_argument("--check", action="store_true", help="only check the sizes of an existing build")
    parser.add_argument(
        "--host", action="store_true", help="build for this machine's Python and CPU, not Lambda's (tests)"
    )
    parser.add_argument("--no-bytecode", action="store_true", help="ship sources only (to measure the difference)")
    args = parser.parse_args(argv)
    target = host_target() if args.host else LAMBDA
    if args.check:
        sites = {name: args.target / name / "python" for name in (CORE_LAYER, MCP_LAYER)}
    else:
        sites = build(args.target, target, bytecode=not args.no_bytecode)
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

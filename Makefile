# Two commands a new user needs: `make run` and `make test`. Both install what they use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: run install install-dev test test-unit lint typecheck format openapi bench fuzz crash-long layer synth sizes clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q -e '.[local]'

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install-dev: $(STAMP)

## Install and run the service locally on the embedded store (http://127.0.0.1:8700/docs).
run: install
	$(BIN)/engram serve

## Install everything and run every check and test.
test: install-dev
	$(BIN)/ruff check functions tests bench infra examples
	$(BIN)/ruff format --check functions tests bench infra examples
	$(BIN)/mypy
	PYTHONPATH=functions $(BIN)/lint-imports
	$(BIN)/xenon --max-absolute C functions/engram
	$(BIN)/python -m engram.api.openapi_check docs/openapi.json
	@# Bytecode for our own sources, written once: every `engram serve`, CLI and worker the
	@# suite starts reads it instead of compiling them again (~0.35 s CPU per server start),
	@# also where PYTHONDONTWRITEBYTECODE is set, as on CI. Python checks each file's mtime.
	$(BIN)/python -m compileall -q -j 0 functions tests
	$(BIN)/pytest -n 4 --timeout 600

## The fast loop: lint, types, import layers and the unit tests (network blocked).
test-unit: install-dev
	$(BIN)/ruff check functions tests bench infra examples
	$(BIN)/mypy
	PYTHONPATH=functions $(BIN)/lint-imports
	$(BIN)/xenon --max-absolute C functions/engram
	$(BIN)/pytest -n 4 --timeout 600 tests/unit

lint: install-dev
	$(BIN)/ruff check functions tests bench infra examples
	$(BIN)/ruff format --check functions tests bench infra examples

typecheck: install-dev
	$(BIN)/mypy

format: install-dev
	$(BIN)/ruff check --fix functions tests bench infra examples
	$(BIN)/ruff format functions tests bench infra examples

## Regenerate the checked-in OpenAPI document.
openapi: install-dev
	$(BIN)/python -m engram.api.openapi_check docs/openapi.json --write

## Run every benchmark within its budget (under 12 minutes), draw the charts, write docs/performance.md.
## The load benchmark drives engram serve with wrk (installed here with apt-get when possible, else httpx).
bench: install-dev
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		(apt-get install -y -q wrk >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q wrk >/dev/null)); } || \
		echo "wrk not installed: bench.load falls back to its httpx load generator"
	$(BIN)/python -m bench.run_all

## The long hostile-client runs behind docs/security.md: schemathesis (every check and phase)
## with 20,000 requests per role on a fresh engram serve, and 100 SIGKILLs during writes.
fuzz: install-dev
	$(BIN)/python -m bench.fuzz --requests 20000

crash-long: install-dev
	ENGRAM_CRASH_KILLS=100 $(BIN)/pytest -n 0 --timeout 3600 tests/e2e/test_crash_safety.py

## Build the Lambda dependency layers without Docker (layers/build/{core,mcp}/python), with python3.12 bytecode
## (compiled by CPython 3.12 on Pyodide under Node when this machine's Python is another version).
LAYER_STAMP := layers/build/.built
$(LAYER_STAMP): pyproject.toml layers/build.py layers/compile_pyc.mjs | $(STAMP)
	$(BIN)/python layers/build.py
	touch $(LAYER_STAMP)

layer: $(LAYER_STAMP)

## Synthesise the CloudFormation template into cdk.out/ offline (no AWS account); cdk-nag and cfn-lint gate it.
synth: layer
	JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20 $(BIN)/python infra/app.py
	$(BIN)/cfn-lint --ignore-checks W3005 -- cdk.out/*.template.json

## Print layer and code asset sizes, unzipped and zipped; writes bench/results/sizes.json.
sizes: layer
	$(BIN)/python -m bench.sizes

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache cdk.out layers/build

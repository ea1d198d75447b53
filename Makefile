# Two commands a new user needs: `make run` and `make test`. Both install what they use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: run install install-dev test lint typecheck format openapi bench layer synth sizes clean

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
	$(BIN)/python -m engram.api.openapi_check docs/openapi.json
	$(BIN)/pytest -n 2 --timeout 600

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

bench: install-dev
	$(BIN)/python -m bench.run_all

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache cdk.out layers/build

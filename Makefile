# Two entry points (README quick start): `make demo` and `make test`. Both share one .venv.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
PIP     := $(BIN)/pip install --disable-pip-version-check -q -c constraints.txt
export PYTHONDONTWRITEBYTECODE := 1
# Offline at run time: no hub downloads, no telemetry.
export HF_HUB_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False
# The demo writes the store every command reads by default, so the README's examples work right after it.
DEMO_STORE ?= ./jogak_db

.PHONY: demo test lint install install-dev bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(VENV)/.base: $(BIN)/python pyproject.toml constraints.txt
	$(PIP) -e .
	@touch $@

$(VENV)/.dev: $(VENV)/.base
	$(PIP) -e '.[dev]'
	@touch $@

install: $(VENV)/.base
install-dev: $(VENV)/.dev

DEMO_Q ?= 단순 변심인데 반품 배송비 얼마예요?

demo: $(VENV)/.base
	$(BIN)/jogak experiment examples/haru-market
	$(BIN)/jogak chunks examples/haru-market --sample 2
	$(BIN)/jogak ingest examples/haru-market --store $(DEMO_STORE)
	$(BIN)/jogak ask "$(DEMO_Q)" --store $(DEMO_STORE)
	@echo
	@echo 'Next: . $(VENV)/bin/activate, then jogak ask "포인트 유효기간은?", jogak search "교환 배송비", jogak serve'

# Two test processes (pytest-xdist), one file per process at a time: module fixtures (servers, stores)
# start once. Most of the suite waits on servers and subprocesses, so two beat one even on two cores.
TEST_WORKERS ?= 2

test: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check src tests

bench: $(VENV)/.dev
	$(BIN)/python benchmarks/structure.py

clean:  # the store (./jogak_db) may hold your own documents too: remove it yourself
	rm -rf $(VENV) .pytest_cache

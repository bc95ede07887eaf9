# Two commands for a fresh machine: `make run` and `make test`. Both install what they need.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0:8000

# Debian packages: WeasyPrint's Pango, a text font with full German coverage, an emoji font
# for the space symbols; the browser and PDF tools the tests use; gettext for translators.
APT_RUN := libpango-1.0-0 libpangoft2-1.0-0 fonts-noto-core fonts-noto-color-emoji
APT_TEST := chromium poppler-utils gettext

.PHONY: run dev test coverage install install-test apt bench bench-quick flaky-check messages lint

# Safe on a home network: DEBUG off, a secret key made once into data/, only this machine's
# names and addresses allowed, plain HTTP (DJANGO_HTTPS=true behind a proxy that does TLS).
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/python manage.py seed_demo --if-empty
	@# gunicorn and a worker of background work (imports, the coach's tables) together; one
	@# Ctrl-C stops both (tracker/management/commands/serve.py).
	DJANGO_SIGNUP=$${DJANGO_SIGNUP:-open} $(BIN)/python manage.py serve --bind $(HOST)

# For development: DEBUG on, the code reloaded on every change (the worker of background
# work, run_worker, is not: start it again after changing a task).
dev: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo --if-empty
	DJANGO_DEBUG=true $(BIN)/python manage.py run_worker & \
	  trap 'kill $$!' EXIT; \
	  DJANGO_DEBUG=true DJANGO_SIGNUP=$${DJANGO_SIGNUP:-open} $(BIN)/python manage.py runserver $(HOST)

# The suite runs on as many workers as the machine has cores (pytest-xdist).
test: install install-test
	$(BIN)/python -m pytest -n auto --durations=15

# The suite under coverage.py: prints the line coverage of tracker/ and games/ (the suite
# takes about 45% longer so, which is why make test and CI do not measure it).
coverage: install install-test
	$(BIN)/python -m pytest -n auto -q --cov --cov-report=term:skip-covered
	@echo "coverage_percent: $$($(BIN)/python -m coverage report --precision=1 --format=total)"

install: $(VENV)/.installed
	@$(MAKE) --no-print-directory apt PACKAGES="$(APT_RUN)"

install-test:
	@$(MAKE) --no-print-directory apt PACKAGES="$(APT_TEST)"

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

# Installs the Debian packages in PACKAGES that are missing (as root, or through sudo).
apt:
	@command -v dpkg >/dev/null || { echo "Not a Debian system: install $(PACKAGES) by hand."; exit 0; }; \
	missing=$$(for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  echo "Installing Debian packages:" $$missing; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	fi

BENCHES := engine pdf pages tournament concurrency stats devices streams coach import ratings

bench: install install-test
	@for name in $(BENCHES); do echo "== bench/$$name.py"; $(BIN)/python bench/$$name.py || exit 1; done

# Every bench once, briefly: CI runs this so that no bench breaks unnoticed.
bench-quick: install install-test
	@for name in $(BENCHES); do echo "== bench/$$name.py --quick"; $(BIN)/python bench/$$name.py --quick || exit 1; done

# The browser tests again and again (RUNS=5 on SQLite, PG_RUNS=3 on PostgreSQL unless told):
# prints browser_runs and browser_failures, which must be 0.
flaky-check: install install-test
	@.ci/flaky-check

# Re-extract every catalog after changing user-facing strings and compile them. A new
# language gets its catalogs with `make messages LANGS="de en fr it nl xx"` (xx's code added
# to LANGUAGES in tracker/settings.py and games/i18n.py); then translate every entry.
LANGS ?= de fr it nl

messages:
	xgettext --language=Python --keyword=Text --from-code=UTF-8 --no-wrap --sort-by-file \
	  --package-name=games -o games/locale/games.pot games/*.py
	for lang in $(LANGS); do \
	  po=games/locale/$$lang/LC_MESSAGES/games.po; \
	  if [ -f $$po ]; then msgmerge --quiet --update --no-wrap --backup=none $$po games/locale/games.pot; \
	  else mkdir -p $$(dirname $$po) && msginit --no-translator --no-wrap --locale=$$lang \
	    --input=games/locale/games.pot --output-file=$$po; fi; \
	  msgfmt --check -o games/locale/$$lang/LC_MESSAGES/games.mo $$po || exit 1; \
	done
	$(BIN)/python manage.py makemessages $(foreach lang,$(LANGS),--locale $(lang)) --no-wrap \
	  --ignore ".venv/*" --ignore "games/*" --ignore "tests/*"
	$(BIN)/python manage.py compilemessages $(foreach lang,$(LANGS),--locale $(lang)) --ignore ".venv/*"
	$(BIN)/python -m games > docs/games.md

lint:
	$(BIN)/ruff check games tracker tests bench

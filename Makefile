# Two commands on a fresh machine with Python 3.11, make and git:
#   make run    set up, then serve the app on http://127.0.0.1:5000 (HOST and PORT override)
#   make test   set up, then lint and run every test
#   make lint   ruff (style, import order) and mypy (strict on the engine and on the web modules listed in
#               STRICT_WEB, plain on the rest of the web layer and the benchmarks)
#   make serve  set up, migrate, then serve with the production server on http://127.0.0.1:8000
#               (HOST, PORT, WORKERS, THREADS, ACCESS_LOG=1 from the environment; docs/deploy.md)
#   make table  the same on this machine's address on the local network, printed with its QR code, for the
#               phones at the table to join (HOST and PORT override; README, "Hosting the table")
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
HOST   ?= 127.0.0.1
PORT   ?= 5000
PO     := $(wildcard translations/*/LC_MESSAGES/messages.po)
MO     := $(PO:.po=.mo)

.PHONY: run serve table test lint bench stops bench-compare loadtest setup translations clean

setup: $(STAMP) $(MO)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $@

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po $(STAMP)
	$(BIN)/pybabel -q compile -i $< -o $@

translations: $(MO)

run: setup
	$(BIN)/flask --app app db upgrade
	$(BIN)/flask --app app run --host $(HOST) --port $(PORT)

serve: setup
	$(BIN)/flask --app app db upgrade
	$(BIN)/python -m referee.web.server

table: setup
	$(BIN)/flask --app app db upgrade
	$(BIN)/python -m referee.web.host

# the web modules held to mypy's strict mode (checked alone: what they import is checked by the plain run)
STRICT_WEB := referee/web/settings.py referee/web/scoreboard/reads.py referee/web/scoreboard/gamestate.py \
	referee/web/scoreboard/create.py referee/web/scoreboard/changes.py referee/web/scoreboard/seating.py \
	referee/web/scoreboard/transfer.py referee/web/scoreboard/services.py referee/web/scoreboard/view.py \
	referee/web/scoreboard/manage.py referee/web/scoreboard/routes.py referee/web/api/games.py \
	referee/web/groups/stats.py referee/web/groups/transfer.py referee/web/groups/services.py \
	referee/web/groups/roster.py referee/web/groups/manage.py

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy --strict referee --exclude '^referee/web/'
	$(BIN)/mypy --strict --follow-imports=silent $(STRICT_WEB)
	$(BIN)/mypy referee/web app.py
	$(BIN)/mypy bench

# prints how long it took; says when the PostgreSQL tests did not run (TEST_POSTGRES_URL unset: README, "Tests")
test: setup
	@t0=$$(date +%s); $(MAKE) --no-print-directory lint && $(BIN)/python -m pytest -n 2 --dist loadfile; rc=$$?; \
	echo "make test: $$(( $$(date +%s) - t0 )) s, exit $$rc"; exit $$rc

bench: setup
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/heavy.py

# how far a reader travels following a saved hand and a meld check (bench/stops.py)
stops: setup
	$(BIN)/python bench/stops.py

# the engine against an earlier revision's, interleaved in one run: make bench-compare BASE=<rev>
bench-compare: setup
	$(BIN)/python bench/compare.py $(BASE)

# steps the tables up until the target is missed; LOADTEST_TABLES=N for one load, DATABASE_URL=postgresql://…
# for PostgreSQL, INSTANCES=2 for two servers on one database (docs/bench.md)
loadtest: setup
	$(BIN)/python bench/loadtest.py

clean:
	rm -rf $(VENV) $(MO) .pytest_cache .hypothesis

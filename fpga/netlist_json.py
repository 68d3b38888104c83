# SPDX-License-Identifier: Apache-2.0
"""What the fpga/ scripts share when they read Yosys's and nextpnr's JSON netlists.

  top_module(netlist, name)  the top module: the one named, else the one with the `top`
                             attribute, else the only one (InputError otherwise)
  placed_locations(placed)   cell name -> (x, y) from the NEXTPNR_BEL attributes of a placed
                             or routed netlist that nextpnr wrote (`--write`)
  load(path)                 a JSON file (InputError naming the file if it cannot be read)
  BEL_XY                     the (x, y) and site of a NEXTPNR_BEL value
"""

import json
import re

BEL_XY = re.compile(r"^X(\d+)/Y(\d+)/(.*)$")


class InputError(Exception):
    """A netlist that is not what the script needs; the message says why."""


def top_module(netlist, name=None):
    mods = netlist.get("modules", {}) if isinstance(netlist, dict) else {}
    if not mods:
        raise InputError("no modules in the netlist")
    if name:
        if name not in mods:
            raise InputError(f"no module {name} in the netlist")
        return mods[name]
    tops = [m for m in mods.values()
            if str(m.get("attributes", {}).get("top", "0")).strip("0") != ""]
    if len(tops) == 1:
        return tops[0]
    if len(mods) == 1:
        return next(iter(mods.values()))
    raise InputError("cannot tell the top module (give --top)")


def placed_locations(placed):
    """cell name -> (x, y); a packed cell named NAME$SUFFIX also gives NAME's location (nextpnr
    renames the cells it creates from a netlist cell that way)."""
    loc = {}
    base = {}
    for name, cell in top_module(placed).get("cells", {}).items():
        m = BEL_XY.match(str(cell.get("attributes", {}).get("NEXTPNR_BEL", "")))
        if not m:
            continue
        xy = (int(m.group(1)), int(m.group(2)))
        loc[name] = xy
        if "$" in name:
            base.setdefault(name.split("$", 1)[0], xy)
    for k, v in base.items():
        loc.setdefault(k, v)
    return loc


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"cannot read {path}: {e}") from e

# SPDX-License-Identifier: Apache-2.0
# Run inside GTKWave by tb/gtkw_view_test.py: opens every group of the loaded save file, puts
# the marker at $SGU_MARKER and prints what GTKWave shows, then exits.

# Opens the closed groups one at a time (a nested group becomes reachable once its parent is
# open) until none is left.
proc open_all_groups {} {
  for {set again 1} {$again} {} {
    set again 0
    set n [gtkwave::getTotalNumTraces]
    for {set i 0} {$i < $n} {incr i} {
      set f [gtkwave::getTraceFlagsFromIndex $i]
      if {($f & 0x800000) && ($f & 0x400000)} {
        gtkwave::/Edit/UnHighlight_All
        gtkwave::setTraceHighlightFromIndex $i on
        gtkwave::/Edit/Toggle_Group_Open|Close
        set again 1
        break
      }
    }
  }
  gtkwave::/Edit/UnHighlight_All
}

puts "WINDOW [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime]"
puts "MAXTIME [gtkwave::getMaxTime]"
puts "UNIT [gtkwave::getTimeDimension]"
open_all_groups
gtkwave::setMarker $::env(SGU_MARKER)
set n [gtkwave::getTotalNumTraces]
puts "TRACES $n"
for {set i 0} {$i < $n} {incr i} {
  set flags [gtkwave::getTraceFlagsFromIndex $i]
  set name [gtkwave::getTraceNameFromIndex $i]
  puts "TRACE $flags|$name|[gtkwave::getTraceValueAtMarkerFromIndex $i]"
}
puts "DONE"
exit 0

// SPDX-License-Identifier: Apache-2.0
// Timing harnesses (docs/fpga.md "Timing"), read after rtl/sgu_files.f.
sgu_lane_timing.sv

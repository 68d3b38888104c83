// SPDX-License-Identifier: Apache-2.0
// Timing harnesses (docs/timing.md "Whole core"), read after rtl/sgu_files.f.
sgu_lane_timing.sv

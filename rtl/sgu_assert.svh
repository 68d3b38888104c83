// SPDX-License-Identifier: Apache-2.0
// SGU assertion macros: active in simulation (Verilator --assert), empty for synthesis.
//
// Every RTL file that checks an invariant includes this file and uses these macros, so that
// one switch (SYNTHESIS) removes all of them and one place decides how they report.
// Immediate assertions and simple concurrent properties (|->, |=>, $past, $stable, disable iff)
// are evaluated by the Verilator release we use (5.006); ## sequences are not.

`ifndef SGU_ASSERT_SVH
`define SGU_ASSERT_SVH

`ifndef SYNTHESIS
// Concurrent property checked on every rising clock edge while reset is released.
`define SGU_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni) \
  name: assert property (@(posedge clk) disable iff (!(rst_n)) (prop)) \
    else $error("SGU_ASSERT %s failed", `"name`");
// Signal has no X or Z bits whenever it is sampled outside reset.
// Only a four-state simulator can make this fire. Verilator is two-state: $isunknown() is
// constant 0 there, so under our Verilator tests these assertions never fail, whatever the
// design does. They document intent and check it in four-state tools; in the Verilator tests
// the stand-in is random X values: the models are built with --x-assign unique and
// --x-initial unique and the testbench sets randReset(2) with a per-run seed (tb/rtl_sim_impl.h),
// so an X that reaches architectural state is a random value that the lockstep checker reports
// as a mismatch (docs/verification.md, "X and the known-value assertions").
`define SGU_ASSERT_KNOWN(name, sig, clk = clk_i, rst_n = rst_ni) \
  `SGU_ASSERT(name, !$isunknown(sig), clk, rst_n)
// Elaboration-time check of parameters.
`define SGU_ASSERT_INIT(name, cond) \
  initial begin : name \
    if (!(cond)) $fatal(1, "SGU_ASSERT_INIT %s failed", `"name`"); \
  end
`else
`define SGU_ASSERT(name, prop, clk = clk_i, rst_n = rst_ni)
`define SGU_ASSERT_KNOWN(name, sig, clk = clk_i, rst_n = rst_ni)
`define SGU_ASSERT_INIT(name, cond)
`endif

`endif  // SGU_ASSERT_SVH

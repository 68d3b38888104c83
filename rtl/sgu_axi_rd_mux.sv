// SPDX-License-Identifier: Apache-2.0
// SGU AXI read-channel multiplexer: instruction fetch and load/store unit share one AR/R pair.
//
// The owner of the read channels is chosen when an AR is offered (the LSU first) and kept until
// the R beat with RLAST; a requester that is not the owner sees ready low, so neither AR nor R
// is ever split between them. In the SGU the two never want the bus at the same time (the core
// waits for one before it starts the other), so the lock only guards the rule. Zero latency.

`include "sgu_assert.svh"

module sgu_axi_rd_mux (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // Requester 0: instruction fetch (bursts).
  input  logic                    f_ar_valid_i,
  output logic                    f_ar_ready_o,
  input  logic [31:0]             f_ar_addr_i,
  input  logic [7:0]              f_ar_len_i,
  input  logic [2:0]              f_ar_size_i,
  output logic                    f_r_valid_o,
  input  logic                    f_r_ready_i,
  // Requester 1: load/store unit (single beats).
  input  logic                    l_ar_valid_i,
  output logic                    l_ar_ready_o,
  input  logic [31:0]             l_ar_addr_i,
  input  logic [2:0]              l_ar_size_i,
  output logic                    l_r_valid_o,
  input  logic                    l_r_ready_i,
  // Shared AXI4 read channels.
  output logic                    ar_valid_o,
  input  logic                    ar_ready_i,
  output logic [31:0]             ar_addr_o,
  output logic [7:0]              ar_len_o,
  output logic [2:0]              ar_size_o,
  input  logic                    r_valid_i,
  output logic                    r_ready_o,
  input  logic                    r_last_i
);
  typedef enum logic [1:0] {
    OwnNone,
    OwnFetch,
    OwnLsu
  } owner_e;

  owner_e owner_q, owner_d, ar_owner;

  // The AR channel goes to the current owner, or is granted when free.
  always_comb begin
    ar_owner = owner_q;
    if (owner_q == OwnNone) begin
      ar_owner = l_ar_valid_i ? OwnLsu : (f_ar_valid_i ? OwnFetch : OwnNone);
    end
  end

  assign ar_valid_o   = (ar_owner == OwnLsu) ? l_ar_valid_i :
                        (ar_owner == OwnFetch) ? f_ar_valid_i : 1'b0;
  assign ar_addr_o    = (ar_owner == OwnLsu) ? l_ar_addr_i : f_ar_addr_i;
  assign ar_len_o     = (ar_owner == OwnLsu) ? 8'd0 : f_ar_len_i;
  assign ar_size_o    = (ar_owner == OwnLsu) ? l_ar_size_i : f_ar_size_i;
  assign f_ar_ready_o = (ar_owner == OwnFetch) && ar_ready_i;
  assign l_ar_ready_o = (ar_owner == OwnLsu) && ar_ready_i;

  assign f_r_valid_o = (owner_q == OwnFetch) && r_valid_i;
  assign l_r_valid_o = (owner_q == OwnLsu) && r_valid_i;
  assign r_ready_o   = (owner_q == OwnFetch) ? f_r_ready_i :
                       (owner_q == OwnLsu) ? l_r_ready_i : 1'b0;

  always_comb begin
    owner_d = owner_q;
    if (ar_valid_o && ar_ready_i) begin
      owner_d = ar_owner;
    end else if (owner_q == OwnNone) begin
      // Hold the grant while the AR waits for ready (AR payload must not switch).
      owner_d = ar_owner;
    end
    if (r_valid_i && r_ready_o && r_last_i) begin
      owner_d = OwnNone;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      owner_q <= OwnNone;
    end else begin
      owner_q <= owner_d;
    end
  end

  `SGU_ASSERT(NoRWithoutOwner_A, r_valid_i |-> owner_q != OwnNone)

endmodule

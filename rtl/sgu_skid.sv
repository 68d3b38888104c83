// SPDX-License-Identifier: Apache-2.0
// SGU register slice for one valid/ready channel (a skid buffer): every output is a flip-flop.
//
// The payload, the output valid and the input ready all come from registers, so that no
// combinational path runs through the slice in either direction: the sender's logic and the
// receiver's can be placed far apart without their logic depths adding up. Full throughput (one
// transfer per cycle while the receiver is ready), two cycles of capacity, one cycle of latency.
//
//   s_ready_o is high while the skid register is empty. A transfer that arrives while the
//   output register is full and not taken goes into the skid register; the output register
//   takes the skid register's payload first as soon as it is free, then the input's again.
//   Transfers leave in the order they arrived.
// The payload registers have no reset (only the valid bits do): their value is don't-care
// while their valid bit is low.

`include "sgu_assert.svh"

module sgu_skid #(
  parameter int unsigned Width = 32  // payload bits
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             s_valid_i,
  output logic             s_ready_o,
  input  logic [Width-1:0] s_data_i,
  output logic             m_valid_o,
  input  logic             m_ready_i,
  output logic [Width-1:0] m_data_o
);
  logic             m_valid_q, skid_valid_q;
  logic [Width-1:0] m_data_q, skid_q;
  logic             out_free;

  assign out_free = !m_valid_q || m_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_valid_q    <= 1'b0;
      skid_valid_q <= 1'b0;
    end else if (out_free) begin
      m_valid_q    <= skid_valid_q || s_valid_i;
      skid_valid_q <= 1'b0;
    end else if (s_valid_i && !skid_valid_q) begin
      skid_valid_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (out_free) begin
      m_data_q <= skid_valid_q ? skid_q : s_data_i;
    end else if (s_valid_i && !skid_valid_q) begin
      skid_q <= s_data_i;
    end
  end

  assign s_ready_o = !skid_valid_q;
  assign m_valid_o = m_valid_q;
  assign m_data_o  = m_data_q;

  // While the output waits for its receiver, it holds its payload (AXI's rule for a valid).
  `SGU_ASSERT(Hold_A, m_valid_o && !m_ready_i |=> m_valid_o && $stable(m_data_o))
  // Never more than two transfers inside: the input is refused while the skid register is full.
  `SGU_ASSERT(NoOverflow_A, skid_valid_q && !out_free |=> skid_valid_q && $stable(skid_q))
endmodule

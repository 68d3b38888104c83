#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Host side of the SGU board's UART bridge: load a kernel, start it, poll, read results.

  fpga/uart_host.py --port /dev/ttyUSB0 info
  fpga/uart_host.py --port /dev/ttyUSB0 write 0x1000 0xcafef00d
  fpga/uart_host.py --port /dev/ttyUSB0 read 0x9000 --count 16
  fpga/uart_host.py --port /dev/ttyUSB0 run k.bin --lanes 8 --arg 0x9000 --dump 0x9000:16
  fpga/uart_host.py selftest            # frame and CRC checks, no board needed

`run` loads a raw little-endian program binary (build/sw/sgu asm k.s -o k.bin) at --at (default
0), writes PC_START, LANES, MEM_BASE, MEM_LIMIT, WATCHDOG and ARG0..7, starts the kernel, polls
STATUS until it is no longer busy, prints the status, cause, cycles and instructions, and dumps
the words asked for. Exit status 0 when the kernel halted, 1 when it trapped or a frame failed.

Frame format (rtl/sgu_uart_axil.sv, docs/fpga.md "UART bridge"); multi-byte fields little-endian:
  write request  'W' addr[4] data[4] crc      (10 bytes)
  read request   'R' addr[4] crc              (6 bytes)
  reply          status data[4] crc           (6 bytes; data is the word read, else 0)
CRC-8/SMBUS (polynomial 0x07, initial 0, no reflection, no final XOR) over the bytes before it.
Host address map of the ULX3S top: on-chip memory at 0x0000_0000, SGU registers at 0x4000_0000.
Needs pyserial (`pip install pyserial`) for a real port.
"""

import argparse
import struct
import sys
import time

CMD_WRITE, CMD_READ = 0x57, 0x52
STATUS = {0x00: "OK", 0x01: "EXOKAY", 0x02: "SLVERR", 0x03: "DECERR", 0x10: "bad CRC",
          0x11: "unknown command", 0x12: "timeout", 0x13: "framing error",
          0x14: "unaligned address", 0x15: "overrun"}
CSR_BASE = 0x40000000
CSR = {"CTRL": 0x00, "STATUS": 0x04, "CAUSE": 0x08, "TRAP_PC": 0x0C, "TRAP_VAL": 0x10,
       "PC_START": 0x14, "LANES": 0x18, "MEM_BASE": 0x1C, "MEM_LIMIT": 0x20, "WATCHDOG": 0x24,
       "CYCLES_LO": 0x28, "CYCLES_HI": 0x2C, "INSTRET_LO": 0x30, "INSTRET_HI": 0x34,
       "CONFIG": 0x38, "ARG0": 0x40}


def crc8(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def write_frame(addr, data):
    f = struct.pack("<BII", CMD_WRITE, addr, data)
    return f + bytes([crc8(f)])


def read_frame(addr):
    f = struct.pack("<BI", CMD_READ, addr)
    return f + bytes([crc8(f)])


class BridgeError(Exception):
    pass


class Bridge:
    """One frame at a time over a transport with write(bytes) and read(n) -> bytes."""

    def __init__(self, port, retries=2):
        self.port = port
        self.retries = retries

    def _transact(self, frame):
        for attempt in range(self.retries + 1):
            self.port.write(frame)
            reply = self.port.read(6)
            if len(reply) != 6:
                err = f"no reply ({len(reply)} of 6 bytes)"
            elif crc8(reply[:5]) != reply[5]:
                err = "reply CRC mismatch"
            else:
                status, data = reply[0], struct.unpack("<I", reply[1:5])[0]
                # Line errors are retried; AXI errors and bad requests are reported.
                if status in (0x10, 0x12, 0x13, 0x15) and attempt < self.retries:
                    time.sleep(0.05)
                    continue
                return status, data
            if attempt < self.retries:
                time.sleep(0.05)
                if hasattr(self.port, "reset_input_buffer"):
                    self.port.reset_input_buffer()
                continue
            raise BridgeError(err)
        raise BridgeError("unreachable")

    def write(self, addr, value):
        status, _ = self._transact(write_frame(addr, value & 0xFFFFFFFF))
        if status != 0:
            raise BridgeError(f"write 0x{addr:08x}: {STATUS.get(status, hex(status))}")

    def read(self, addr):
        status, data = self._transact(read_frame(addr))
        if status != 0:
            raise BridgeError(f"read 0x{addr:08x}: {STATUS.get(status, hex(status))}")
        return data

    def csr(self, name, value=None):
        addr = CSR_BASE + CSR[name]
        if value is None:
            return self.read(addr)
        self.write(addr, value)
        return value


def load_binary(bridge, path, at):
    data = open(path, "rb").read()
    data += b"\0" * (-len(data) % 4)
    for i in range(0, len(data), 4):
        bridge.write(at + i, struct.unpack("<I", data[i:i + 4])[0])
    return len(data)


def cmd_run(bridge, a):
    n = load_binary(bridge, a.program, a.at)
    print(f"loaded {n} bytes at 0x{a.at:08x}")
    bridge.csr("PC_START", a.at)
    bridge.csr("LANES", a.lanes)
    bridge.csr("MEM_BASE", a.mem_base)
    bridge.csr("MEM_LIMIT", a.mem_limit)
    bridge.csr("WATCHDOG", a.watchdog)
    for i, v in enumerate(a.arg[:8]):
        bridge.write(CSR_BASE + CSR["ARG0"] + 4 * i, v)
    bridge.csr("CTRL", 1)
    t0 = time.time()
    while True:
        status = bridge.csr("STATUS")
        if not status & 1:
            break
        if time.time() - t0 > a.timeout:
            print("still busy after the timeout", file=sys.stderr)
            return 1
        time.sleep(0.01)
    cycles = bridge.csr("CYCLES_LO") | bridge.csr("CYCLES_HI") << 32
    instret = bridge.csr("INSTRET_LO") | bridge.csr("INSTRET_HI") << 32
    trapped = bool(status & 4)
    print(f"status 0x{status:x} ({'trapped' if trapped else 'done' if status & 2 else '?'}), "
          f"cycles {cycles}, instructions {instret}")
    if trapped:
        print(f"cause {bridge.csr('CAUSE')}, trap pc 0x{bridge.csr('TRAP_PC'):08x}, "
              f"trap value 0x{bridge.csr('TRAP_VAL'):08x}")
    for spec in a.dump:
        addr, count = (int(x, 0) for x in spec.split(":"))
        dump(bridge, addr, count)
    return 1 if trapped else 0


def dump(bridge, addr, count):
    for i in range(count):
        if i % 4 == 0:
            print(f"{addr + 4 * i:08x}:", end="")
        print(f" {bridge.read(addr + 4 * i):08x}", end="\n" if i % 4 == 3 or i == count - 1 else "")


def selftest():
    assert crc8(b"123456789") == 0xF4, "CRC-8/SMBUS check value"
    f = write_frame(0x1000, 0xCAFEF00D)
    assert f == bytes([0x57, 0x00, 0x10, 0, 0, 0x0D, 0xF0, 0xFE, 0xCA, crc8(f[:9])])
    assert crc8(f) == 0, "a frame with its CRC has CRC 0"
    assert read_frame(0x40000004)[:5] == bytes([0x52, 0x04, 0, 0, 0x40])

    class Fake:  # replies like the bridge over a dict memory
        def __init__(self):
            self.mem, self.out = {}, b""

        def write(self, f):
            if crc8(f) != 0:
                status, data = 0x10, 0
            elif f[0] == CMD_WRITE:
                addr, value = struct.unpack("<II", f[1:9])
                self.mem[addr] = value
                status, data = 0, 0
            else:
                status, data = 0, self.mem.get(struct.unpack("<I", f[1:5])[0], 0)
            r = struct.pack("<BI", status, data)
            self.out = r + bytes([crc8(r)])

        def read(self, n):
            r, self.out = self.out[:n], self.out[n:]
            return r

    b = Bridge(Fake())
    b.write(0x20, 0x12345678)
    assert b.read(0x20) == 0x12345678
    print("uart_host selftest: 3 passed, 0 failed")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n", 2)[2])
    p.add_argument("--port", help="serial port, e.g. /dev/ttyUSB0")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--reply-timeout", type=float, default=0.5, help="seconds per reply")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("selftest")
    sub.add_parser("info")
    w = sub.add_parser("write")
    w.add_argument("addr", type=lambda x: int(x, 0))
    w.add_argument("value", type=lambda x: int(x, 0))
    r = sub.add_parser("read")
    r.add_argument("addr", type=lambda x: int(x, 0))
    r.add_argument("--count", type=int, default=1)
    ld = sub.add_parser("load")
    ld.add_argument("program")
    ld.add_argument("--at", type=lambda x: int(x, 0), default=0)
    run = sub.add_parser("run")
    run.add_argument("program", help="raw program binary (sgu asm -o)")
    run.add_argument("--at", type=lambda x: int(x, 0), default=0)
    run.add_argument("--lanes", type=int, default=0, help="active lanes (0: all)")
    run.add_argument("--mem-base", type=lambda x: int(x, 0), default=0)
    run.add_argument("--mem-limit", type=lambda x: int(x, 0), default=0x10000)
    run.add_argument("--watchdog", type=lambda x: int(x, 0), default=0)
    run.add_argument("--arg", type=lambda x: int(x, 0), action="append", default=[])
    run.add_argument("--dump", action="append", default=[], metavar="ADDR:COUNT")
    run.add_argument("--timeout", type=float, default=30.0)
    a = p.parse_args()
    if a.cmd == "selftest":
        return selftest()
    if not a.port:
        p.error("--port is required")
    try:
        import serial  # pyserial
    except ImportError:
        print("uart_host: pyserial is missing: pip install pyserial", file=sys.stderr)
        return 2
    bridge = Bridge(serial.Serial(a.port, a.baud, timeout=a.reply_timeout))
    try:
        if a.cmd == "info":
            cfg = bridge.csr("CONFIG")
            print(f"SGU: {cfg & 0xFF} lanes, AXI {8 * (cfg >> 8 & 0xFF)} bits, mask stack "
                  f"{cfg >> 16 & 0xFF}, ISA version {cfg >> 24}; STATUS 0x{bridge.csr('STATUS'):x}")
        elif a.cmd == "write":
            bridge.write(a.addr, a.value)
        elif a.cmd == "read":
            dump(bridge, a.addr, a.count)
        elif a.cmd == "load":
            print(f"loaded {load_binary(bridge, a.program, a.at)} bytes")
        elif a.cmd == "run":
            return cmd_run(bridge, a)
    except BridgeError as e:
        print(f"uart_host: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

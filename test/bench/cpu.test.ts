// The bench's CPU columns (bench/cpu.ts): /proc's stat line is read past the command name, which
// may itself hold spaces and parentheses, and the figures are per response.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { cpuMeter, perResponse, processMicros } from '../../bench/cpu.ts';

describe('bench CPU meter', () => {
  it('reads utime and stime after the command name, whatever it holds', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    const stat = '4242 (node (worker) a) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0';
    expect(processMicros(stat)).toBe((250 + 50) * 10_000);
  });

  it('divides each party by the responses, and leaves out what it could not read', () => {
    const before = { server: 1_000_000, database: null, client: 500_000 };
    const after = { server: 1_600_000, database: null, client: 800_000 };
    expect(perResponse(before, after, 3_000)).toEqual({ server: 200, database: null, client: 100 });
    expect(perResponse(before, after, 0)).toBeNull();
  });

  it.runIf(existsSync('/proc/self/stat'))('samples a live process from /proc', () => {
    const meter = cpuMeter({ serverPid: process.pid, database: false });
    const before = meter.sample();
    // 60 ms of this process's own CPU (about 6 ticks), not of the wall clock: on a loaded machine
    // (CI runs two test files at once on two cores) 60 ms of wall clock gave less than 30 ms of CPU.
    const start = process.cpuUsage();
    const spent = () => {
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    while (spent() < 60_000);
    const after = meter.sample();
    expect(after.server! - before.server!).toBeGreaterThan(0);
    expect(after.client - before.client).toBeGreaterThan(30_000);
    expect(after.database).toBeNull();
  });
});

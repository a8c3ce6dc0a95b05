// The bench's CPU columns (bench/cpu.ts): /proc's stat line is read past the command name, which
// may itself hold spaces and parentheses, and the figures are per response.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { cpuMeter, idleShare, parseMachineTicks, perResponse, processMicros } from '../../bench/cpu.ts';

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

describe('machine idle share', () => {
  it('reads idle and iowait over the first line\'s eight counted fields', () => {
    const before = parseMachineTicks('cpu  100 0 50 800 50 0 0 0 30 0\ncpu0 50 0 25 400 25 0 0 0 0 0\n');
    const after = parseMachineTicks('cpu  250 0 100 900 50 0 0 0 60 0\n');
    // guest (30 -> 60) is inside user already: 300 ticks passed, 100 of them idle.
    expect(before).toEqual({ idle: 850, total: 1000 });
    expect(idleShare(before, after)).toBe(100 / 300);
  });

  it('gives null for what it cannot read, and when no tick passed', () => {
    expect(parseMachineTicks('intr 1 2 3\n')).toBeNull();
    expect(parseMachineTicks('cpu  1 2 x 4 5\n')).toBeNull();
    const ticks = { idle: 10, total: 100 };
    expect(idleShare(ticks, ticks)).toBeNull();
    expect(idleShare(null, ticks)).toBeNull();
  });

  it('says what the seed measured, and nothing for what it could not', async () => {
    const { seedCpuText } = await import('../../bench/report.ts');
    expect(seedCpuText({ cpu: { server: 340, database: 383, client: 62 }, idleShare: 0.214 })).toBe(
      '; CPU per request: service 340 us, database 383 us, client 62 us; machine 21% idle',
    );
    expect(seedCpuText({ cpu: { server: 500, database: null, client: 70 }, idleShare: null })).toBe('; CPU per request: service 500 us, client 70 us');
    expect(seedCpuText({})).toBe('');
  });
});

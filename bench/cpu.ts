// Where a measured run's CPU went, per response: the server process (service or ceiling), the
// Postgres backends, and this process (autocannon, the load generator). Every party shares the
// machine's cores, so req/s alone cannot say whose cost limits a row; CPU time per response can.
// Read from /proc (Linux): elsewhere the figures are null and the report shows "-".
import { readdirSync, readFileSync } from 'node:fs';

export type CpuSample = { server: number | null; database: number | null; client: number };
/** Microseconds of CPU (user + system) per response, over one measured run. */
export type CpuPerResponse = { server: number | null; database: number | null; client: number };

// USER_HZ: the kernel reports utime and stime in ticks of 1/100 s on every Linux architecture.
const MICROS_PER_TICK = 10_000;

/** utime + stime of one process (all its threads), in microseconds; null when /proc cannot tell. */
export function processMicros(stat: string): number {
  // The command name, in parentheses, may hold spaces: the fields are counted after its ")".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
}

function pidMicros(pid: number): number | null {
  try {
    return processMicros(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Every process named "postgres" on this machine: the postmaster and its backends (the bench's
 * database is a throwaway one, and nothing else runs queries meanwhile). Null when there is none
 * (embedded mode, where PGlite runs inside the service, or a database on another host). A backend
 * that exits during the run takes its ticks with it: the pool keeps its connections open, so none do.
 */
function postgresMicros(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let total = 0;
  let found = false;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    if (!stat.includes(' (postgres) ')) continue;
    found = true;
    total += processMicros(stat);
  }
  return found ? total : null;
}

/**
 * The machine's idle share between two readings of /proc/stat's first line ("cpu  user nice system
 * idle iowait irq softirq steal ..."): idle and iowait over every field. It tells whether a run was
 * bound by the cores (near 0) or by waits (the seed's 16 clients each wait for their answers).
 */
export type MachineTicks = { idle: number; total: number };

export function parseMachineTicks(procStat: string): MachineTicks | null {
  const end = procStat.indexOf('\n');
  const line = end === -1 ? procStat : procStat.slice(0, end);
  if (!line.startsWith('cpu ')) return null;
  const fields = line.slice(4).trim().split(/\s+/).map(Number);
  if (fields.length < 5 || fields.some((n) => !Number.isFinite(n))) return null;
  // guest and guest_nice (fields 9 and 10) are already counted in user and nice.
  const counted = fields.slice(0, 8);
  return { idle: fields[3]! + fields[4]!, total: counted.reduce((a, b) => a + b, 0) };
}

export function machineTicks(): MachineTicks | null {
  try {
    return parseMachineTicks(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/** The idle share (0..1) between two readings; null when either is missing or no tick passed. */
export function idleShare(before: MachineTicks | null, after: MachineTicks | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (after.idle - before.idle) / (after.total - before.total);
}

export type CpuMeter = { sample(): CpuSample };

export function cpuMeter(options: { serverPid: number; database: boolean }): CpuMeter {
  return {
    sample() {
      const own = process.cpuUsage();
      return {
        server: pidMicros(options.serverPid),
        database: options.database ? postgresMicros() : null,
        client: own.user + own.system,
      };
    },
  };
}

export function perResponse(before: CpuSample, after: CpuSample, responses: number): CpuPerResponse | null {
  if (responses <= 0) return null;
  const per = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round((b - a) / responses));
  return { server: per(before.server, after.server), database: per(before.database, after.database), client: per(before.client, after.client)! };
}

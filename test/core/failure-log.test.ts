// Background loops say a failure once per kind, not once per poll (core/log.ts, failureLog).
import { describe, expect, it } from 'vitest';
import { createMemoryLogger, failureLog } from '../../core/log.ts';

describe('failureLog', () => {
  it('logs the first of a run of equal failures, a different one, and the recovery with the count', () => {
    const log = createMemoryLogger();
    const polls = failureLog(log, 'poll failed', 'poll works again');
    polls.succeeded();
    expect(log.lines).toEqual([]);
    for (let i = 0; i < 5; i++) polls.failed(new Error('read-only'));
    polls.failed(new Error('connection refused'));
    polls.failed(new Error('connection refused'));
    polls.succeeded();
    polls.succeeded();
    polls.failed(new Error('read-only'));
    expect(log.lines).toEqual([
      { level: 'warn', msg: 'poll failed', error: 'Error: read-only' },
      { level: 'warn', msg: 'poll failed', error: 'Error: connection refused' },
      { level: 'info', msg: 'poll works again', failures: 7 },
      { level: 'warn', msg: 'poll failed', error: 'Error: read-only' },
    ]);
  });
});

// The one way core writes: a transaction that collects the domain events of what it did, inserts
// them before commit (so a write and its event commit or roll back together), and hands them to
// the in-process subscribers after commit. Called again inside an open transaction (deps.tx set),
// it reuses that transaction: a use-case composed of others commits once, with all their events.
import type { Sql, TransactionSql } from './client.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { DomainEvent, RecordedEvent } from '../events/domain-event.ts';
import { insertEvents } from '../events/record-events.ts';

export type Tx = {
  sql: TransactionSql;
  /** Records what this transaction did; inserted before commit, published after it. */
  record(...events: DomainEvent[]): void;
  /**
   * An event a statement of this transaction inserted itself (saving a round trip on a hot write,
   * see create-key.ts): published after commit with the others. Call flush() before that statement.
   */
  inserted(event: RecordedEvent): void;
  /**
   * Inserts the events recorded so far (nothing, and no round trip, when there are none), so that a
   * statement inserting its own event next gets a later id: ids follow the order of the writes.
   */
  flush(): Promise<void>;
};

export type TransactionDeps = { sql: Sql; events: EventBus; tx?: Tx | undefined };

export async function transaction<T>(deps: TransactionDeps, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (deps.tx) return work(deps.tx);
  let recorded: RecordedEvent[] = [];
  const result = await deps.sql.begin(async (sql) => {
    const pending: DomainEvent[] = [];
    const stored: RecordedEvent[] = [];
    const flush = async () => {
      if (pending.length > 0) stored.push(...(await insertEvents(sql, pending.splice(0))));
    };
    const value = await work({
      sql,
      record: (...events) => void pending.push(...events),
      inserted: (event) => void stored.push(event),
      flush,
    });
    await flush();
    recorded = stored.sort((a, b) => a.id - b.id);
    return value;
  });
  await deps.events.publish(recorded);
  return result as T;
}

/**
 * A write that is one statement (the hot single-value writes) runs on `deps.sql`, outside any open
 * transaction: called inside one it would commit on its own (or, on a one-connection pool, wait
 * forever for a second connection). Such writes call this first, so that they refuse before writing.
 */
export function assertOutsideTransaction(deps: Pick<TransactionDeps, 'tx'>): void {
  if (deps.tx) throw new Error('single-statement write called inside a transaction');
}

/**
 * A write that is one statement records its event inside that same statement (see
 * put-translation.ts) and publishes it here after the implicit commit.
 */
export async function published(deps: Pick<TransactionDeps, 'events' | 'tx'>, events: RecordedEvent[]): Promise<void> {
  assertOutsideTransaction(deps);
  await deps.events.publish(events);
}

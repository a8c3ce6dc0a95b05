// In-process delivery of committed events to subscribers (auto-rebuild today; webhooks and the
// activity log read the domain_events table itself, by id, so they can resume after a restart).
// A subscriber's failure is logged and never fails the write that already committed.
import type { Logger } from '../log.ts';
import type { RecordedEvent } from './domain-event.ts';

export type EventSubscriber = (events: readonly RecordedEvent[]) => unknown;

export type EventBus = {
  subscribe(subscriber: EventSubscriber): () => void;
  /** Called after commit with the events of one transaction, in order. */
  publish(events: readonly RecordedEvent[]): Promise<void>;
};

export function createEventBus(log: Logger): EventBus {
  const subscribers = new Set<EventSubscriber>();
  return {
    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => void subscribers.delete(subscriber);
    },
    async publish(events) {
      if (events.length === 0) return;
      for (const subscriber of subscribers) {
        try {
          await subscriber(events);
        } catch (error) {
          log.error('event subscriber failed', { error: String(error), types: events.map((e) => e.type) });
        }
      }
    },
  };
}

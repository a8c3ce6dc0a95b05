// Who performs a write. Every write use-case takes one, and its domain event records it, so that
// "who changed what" is answerable for every change from the first day.
import * as v from 'valibot';
import { Uuid } from './validation.ts';

export const Actor = v.variant('type', [
  /** A project API key (the HTTP API, the CLI). */
  v.object({ type: v.literal('api_key'), id: Uuid }),
  /** A portal user. */
  v.object({ type: v.literal('user'), id: Uuid }),
  /** The operator, through the admin API's token. */
  v.object({ type: v.literal('admin') }),
  /** The service itself (the builder, maintenance); `id` names the part that acted. */
  v.object({ type: v.literal('system'), id: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) }),
]);
export type Actor = v.InferOutput<typeof Actor>;

export const ADMIN: Actor = { type: 'admin' };
export const systemActor = (id: string): Actor => ({ type: 'system', id });

/** The actor's id as stored beside its type (null for the admin token). */
export const actorId = (actor: Actor): string | null => (actor.type === 'admin' ? null : actor.id);

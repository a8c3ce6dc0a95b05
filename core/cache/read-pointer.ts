import * as v from 'valibot';
import type { ObjectStore } from '../ports/object-store.ts';
import { Pointer, pointerKey } from './layout.ts';

/** The project's current build, or null before the first one completed. */
export async function readPointer(objects: ObjectStore, projectId: string): Promise<Pointer | null> {
  const result = await objects.get(pointerKey(projectId));
  if (result.kind !== 'found') return null;
  return v.parse(Pointer, JSON.parse(Buffer.from(result.object.body).toString('utf8')));
}

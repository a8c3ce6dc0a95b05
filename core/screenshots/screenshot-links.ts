// Which keys a screenshot shows, and where: checked (live keys of the project, regions inside the
// image, at most KEYS_PER_SCREENSHOT_MAX) and written as a difference against what is stored, so
// that a PATCH naming a link as it is changes and records nothing.
import type { TransactionSql } from '../db/client.ts';
import { validationError } from '../errors.ts';
import { KEYS_PER_SCREENSHOT_MAX, type Region } from './schemas.ts';

/** What a write asks: a key linked (region given, null to clear, undefined to keep an existing link's), or unlinked (null). */
export type LinkChange = { keyId: string; link: { region?: Region | null | undefined } | null };

/** `loc` of a key's entry in the request (the upload's query names ids, a PATCH's body keys them). */
export type LinkLoc = (keyId: string) => (string | number)[];

export type LinkOutcome = { linked: string[]; unlinked: string[]; moved: string[] };

const sameRegion = (a: Region | null, b: Region | null) =>
  a === b || (a !== null && b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);

/**
 * Applies the changes to a screenshot whose row the caller holds locked, and answers which keys were
 * linked, unlinked and given another region. Refuses, writing nothing, a key that is not a live key of
 * the project, a region outside the image, or a screenshot left with more than KEYS_PER_SCREENSHOT_MAX keys.
 */
export async function changeLinks(
  sql: TransactionSql,
  input: {
    projectId: string;
    screenshotId: string;
    width: number;
    height: number;
    changes: LinkChange[];
    loc: LinkLoc;
    /** Where a region's field is in the request; by default under the key's entry (a PATCH's body). */
    regionLoc?: (keyId: string, field: 'width' | 'height') => (string | number)[];
    tooManyLoc: (string | number)[];
  },
): Promise<LinkOutcome> {
  const { projectId, screenshotId, width, height, changes, loc } = input;
  const regionLoc = input.regionLoc ?? ((keyId, field) => [...loc(keyId), 'region', field]);
  if (changes.length === 0) return { linked: [], unlinked: [], moved: [] };
  const outside = changes.flatMap(({ keyId, link }) => {
    const r = link?.region;
    if (!r) return [];
    return [
      ...(r.x + r.width > width ? [{ loc: regionLoc(keyId, 'width'), msg: `the region runs past the image's right edge: x + width must be at most ${width}`, type: 'region_outside' }] : []),
      ...(r.y + r.height > height ? [{ loc: regionLoc(keyId, 'height'), msg: `the region runs past the image's bottom edge: y + height must be at most ${height}`, type: 'region_outside' }] : []),
    ];
  });
  if (outside.length > 0) throw validationError(outside);

  const linking = changes.filter((c) => c.link !== null).map((c) => c.keyId);
  // Locked as a foreign key check would lock them: a key purged from the trash meanwhile waits for
  // this write instead of failing its insert.
  const live = new Set(
    linking.length === 0
      ? []
      : (await sql<{ id: string }[]>`
          select id from translation_keys
          where project_id = ${projectId} and deleted_at is null and id in ${sql(linking)} for key share`).map((r) => r.id),
  );
  const unknown = linking.filter((id) => !live.has(id));
  if (unknown.length > 0) throw validationError(unknown.map((id) => ({ loc: loc(id), msg: 'not a key of this project (or it is in the trash)', type: 'key_unknown' })));

  const rows = await sql<{ key_id: string; live: boolean; x: number | null; y: number | null; w: number | null; h: number | null }[]>`
    select l.key_id, k.deleted_at is null as live, l.region_x as x, l.region_y as y, l.region_width as w, l.region_height as h
    from screenshot_keys l join translation_keys k on k.id = l.key_id
    where l.screenshot_id = ${screenshotId}`;
  const stored = new Map(rows.map((r) => [r.key_id, r.x === null ? null : { x: r.x, y: r.y!, width: r.w!, height: r.h! }] as const));
  const wanted = new Map(stored);
  for (const { keyId, link } of changes) {
    if (link === null) wanted.delete(keyId);
    else wanted.set(keyId, link.region === undefined ? (stored.get(keyId) ?? null) : link.region);
  }
  // The limit counts the keys a screenshot shows: links to keys in the trash are kept for their
  // restore but hidden from every answer, so they do not count (found by review: 99 shown keys and
  // a 100th refused). A restore may then leave a screenshot over the limit; nothing breaks.
  const trashed = new Set(rows.filter((r) => !r.live).map((r) => r.key_id));
  const shown = [...wanted.keys()].filter((id) => !trashed.has(id)).length;
  if (shown > KEYS_PER_SCREENSHOT_MAX) {
    throw validationError([{ loc: input.tooManyLoc, msg: `a screenshot shows at most ${KEYS_PER_SCREENSHOT_MAX} keys: this would make it ${shown}`, type: 'too_many' }]);
  }
  const unlinked = [...stored.keys()].filter((id) => !wanted.has(id));
  const linked = [...wanted.keys()].filter((id) => !stored.has(id));
  const moved = [...wanted.keys()].filter((id) => stored.has(id) && !sameRegion(stored.get(id)!, wanted.get(id)!));
  if (unlinked.length > 0) await sql`delete from screenshot_keys where screenshot_id = ${screenshotId} and key_id in ${sql(unlinked)}`;
  const upsert = [...linked, ...moved];
  if (upsert.length > 0) {
    const region = (id: string) => wanted.get(id) ?? null;
    await sql`
      insert into screenshot_keys (screenshot_id, key_id, project_id, region_x, region_y, region_width, region_height)
      select ${screenshotId}, t.key_id, ${projectId}, t.x, t.y, t.w, t.h
      from unnest(${sql.array(upsert)}::uuid[], ${sql.array(upsert.map((id) => region(id)?.x ?? null))}::int[],
                  ${sql.array(upsert.map((id) => region(id)?.y ?? null))}::int[], ${sql.array(upsert.map((id) => region(id)?.width ?? null))}::int[],
                  ${sql.array(upsert.map((id) => region(id)?.height ?? null))}::int[]) as t(key_id, x, y, w, h)
      on conflict (screenshot_id, key_id) do update set
        region_x = excluded.region_x, region_y = excluded.region_y, region_width = excluded.region_width, region_height = excluded.region_height`;
  }
  return { linked, unlinked, moved };
}

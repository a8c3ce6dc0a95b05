// How a screenshot is read: its facts, its image's address, and the live keys it shows with where
// (in key name order). Select list over `s` (screenshots).
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../db/client.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { notFound } from '../errors.ts';
import type { Screenshot, ScreenshotType } from './schemas.ts';

type KeyRow = { key_id: string; key: string; group_name: string; x: number | null; y: number | null; width: number | null; height: number | null };
export type ScreenshotRow = {
  id: string;
  seq: string;
  name: string;
  content_type: ScreenshotType;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  keys: KeyRow[];
  created_at: string;
  updated_at: string;
};

export const screenshotColumns = (sql: Sql | TransactionSql): postgres.Fragment =>
  sql`s.id, s.seq::text as seq, s.name, s.content_type, s.width, s.height, s.bytes, s.sha256,
      coalesce((
        select json_agg(json_build_object('key_id', k.id, 'key', k.key, 'group_name', k.group_name,
                                          'x', l.region_x, 'y', l.region_y, 'width', l.region_width, 'height', l.region_height)
                        order by k.key collate "C")
        from screenshot_keys l join translation_keys k on k.id = l.key_id and k.deleted_at is null
        where l.screenshot_id = s.id), '[]'::json) as keys,
      ${isoUtc(sql, 's.created_at')} as created_at, ${isoUtc(sql, 's.updated_at')} as updated_at`;

export const imageUrl = (id: string) => `/v1/screenshots/${id}/image`;

export function toScreenshot(row: ScreenshotRow): Screenshot {
  return {
    id: row.id,
    name: row.name,
    content_type: row.content_type,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    image_url: imageUrl(row.id),
    keys: row.keys.map((k) => ({
      key_id: k.key_id,
      key: k.key,
      group_name: k.group_name,
      region: k.x === null ? null : { x: k.x, y: k.y!, width: k.width!, height: k.height! },
    })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The strong validator of an image: its bytes' SHA-256 (an id's image never changes). */
export const imageEtag = (sha256: string) => `"${sha256}"`;

export const screenshotNotFound = () => notFound('Screenshot not found');

/** Where a screenshot's image is kept in the object store (beside the project's builds, never inside them). */
export const screenshotObjectKey = (projectId: string, screenshotId: string) => `projects/${projectId}/screenshots/${screenshotId}`;

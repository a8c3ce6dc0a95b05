// A screenshot as the portal shows it: its image (served by the portal's own route, to members of the
// project only), scaled to its box, with the regions of the keys it shows outlined over it. The
// outlines are an SVG laid over the image in the image's own pixels (its viewBox is the image's size,
// stretched with it), so they stay on their text at any width, and need no style attribute, which
// the portal's CSP (style-src 'self') would drop. The SVG is decoration: the words beside the image
// say where each key is.
import type { FC } from 'hono/jsx';
import type { Region, Screenshot, ScreenshotType } from '../../../core/screenshots/schemas.ts';
import { P } from './layout.tsx';

/** The portal's address of a screenshot's image (the API's needs an API key; this one the session). */
export const screenshotImagePath = (projectId: string, screenshotId: string) => `${P}/projects/${projectId}/screenshots/${screenshotId}/image`;

/** The page of one screenshot (its keys, its forms). */
export const screenshotPath = (projectId: string, screenshotId: string) => `${P}/projects/${projectId}/screenshots/${screenshotId}`;

/** The Screenshots tab: a page of it (cursor), or the screenshots of one key (key). */
export function screenshotsPath(projectId: string, options: { key?: string | undefined; cursor?: string | undefined } = {}): string {
  const query = new URLSearchParams();
  if (options.key) query.set('key', options.key);
  if (options.cursor) query.set('cursor', options.cursor);
  const s = query.toString();
  return `${P}/projects/${projectId}/screenshots${s ? `?${s}` : ''}`;
}

const FORMAT: Record<ScreenshotType, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

/** "390 × 260 px · PNG · 8.4 KB" */
export function sizeWords(shot: Pick<Screenshot, 'width' | 'height' | 'content_type' | 'bytes'>): string {
  const bytes = shot.bytes < 1024 ? `${shot.bytes} bytes` : shot.bytes < 1024 * 1024 ? `${(shot.bytes / 1024).toFixed(1)} KB` : `${(shot.bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${shot.width} × ${shot.height} px · ${FORMAT[shot.content_type] ?? shot.content_type} · ${bytes}`;
}

/** Where a region is, in words: "at 24, 80, 200 × 40 px". */
export const regionWords = (r: Region) => `at ${r.x}, ${r.y}, ${r.width} × ${r.height} px`;

/**
 * The image with the regions outlined. `size`: a thumbnail of the tab's grid, or the larger image of
 * a key's page and of the screenshot's own page. `alt` names the image; the regions are said in the
 * text around it. `id`: for the screenshot's page, whose key forms draw a region on it (PORTAL_JS).
 *
 * Lazy everywhere but there. On the screenshot's own page the image is the page's subject, at its
 * top, and what the Draw buttons draw on: loaded with the page (the load event waits for it), so
 * that the page does not move under the pointer when it arrives. The image has no size until then
 * (its CSS lets max-height scale it, so the width and height attributes cannot reserve its box), and
 * a Draw pressed before it came scrolled to a box 28 px off once the image pushed the keys down.
 */
export const ShotImage: FC<{ projectId: string; shot: Screenshot; regions: Region[]; alt: string; size: 'thumb' | 'large'; id?: string }> = ({ projectId, shot, regions, alt, size, id }) => (
  <span class={`shot shot-${size}`} id={id}>
    <img src={screenshotImagePath(projectId, shot.id)} alt={alt} width={String(shot.width)} height={String(shot.height)} loading={id ? undefined : 'lazy'} decoding="async" />
    {regions.length ? (
      <svg class="regions" viewBox={`0 0 ${shot.width} ${shot.height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {regions.map((r) => (
          <>
            <rect class="halo" x={String(r.x)} y={String(r.y)} width={String(r.width)} height={String(r.height)} />
            <rect class="box" x={String(r.x)} y={String(r.y)} width={String(r.width)} height={String(r.height)} />
          </>
        ))}
      </svg>
    ) : null}
  </span>
);

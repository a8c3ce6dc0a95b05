-- Screenshots: images of the product's screens, linked to the keys they show, so that a translator
-- sees where a text appears and how much room it has (docs/decisions.md, "Screenshots"), as Lokalise's,
-- Phrase's, Crowdin's and Tolgee's screenshots do. The image itself is in the object store, under
-- projects/<project>/screenshots/<id> (core/screenshots/screenshot-object.ts); the row is written
-- after the object and removed before it, so a row always names an image.
-- - seq: the upload order, the listing's order and its cursor (ids are random).
-- - sha256: of the stored bytes; the image's ETag (an image of an id never changes).
create table screenshots (
  id uuid primary key,
  seq bigint generated always as identity,
  project_id uuid not null references projects (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 200),
  content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
  width integer not null check (width > 0),
  height integer not null check (height > 0),
  bytes integer not null check (bytes > 0),
  sha256 text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index screenshots_project_seq_idx on screenshots (project_id, seq);

-- A key a screenshot shows, and where (a rectangle in the image's pixels, or null: somewhere on it).
-- A key deleted for good takes its links with it; a key in the trash keeps them, hidden until restored.
create table screenshot_keys (
  screenshot_id uuid not null references screenshots (id) on delete cascade,
  key_id uuid not null references translation_keys (id) on delete cascade,
  project_id uuid not null,
  region_x integer,
  region_y integer,
  region_width integer,
  region_height integer,
  primary key (screenshot_id, key_id),
  check (
    (region_x is null and region_y is null and region_width is null and region_height is null)
    or (region_x >= 0 and region_y >= 0 and region_width > 0 and region_height > 0)
  )
);
-- The screenshots of a key (GET /v1/screenshots?key_id=, the portal's key page and editor).
create index screenshot_keys_key_idx on screenshot_keys (key_id);

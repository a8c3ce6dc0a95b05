-- Key and group names are stored in NFC from now on, and every name a request reads by is taken in
-- NFC (core/validation.ts; docs/decisions.md, "Names and codes"). Before, a file a macOS tool wrote
-- in NFD (`café` as e + U+0301) imported into a project whose key was typed in NFC made a second
-- key that looks the same, and POST /v1/keys took such a twin too. This puts the names already
-- stored into NFC, so that the requests, now in NFC, find them:
-- - group names, of every key: no uniqueness rests on them alone;
-- - names of deleted keys: no unique index covers them (a restore meets a live twin as a 409, as
--   any restore whose name was taken again does);
-- - names of live keys, where no live key of the project has the NFC name already, and only one of
--   several keys that differ only in form. A twin stays as it is: both keys keep their values and
--   their ids, the one not in NFC is reached by its id (GET /v1/keys lists it), and deleting one of
--   the two settles it.
-- normalize() needs a UTF-8 database (PGlite's and initdb's default); elsewhere nothing changes here
-- (as the search fold of 023 skips NFC there).
do $$
begin
  if current_setting('server_encoding') <> 'UTF8' then
    return;
  end if;
  update translation_keys set group_name = normalize(group_name, NFC)
  where group_name is not nfc normalized;
  update translation_keys set key = normalize(key, NFC)
  where deleted_at is not null and key is not nfc normalized;
  update translation_keys k set key = normalize(k.key, NFC)
  from (
    select distinct on (project_id, normalize(key, NFC)) id
    from translation_keys
    where deleted_at is null and key is not nfc normalized
    order by project_id, normalize(key, NFC), created_at, id
  ) first
  where k.id = first.id
    and not exists (
      select 1 from translation_keys t
      where t.project_id = k.project_id and t.deleted_at is null and t.key = normalize(k.key, NFC)
    );
end
$$;

-- Translation memory's trigram index again (016 turned its pending list off). With fastupdate off,
-- every new source value goes straight into the GIN index, trigram by trigram: an import of 10,000
-- source-language values spent about 2.5 s of its 3-4 s there (0.9 s without), and seeding a project
-- through three imports took 5-7 s instead of under 2.
-- A short pending list keeps both sides cheap: inserts are gathered and merged into the index in
-- bulk once the list passes 256 kB, and a suggestion scans at most those 256 kB linearly, where 016
-- measured the default 4 MB list at about 8 ms of a suggestion's median. Measured: the same import
-- 1.1 s (with a 1 MB list, no faster).
alter index memory_sources_value_trgm_idx set (fastupdate = on, gin_pending_list_limit = 256);

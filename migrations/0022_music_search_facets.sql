ALTER TABLE `music_tracks` ADD `search_facets` text GENERATED ALWAYS AS (coalesce(genre, '') || ' ' || replace(coalesce(genre, ''), '-', '') || ' ' || coalesce(mood, '') || ' ' || CASE WHEN bpm IS NULL THEN '' WHEN bpm < 90 THEN 'slow downtempo' WHEN bpm < 120 THEN 'mid-tempo midtempo' ELSE 'fast uptempo' END) VIRTUAL;--> statement-breakpoint
-- The full-text index gains the genre, mood and tempo words (search_facets, computed above), so
-- "jazz", "chill" or "slow" find tracks; docs/decisions/0240. Rebuilt from music_tracks.
DROP TRIGGER IF EXISTS `music_tracks_fts_ai`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `music_tracks_fts_ad`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `music_tracks_fts_au`;--> statement-breakpoint
DROP TABLE IF EXISTS `music_tracks_fts`;--> statement-breakpoint
CREATE VIRTUAL TABLE `music_tracks_fts` USING fts5(title, artist, tags, search_facets, content='music_tracks', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');--> statement-breakpoint
CREATE TRIGGER `music_tracks_fts_ai` AFTER INSERT ON `music_tracks` BEGIN
  INSERT INTO music_tracks_fts(rowid, title, artist, tags, search_facets) VALUES (new.rowid, new.title, new.artist, new.tags, new.search_facets);
END;--> statement-breakpoint
CREATE TRIGGER `music_tracks_fts_ad` AFTER DELETE ON `music_tracks` BEGIN
  INSERT INTO music_tracks_fts(music_tracks_fts, rowid, title, artist, tags, search_facets) VALUES ('delete', old.rowid, old.title, old.artist, old.tags, old.search_facets);
END;--> statement-breakpoint
CREATE TRIGGER `music_tracks_fts_au` AFTER UPDATE OF title, artist, tags, genre, mood, bpm ON `music_tracks` BEGIN
  INSERT INTO music_tracks_fts(music_tracks_fts, rowid, title, artist, tags, search_facets) VALUES ('delete', old.rowid, old.title, old.artist, old.tags, old.search_facets);
  INSERT INTO music_tracks_fts(rowid, title, artist, tags, search_facets) VALUES (new.rowid, new.title, new.artist, new.tags, new.search_facets);
END;--> statement-breakpoint
INSERT INTO music_tracks_fts(music_tracks_fts) VALUES ('rebuild');--> statement-breakpoint
-- The index's words and how many tracks hold each: typo correction reads it when a search finds nothing.
CREATE VIRTUAL TABLE `music_tracks_vocab` USING fts5vocab('music_tracks_fts', 'row');

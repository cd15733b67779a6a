-- Previews a browser uploaded before the server made them (docs/decisions/0289, 0326): their bytes
-- were never checked against the master and may be anything that starts with two MP3 frame headers.
-- A server-made preview's key is derived from its master's (music/audio/<partner>/<uuid>.wav →
-- music/previews/<partner>/<uuid>.mp3, preview.server.ts previewKeyFor); a browser's had a random
-- uuid under the same folder. Every preview of that folder shape that is not the master's derived key
-- is cleared (the master is streamed meanwhile): the daily cron asks the server's preview job for
-- each WAV track left without one, and deletes the preview objects no row refers to.
-- (One-segment keys, music/previews/<x>.mp3, are the server's fallback and the demo seed's: kept.)
UPDATE music_tracks
SET preview_key = NULL, preview_size = 0
WHERE preview_key LIKE 'music/previews/%/%.mp3'
  AND NOT (
    audio_key LIKE 'music/audio/%/%.wav'
    AND preview_key = 'music/previews/' || substr(audio_key, 13, length(audio_key) - 16) || '.mp3'
  );

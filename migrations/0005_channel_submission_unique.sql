ALTER TABLE `manual_channel_submissions` ADD `channel_key` text GENERATED ALWAYS AS (CASE WHEN channel_url IS NULL OR trim(channel_url) = '' THEN 'name:' || lower(trim(channel_name)) ELSE 'url:' || rtrim(substr(replace(substr(replace(replace(replace(replace('//' || lower(trim(channel_url)), '//www.', '//'), '//m.', '//'), '//https://', '//'), '//http://', '//'), 3), '#', '?'), 1, instr(replace(substr(replace(replace(replace(replace('//' || lower(trim(channel_url)), '//www.', '//'), '//m.', '//'), '//https://', '//'), '//http://', '//'), 3), '#', '?') || '?', '?') - 1), '/') END) VIRTUAL;--> statement-breakpoint
-- Existing duplicates (docs/decisions/0071): of the live submissions (pending, under review,
-- verified) of one user and channel, the most advanced one is kept (verified, then under review,
-- then pending; the oldest first); each other one is marked rejected with the reason, so nothing
-- is deleted and the unique index below can be built. The kept row is never changed, so the
-- result does not depend on the order in which SQLite visits the rows.
UPDATE `manual_channel_submissions` SET `status` = 'rejected', `rejection_reason` = 'Duplicate of another submission of the same channel.'
WHERE `status` in ('pending', 'verification_submitted', 'verified') AND EXISTS (
  SELECT 1 FROM `manual_channel_submissions` AS k
  WHERE k.`user_id` = `manual_channel_submissions`.`user_id`
    AND k.`channel_key` = `manual_channel_submissions`.`channel_key`
    AND k.`id` <> `manual_channel_submissions`.`id`
    AND k.`status` in ('pending', 'verification_submitted', 'verified')
    AND (
      (CASE k.`status` WHEN 'verified' THEN 0 WHEN 'verification_submitted' THEN 1 ELSE 2 END)
        < (CASE `manual_channel_submissions`.`status` WHEN 'verified' THEN 0 WHEN 'verification_submitted' THEN 1 ELSE 2 END)
      OR (
        (CASE k.`status` WHEN 'verified' THEN 0 WHEN 'verification_submitted' THEN 1 ELSE 2 END)
          = (CASE `manual_channel_submissions`.`status` WHEN 'verified' THEN 0 WHEN 'verification_submitted' THEN 1 ELSE 2 END)
        AND (k.`created_at` < `manual_channel_submissions`.`created_at`
          OR (k.`created_at` = `manual_channel_submissions`.`created_at` AND k.`id` < `manual_channel_submissions`.`id`))
      )
    )
);--> statement-breakpoint
CREATE UNIQUE INDEX `manual_channel_submissions_user_channel_unique` ON `manual_channel_submissions` (`user_id`,`channel_key`) WHERE status in ('pending', 'verification_submitted', 'verified');
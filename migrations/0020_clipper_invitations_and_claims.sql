CREATE TABLE `clipper_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`creator_user_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`email` text,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	`accepted_by` text,
	`accepted_at` text,
	`decided_at` text,
	FOREIGN KEY (`creator_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`accepted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "clipper_invitations_status_check" CHECK(status in ('open', 'accepted', 'approved', 'declined', 'withdrawn')),
	CONSTRAINT "clipper_invitations_accepted_check" CHECK(status in ('open', 'withdrawn') or accepted_at is not null)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `clipper_invitations_code_unique` ON `clipper_invitations` (`code_hash`);--> statement-breakpoint
CREATE INDEX `clipper_invitations_creator_idx` ON `clipper_invitations` (`creator_user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `clipper_invitations_accepted_by_idx` ON `clipper_invitations` (`accepted_by`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `clipper_invitations_one_open_per_email` ON `clipper_invitations` (`creator_user_id`,`email`) WHERE status = 'open' and email is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `clipper_invitations_one_request` ON `clipper_invitations` (`creator_user_id`,`accepted_by`) WHERE status = 'accepted';--> statement-breakpoint
ALTER TABLE `clip_sources` ADD `claim_id` text;--> statement-breakpoint
ALTER TABLE `clip_sources` ADD `claimed_at` text;--> statement-breakpoint
ALTER TABLE `clipper_links` ADD `approved_at` text;--> statement-breakpoint
-- Existing clipper links stay as they are: each was made when its clipper accepted, before the
-- creator's approval existed, so it counts as approved from its creation (docs/decisions/0205).
UPDATE `clipper_links` SET `approved_at` = `created_at` WHERE `approved_at` IS NULL;

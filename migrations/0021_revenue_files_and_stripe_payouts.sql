-- Issue 29, two migrations made one after issue 27's and 28's (0019, 0020): revenue files, then Stripe payouts.
CREATE TABLE `ledger_video_lines` (
	`entry_id` text NOT NULL,
	`video_id` text NOT NULL,
	`net_cents` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	PRIMARY KEY(`entry_id`, `video_id`),
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `revenue_column_mappings` (
	`header_hash` text PRIMARY KEY NOT NULL,
	`columns` text NOT NULL,
	`mapping` text NOT NULL,
	`updated_by` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `revenue_imports` ADD `format` text DEFAULT 'shortbeat' NOT NULL;--> statement-breakpoint
ALTER TABLE `revenue_imports` ADD `exact_total` text;--> statement-breakpoint
ALTER TABLE `revenue_imports` ADD `rounding_remainder` text;--> statement-breakpoint
CREATE TABLE `payout_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`method` text DEFAULT 'stripe' NOT NULL,
	`stripe_account_id` text,
	`status` text,
	`status_reason` text,
	`synced_at` text,
	`manual_reason` text,
	`manual_set_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`manual_set_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payout_accounts_method_check" CHECK(method in ('stripe', 'manual')),
	CONSTRAINT "payout_accounts_status_check" CHECK(status is null or status in ('needs_information', 'enabled', 'restricted')),
	CONSTRAINT "payout_accounts_manual_check" CHECK((method = 'manual') = (manual_reason is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_stripe_unique` ON `payout_accounts` (`stripe_account_id`) WHERE stripe_account_id is not null;--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`account` text,
	`object_id` text,
	`created` integer NOT NULL,
	`received_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`outcome` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stripe_events_object_idx` ON `stripe_events` (`object_id`);--> statement-breakpoint
-- The payouts table is rebuilt for its new statuses and checks (hand-written: drizzle-kit's
-- DROP-then-RENAME fails on D1 once a ledger entry names a payout). ledger_entries.payout_id points
-- at it, and D1 runs a migration in one transaction where foreign keys cannot be switched off, and
-- where renaming a table rewrites the references to it. So: copy the rows aside, drop the table
-- (with deferred foreign keys its entries' references wait for the commit), create it again under
-- its own name and put the rows back, which resolves those references before the commit.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__old_payouts` AS SELECT * FROM `payouts`;--> statement-breakpoint
DROP TABLE `payouts`;--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`batch` text NOT NULL,
	`payout_date` text,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reference` text,
	`paid_at` text,
	`paid_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`method` text DEFAULT 'manual' NOT NULL,
	`stripe_account_id` text,
	`stripe_transfer_id` text,
	`sent_at` text,
	`failed_at` text,
	`failure_reason` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`paid_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payouts_status_check" CHECK(status in ('pending', 'processing', 'paid', 'failed')),
	CONSTRAINT "payouts_method_check" CHECK(method in ('stripe', 'manual')),
	CONSTRAINT "payouts_amount_check" CHECK(amount_cents > 0),
	CONSTRAINT "payouts_paid_check" CHECK(status <> 'paid' or (reference is not null and paid_at is not null)),
	CONSTRAINT "payouts_failed_check" CHECK(status <> 'failed' or (failed_at is not null and failure_reason is not null)),
	CONSTRAINT "payouts_stripe_check" CHECK(method <> 'stripe' or stripe_account_id is not null)
);
--> statement-breakpoint
-- Every payout made so far was paid outside Stripe (a bank transfer with its reference).
INSERT INTO `payouts`("id", "user_id", "batch", "payout_date", "amount_cents", "status", "reference", "paid_at", "paid_by", "created_at", "method") SELECT "id", "user_id", "batch", "payout_date", "amount_cents", "status", "reference", "paid_at", "paid_by", "created_at", 'manual' FROM `__old_payouts`;--> statement-breakpoint
DROP TABLE `__old_payouts`;--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_user_batch_unique` ON `payouts` (`user_id`,`batch`);--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_transfer_unique` ON `payouts` (`stripe_transfer_id`) WHERE stripe_transfer_id is not null;--> statement-breakpoint
CREATE INDEX `payouts_batch_idx` ON `payouts` (`batch`,`status`);--> statement-breakpoint
CREATE INDEX `payouts_user_idx` ON `payouts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payouts_method_status_idx` ON `payouts` (`method`,`status`);
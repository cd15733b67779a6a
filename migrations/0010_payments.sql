CREATE TABLE `ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`source_kind` text NOT NULL,
	`source_id` text DEFAULT '' NOT NULL,
	`net_cents` integer NOT NULL,
	`share_bp` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'estimated' NOT NULL,
	`payout_id` text,
	`import_id` text,
	`note` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payout_id`) REFERENCES `payouts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`import_id`) REFERENCES `revenue_imports`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "ledger_entries_source_kind_check" CHECK(source_kind in ('music', 'campaign', 'clip', 'referral', 'adjustment')),
	CONSTRAINT "ledger_entries_status_check" CHECK(status in ('estimated', 'finalized', 'paid')),
	CONSTRAINT "ledger_entries_share_check" CHECK(share_bp between 0 and 10000),
	CONSTRAINT "ledger_entries_month_check" CHECK(month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
	CONSTRAINT "ledger_entries_paid_check" CHECK(status <> 'paid' or payout_id is not null)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_import_source_unique` ON `ledger_entries` (`import_id`,`user_id`,`month`,`source_kind`,`source_id`);--> statement-breakpoint
CREATE INDEX `ledger_entries_user_month_idx` ON `ledger_entries` (`user_id`,`month`);--> statement-breakpoint
CREATE INDEX `ledger_entries_month_status_idx` ON `ledger_entries` (`month`,`status`);--> statement-breakpoint
CREATE INDEX `ledger_entries_payout_idx` ON `ledger_entries` (`payout_id`);--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`batch` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reference` text,
	`paid_at` text,
	`paid_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`paid_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payouts_status_check" CHECK(status in ('pending', 'paid')),
	CONSTRAINT "payouts_amount_check" CHECK(amount_cents > 0),
	CONSTRAINT "payouts_paid_check" CHECK(status = 'pending' or (reference is not null and paid_at is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_user_batch_unique` ON `payouts` (`user_id`,`batch`);--> statement-breakpoint
CREATE INDEX `payouts_batch_idx` ON `payouts` (`batch`,`status`);--> statement-breakpoint
CREATE INDEX `payouts_user_idx` ON `payouts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `revenue_imports` (
	`id` text PRIMARY KEY NOT NULL,
	`month` text NOT NULL,
	`status` text DEFAULT 'staged' NOT NULL,
	`file_name` text,
	`row_count` integer DEFAULT 0 NOT NULL,
	`entry_count` integer DEFAULT 0 NOT NULL,
	`net_cents` integer DEFAULT 0 NOT NULL,
	`amount_cents` integer DEFAULT 0 NOT NULL,
	`share_bp` integer NOT NULL,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`went_live_at` text,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "revenue_imports_status_check" CHECK(status in ('staged', 'live', 'replaced', 'discarded')),
	CONSTRAINT "revenue_imports_month_check" CHECK(month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]')
);
--> statement-breakpoint
CREATE INDEX `revenue_imports_month_idx` ON `revenue_imports` (`month`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `revenue_imports_month_live_unique` ON `revenue_imports` (`month`) WHERE status = 'live';--> statement-breakpoint
CREATE TABLE `revenue_months` (
	`month` text PRIMARY KEY NOT NULL,
	`live_import_id` text,
	`funds_received_at` text,
	`funds_received_by` text,
	`finalized_at` text,
	`finalized_by` text,
	FOREIGN KEY (`live_import_id`) REFERENCES `revenue_imports`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`funds_received_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`finalized_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "revenue_months_month_check" CHECK(month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
	CONSTRAINT "revenue_months_finalized_check" CHECK(finalized_at is null or funds_received_at is not null)
);

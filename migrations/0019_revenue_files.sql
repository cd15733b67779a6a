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
ALTER TABLE `revenue_imports` ADD `rounding_remainder` text;
CREATE TABLE `revenue_report_keys` (
	`report_id` text NOT NULL,
	`h1` integer NOT NULL,
	`h2` integer NOT NULL,
	`line` integer NOT NULL,
	PRIMARY KEY(`report_id`, `h1`, `h2`),
	FOREIGN KEY (`report_id`) REFERENCES `revenue_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `revenue_report_parts` (
	`report_id` text NOT NULL,
	`part_number` integer NOT NULL,
	`etag` text NOT NULL,
	PRIMARY KEY(`report_id`, `part_number`),
	FOREIGN KEY (`report_id`) REFERENCES `revenue_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `revenue_report_problems` (
	`report_id` text NOT NULL,
	`line` integer NOT NULL,
	`reason` text NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`report_id`, `line`),
	FOREIGN KEY (`report_id`) REFERENCES `revenue_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `revenue_report_sums` (
	`report_id` text NOT NULL,
	`period` text NOT NULL,
	`channel_id` text NOT NULL,
	`creator_id` text NOT NULL,
	`video_id` text NOT NULL,
	`amount_nano` integer NOT NULL,
	`rows` integer NOT NULL,
	`first_line` integer NOT NULL,
	PRIMARY KEY(`report_id`, `period`, `channel_id`, `creator_id`, `video_id`),
	FOREIGN KEY (`report_id`) REFERENCES `revenue_reports`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "revenue_report_sums_amount_check" CHECK(typeof(amount_nano) = 'integer' and amount_nano >= 0)
);
--> statement-breakpoint
CREATE TABLE `revenue_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`month` text NOT NULL,
	`file_name` text NOT NULL,
	`object_key` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`part_bytes` integer NOT NULL,
	`part_count` integer NOT NULL,
	`upload_id` text,
	`status` text DEFAULT 'uploading' NOT NULL,
	`format` text,
	`mapping` text,
	`columns` text,
	`delimiter` text,
	`next_offset` integer DEFAULT 0 NOT NULL,
	`lines_before` integer DEFAULT 0 NOT NULL,
	`steps` integer DEFAULT 0 NOT NULL,
	`rows_read` integer DEFAULT 0 NOT NULL,
	`rows_matched` integer DEFAULT 0 NOT NULL,
	`problem_count` integer DEFAULT 0 NOT NULL,
	`skipped_count` integer DEFAULT 0 NOT NULL,
	`slash_dmy` integer DEFAULT 0 NOT NULL,
	`slash_mdy` integer DEFAULT 0 NOT NULL,
	`slash_score` integer DEFAULT 0 NOT NULL,
	`chain` text DEFAULT '' NOT NULL,
	`fingerprint` text,
	`import_id` text,
	`duplicate_of` text,
	`preview` text,
	`error` text,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "revenue_reports_status_check" CHECK(status in ('uploading', 'reading', 'staged', 'problems', 'duplicate', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `revenue_reports_creator_idx` ON `revenue_reports` (`created_by`,`created_at`);--> statement-breakpoint
CREATE INDEX `revenue_reports_fingerprint_idx` ON `revenue_reports` (`fingerprint`);
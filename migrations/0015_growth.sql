CREATE TABLE `retention_cohort_cells` (
	`cohort` text NOT NULL,
	`source` text NOT NULL,
	`weeks_since` integer NOT NULL,
	`active` integer NOT NULL,
	PRIMARY KEY(`cohort`, `source`, `weeks_since`),
	CONSTRAINT "retention_cohort_cells_source_check" CHECK(source in ('direct', 'referral', 'agency')),
	CONSTRAINT "retention_cohort_cells_weeks_check" CHECK(weeks_since >= 0)
);
--> statement-breakpoint
CREATE TABLE `retention_notices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`week` text NOT NULL,
	`inactive_days` integer NOT NULL,
	`sent_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sent_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `retention_notices_user_week_unique` ON `retention_notices` (`user_id`,`week`);--> statement-breakpoint
CREATE INDEX `retention_notices_week_idx` ON `retention_notices` (`week`);--> statement-breakpoint
CREATE TABLE `retention_weeks` (
	`week` text PRIMARY KEY NOT NULL,
	`active_users` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "retention_weeks_week_check" CHECK(week glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]')
);
--> statement-breakpoint
CREATE TABLE `user_activity_days` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_activity_days_day_idx` ON `user_activity_days` (`day`,`user_id`);
CREATE TABLE `revenue_report_leaves` (
	`report_id` text NOT NULL,
	`period` text NOT NULL,
	`channel_id` text NOT NULL,
	`creator_id` text NOT NULL,
	`video_id` text NOT NULL,
	`kind` integer NOT NULL,
	`user_id` text NOT NULL,
	`problem` text,
	`amount_nano` integer NOT NULL,
	`rows` integer NOT NULL,
	`first_line` integer NOT NULL,
	PRIMARY KEY(`report_id`, `period`, `channel_id`, `creator_id`, `video_id`),
	FOREIGN KEY (`report_id`) REFERENCES `revenue_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `revenue_report_leaves_person_idx` ON `revenue_report_leaves` (`report_id`,`kind`,`user_id`);--> statement-breakpoint
CREATE TABLE `revenue_report_people` (
	`report_id` text NOT NULL,
	`user_id` text NOT NULL,
	`nano` integer NOT NULL,
	`floor_cents` integer NOT NULL,
	`rem` integer NOT NULL,
	`leaves` integer NOT NULL,
	`rank_key` text NOT NULL,
	`bump` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`report_id`, `user_id`),
	FOREIGN KEY (`report_id`) REFERENCES `revenue_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `revenue_report_people_rank_idx` ON `revenue_report_people` (`report_id`,`rank_key`);--> statement-breakpoint
CREATE TABLE `revenue_report_tallies` (
	`report_id` text NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`part` text NOT NULL,
	`value` integer NOT NULL,
	`note` text,
	PRIMARY KEY(`report_id`, `kind`, `key`, `part`),
	FOREIGN KEY (`report_id`) REFERENCES `revenue_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `revenue_reports` ADD `stage_step` text;
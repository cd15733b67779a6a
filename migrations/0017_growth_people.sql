CREATE TABLE `retention_people` (
	`user_id` text PRIMARY KEY NOT NULL,
	`joined_at` text NOT NULL,
	`week` text NOT NULL,
	`source` text NOT NULL,
	`status` text NOT NULL,
	`banned` integer DEFAULT false NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`approved` integer DEFAULT false NOT NULL,
	`linked` integer DEFAULT false NOT NULL,
	`licensed` integer DEFAULT false NOT NULL,
	`earning` integer DEFAULT false NOT NULL,
	`last_day` text,
	`computed_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `retention_people_week_idx` ON `retention_people` (`week`,`source`);--> statement-breakpoint
CREATE INDEX `retention_people_last_day_idx` ON `retention_people` (`last_day`,`joined_at`);
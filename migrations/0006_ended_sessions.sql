CREATE TABLE `ended_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`reason` text NOT NULL,
	`ended_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "ended_sessions_reason_check" CHECK(reason in ('ended_by_user', 'ended_by_admin', 'banned', 'password_changed', 'role_changed'))
);
--> statement-breakpoint
CREATE INDEX `ended_sessions_ended_idx` ON `ended_sessions` (`ended_at`);
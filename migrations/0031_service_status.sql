CREATE TABLE `service_status` (
	`service` text PRIMARY KEY NOT NULL,
	`last_success_at` text,
	`last_error_at` text,
	`last_error_code` text,
	`last_error_message` text,
	`paused_until` text,
	`alerted_code` text,
	`alerted_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

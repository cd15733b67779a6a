CREATE TABLE `payment_agreements` (
	`user_id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`term_start` text,
	`notice_given_at` text,
	`ends_on` text,
	`terminated_at` text,
	`terminated_by` text,
	`termination_reason` text,
	`held_at` text,
	`held_by` text,
	`hold_reason` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`terminated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`held_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payment_agreements_status_check" CHECK(status in ('active', 'notice', 'terminated')),
	CONSTRAINT "payment_agreements_ends_check" CHECK((status = 'active') = (ends_on is null)),
	CONSTRAINT "payment_agreements_reason_check" CHECK(status <> 'terminated' or termination_reason is not null),
	CONSTRAINT "payment_agreements_hold_check" CHECK((held_at is null) = (hold_reason is null))
);
--> statement-breakpoint
CREATE INDEX `payment_agreements_status_idx` ON `payment_agreements` (`status`,`ends_on`);--> statement-breakpoint
CREATE TABLE `share_offers` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`share_bp` integer NOT NULL,
	`note` text,
	`status` text DEFAULT 'offered' NOT NULL,
	`offered_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`responded_at` text,
	`effective_month` text,
	`term_start` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`offered_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "share_offers_status_check" CHECK(status in ('offered', 'accepted', 'declined', 'withdrawn')),
	CONSTRAINT "share_offers_share_check" CHECK(share_bp between 1 and 10000),
	CONSTRAINT "share_offers_accepted_check" CHECK(status <> 'accepted' or (effective_month is not null and term_start is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `share_offers_open_unique` ON `share_offers` (`user_id`) WHERE status = 'offered';--> statement-breakpoint
CREATE INDEX `share_offers_user_idx` ON `share_offers` (`user_id`,`status`,`effective_month`);--> statement-breakpoint
ALTER TABLE `payouts` ADD `payout_date` text;
ALTER TABLE `payout_accounts` ADD `account_claim` text;--> statement-breakpoint
ALTER TABLE `payout_accounts` ADD `account_claimed_at` text;
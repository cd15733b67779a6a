-- Each payout run's figures kept as the payouts change (docs/decisions/0353): /admin/payments' run
-- panel read them from payouts_batch_figures_idx (0333), 100,000 index entries per run per load at
-- 100,000 creators. Kept by triggers on payouts, in the same statement as the change: a payout
-- counts once in the group of its batch, method and status whoever changes it (the payout day, the
-- queue's consumers, Stripe's webhooks, an admin, a test's raw insert), and a guarded update that
-- changes nothing fires nothing. An update that moves no figure (a transfer id, sent_at) writes nothing.
CREATE TABLE `payout_run_totals` (
	`batch` text NOT NULL,
	`method` text NOT NULL,
	`status` text NOT NULL,
	`payouts` integer DEFAULT 0 NOT NULL,
	`cents` integer DEFAULT 0 NOT NULL,
	`held` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`batch`, `method`, `status`)
);--> statement-breakpoint
CREATE TRIGGER `payout_run_totals_ai` AFTER INSERT ON `payouts` BEGIN
  INSERT INTO payout_run_totals (batch, method, status, payouts, cents, held)
  VALUES (new.batch, new.method, new.status, 1, new.amount_cents, new.held_at IS NOT NULL)
  ON CONFLICT (batch, method, status) DO UPDATE SET payouts = payouts + 1, cents = cents + excluded.cents, held = held + excluded.held;
END;--> statement-breakpoint
CREATE TRIGGER `payout_run_totals_au` AFTER UPDATE OF batch, method, status, amount_cents, held_at ON `payouts`
WHEN old.batch IS NOT new.batch OR old.method IS NOT new.method OR old.status IS NOT new.status
  OR old.amount_cents IS NOT new.amount_cents OR (old.held_at IS NULL) <> (new.held_at IS NULL)
BEGIN
  UPDATE payout_run_totals SET payouts = payouts - 1, cents = cents - old.amount_cents, held = held - (old.held_at IS NOT NULL)
  WHERE batch = old.batch AND method = old.method AND status = old.status;
  INSERT INTO payout_run_totals (batch, method, status, payouts, cents, held)
  VALUES (new.batch, new.method, new.status, 1, new.amount_cents, new.held_at IS NOT NULL)
  ON CONFLICT (batch, method, status) DO UPDATE SET payouts = payouts + 1, cents = cents + excluded.cents, held = held + excluded.held;
END;--> statement-breakpoint
CREATE TRIGGER `payout_run_totals_ad` AFTER DELETE ON `payouts` BEGIN
  UPDATE payout_run_totals SET payouts = payouts - 1, cents = cents - old.amount_cents, held = held - (old.held_at IS NOT NULL)
  WHERE batch = old.batch AND method = old.method AND status = old.status;
END;--> statement-breakpoint
INSERT INTO payout_run_totals (batch, method, status, payouts, cents, held)
SELECT batch, method, status, count(*), sum(amount_cents), sum(held_at IS NOT NULL) FROM payouts GROUP BY batch, method, status;

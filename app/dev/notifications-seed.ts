// The bell's side of the demo story: the notifications the app would have sent for what the other
// seeds recorded — "Payout sent" for each paid payout (payments-seed), "Submission approved" /
// "Submission rejected" for each reviewed campaign submission (campaigns-seed) — with the texts
// payouts.server.ts and campaigns/review.server.ts write, at the time of the event. Older than a
// week: read; newer: unread, so the demo creator's bell has a count. Written with INSERT … SELECT
// from those rows in the seed's one batch (after them), so the two can never disagree; ids derive
// from the rows' ids, and INSERT OR IGNORE keeps a second run from adding any.

const READ_BEFORE_DAYS = 7;

/** `'$' || cents with thousands separators` in SQL, as formatCents shows it ("$1,234.56"). */
const dollars = (cents: string) => `printf('$%,d.%02d', ${cents} / 100, ${cents} % 100)`;

export function notificationsSeed({ db, adminId }: { db: D1Database; adminId: string }): D1PreparedStatement[] {
  const readAt = `CASE WHEN e.at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${READ_BEFORE_DAYS} days') THEN e.at END`;
  // Each event as (key, user, title, content, kind, at); one pair of statements writes them all.
  const events = `
    SELECT 'payout-' || p.id AS key, p.user_id AS user_id, 'Payout sent' AS title,
           'Your payout of ' || ${dollars("p.amount_cents")} || ' has been sent. Reference: ' || p.reference || '.' AS content,
           'payout_paid' AS kind, p.paid_at AS at
      FROM payouts p WHERE p.status = 'paid' AND p.paid_at IS NOT NULL AND p.reference LIKE 'SB-PAY-%'
    UNION ALL
    SELECT 'campaign-review-' || s.id, s.user_id,
           CASE s.status WHEN 'rejected' THEN 'Submission rejected' ELSE 'Submission approved' END,
           CASE s.status
             WHEN 'rejected' THEN 'Your video for "' || c.title || '" was not approved. Reason: ' || coalesce(s.reason, '')
             ELSE 'Your video for "' || c.title || '" has ' || printf('%,d', s.views) || ' verified views: estimated payout ' || ${dollars("s.amount_cents")} || '.'
           END,
           CASE s.status WHEN 'rejected' THEN 'campaign_submission_rejected' ELSE 'campaign_submission_approved' END,
           s.reviewed_at
      FROM campaign_submissions s JOIN campaigns c ON c.id = s.campaign_id
     WHERE s.status IN ('approved', 'rejected') AND s.reviewed_at IS NOT NULL AND s.id LIKE '00000000-0000-4000-8000-%'`;
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO notifications (id, title, content, kind, audience, created_by, created_at)
         SELECT 'seed-' || e.key, e.title, e.content, e.kind, 'user', ?, e.at FROM (${events}) e`,
      )
      .bind(adminId),
    db.prepare(
      `INSERT OR IGNORE INTO user_notifications (id, user_id, notification_id, is_read, read_at, created_at)
       SELECT 'seed-' || e.key, e.user_id, 'seed-' || e.key, ${readAt} IS NOT NULL, ${readAt}, e.at FROM (${events}) e`,
    ),
  ];
}

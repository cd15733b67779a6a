// The demo seed's clipping (issue 16): the demo creator's two source videos (in R2 too) and the
// demo clipper's clips in each state, idempotent, shown on /clipping to both.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { hashPassword } from "~/modules/accounts/accounts.server";
import { addDays, dayOf } from "~/modules/payments/calendar";
import { signInAs } from "../../factories/users";
import { count, fetchApp, withCookie } from "../helpers";

it("seeds two source videos and clips in every state, once however often it runs", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const creator = DEMO_ACCOUNTS.find((a) => a.kind === "creator");
  const clipper = DEMO_ACCOUNTS.find((a) => a.kind === "clipper");
  expect(await count("SELECT count(*) AS n FROM clip_sources WHERE creator_user_id = ? AND status = 'ready'", creator?.id)).toBe(2);
  expect(await count("SELECT count(DISTINCT status) AS n FROM clips WHERE clipper_user_id = ?", clipper?.id)).toBe(5);
  const key = (await env.DB.prepare("SELECT object_key FROM clip_sources WHERE creator_user_id = ? LIMIT 1").bind(creator?.id).first<{ object_key: string }>())
    ?.object_key;
  expect(await env.MEDIA.head(key ?? "")).not.toBeNull();
  // Dated relative to today: sources 50 and 33 days ago, the approved clip 40 days ago (last month's revenue holds it) and the others over the last three weeks, a split request
  // declined 7 weeks ago and one waiting since 3 days ago.
  const ago = (n: number) => addDays(dayOf(new Date()), -n);
  const days = async (sql: string, ...args: unknown[]) =>
    (
      await env.DB.prepare(sql)
        .bind(...args)
        .all<{ d: string }>()
    ).results.map((r) => r.d);
  expect(await days("SELECT substr(created_at, 1, 10) AS d FROM clip_sources WHERE creator_user_id = ? ORDER BY id", creator?.id)).toEqual([ago(50), ago(33)]);
  expect(await days("SELECT substr(created_at, 1, 10) AS d FROM clips WHERE clipper_user_id = ? ORDER BY id", clipper?.id)).toEqual(
    [40, 18, 16, 14, 12].map(ago),
  );
  expect(
    await days(
      "SELECT status || ' ' || substr(created_at, 1, 10) || ' ' || coalesce(substr(decided_at, 1, 10), '-') AS d FROM clip_split_requests WHERE id IN (?, ?) ORDER BY id",
      "00000000-0000-4000-8000-000000006201",
      "00000000-0000-4000-8000-000000006202",
    ),
  ).toEqual([`declined ${ago(49)} ${ago(48)}`, `pending ${ago(3)} -`]);
  // The demo clipper is an approved clipper of the demo creator; the creator has one unused invitation (issue 27).
  expect(
    await env.DB.prepare("SELECT status, approved_at IS NOT NULL AS approved FROM clipper_links WHERE creator_user_id = ? AND clipper_user_id = ?")
      .bind(creator?.id, clipper?.id)
      .first(),
  ).toEqual({ status: "active", approved: 1 });
  expect(
    await count(
      "SELECT count(*) AS n FROM clipper_invitations WHERE creator_user_id = ? AND status = 'open' AND expires_at > ?",
      creator?.id,
      new Date().toISOString(),
    ),
  ).toBe(1);
  expect(
    await count(
      "SELECT count(*) AS n FROM clipper_invitations WHERE creator_user_id = ? AND status = 'approved' AND accepted_by = ?",
      creator?.id,
      clipper?.id,
    ),
  ).toBe(1);
  const { cookie } = await signInAs(clipper?.id ?? "");
  const html = await (await fetchApp("/clipping", withCookie(cookie))).text();
  expect(html).toContain("Studio session - full take.mp4");
  expect(html).toContain("Removal requested");
  // The seeded download works for the clipper.
  const source = await env.DB.prepare("SELECT id FROM clip_sources WHERE creator_user_id = ? LIMIT 1").bind(creator?.id).first<{ id: string }>();
  const signed = await fetchApp(`/clipping/sources/${source?.id}/download`, withCookie(cookie));
  expect((await fetchApp(signed.headers.get("Location") ?? "")).status).toBe(200);
}, 180_000);

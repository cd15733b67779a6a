import type { Browser, Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// The money journey (issues 14 and 29), offline against the built-in Stripe stand-in through the
// same code as production: the creator connects a payout account (Stripe's onboarding page, back to
// /payments: enabled) → the admin imports a month from a file shaped like YouTube's content-owner
// revenue report (daily rows) → funds received → finalized → the payout day (by the test's clock,
// /dev/payout-day) sends a Stripe transfer → Stripe's signed webhook marks the payout paid → the
// creator sees it, per video, and is told. Then the transfer is reversed at "Stripe": the webhook
// fails the payout, the amount goes back to the balance, and the creator is told. Last, the
// agreement: the admin offers a revised share, the creator accepts it expressly.

const MONTH = "2024-03";
const RUN_DAY = "2024-04-18"; // a Thursday: the April 2024 payout date
const CHANNEL = "UCdemoCaseyCreates0001"; // the demo creator's channel (app/dev/seed.server.ts)

async function signedIn(browser: Browser, baseURL: string, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, email, { landing: null });
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/** A month of YouTube content-owner revenue rows (daily, per video, country and claim), six decimals. */
function youtubeReport(): { csv: string; totalMicros: number } {
  const lines = ["date,channel_id,video_id,claimed_status,uploader_type,country_code,estimated_partner_revenue,estimated_partner_ad_revenue,ad_impressions"];
  let total = 0;
  for (let day = 1; day <= 31; day++) {
    for (const [video, country] of [
      ["caseyShort1", "US"],
      ["caseyShort1", "GB"],
      ["caseyShort2", "US"],
    ] as const) {
      const micros = 250_000 + ((day * 7919 + video.length * 104_729 + country.charCodeAt(0)) % 3_000_000);
      total += micros;
      const amount = `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, "0")}`;
      lines.push(`${MONTH.replace("-", "")}${String(day).padStart(2, "0")},${CHANNEL},${video},claimed,thirdParty,${country},${amount},${amount},100`);
    }
  }
  return { csv: `${lines.join("\n")}\n`, totalMicros: total };
}

const dollars = (cents: number) => `$${Math.floor(cents / 100).toLocaleString("en-US")}.${String(cents % 100).padStart(2, "0")}`;

test("payout account → YouTube report import → payout day → Stripe webhook → paid; a reversed transfer returns to the balance", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = await signedIn(browser, baseURL!, "admin@shortbeat.test");
  const creator = await signedIn(browser, baseURL!, "creator@shortbeat.test");

  // 1. The creator sets up payouts: Stripe's onboarding (the stand-in's page), and back.
  await creator.goto("/payments");
  await creator.waitForLoadState("networkidle");
  const method = creator.getByRole("region", { name: "Payout method" });
  await expect(method.getByRole("button", { name: "Set up payouts" })).toBeVisible();
  await expectAccessible(creator, "/payments (payout method)");
  await method.getByLabel("Country of your bank account").selectOption("US");
  await method.getByRole("button", { name: "Set up payouts" }).click();
  await expect(creator.getByRole("heading", { name: "Get paid by Shortbeat" })).toBeVisible();
  await expectAccessible(creator, "Stripe stand-in onboarding");
  await creator.getByRole("button", { name: "Complete set-up" }).click();
  await expect(creator).toHaveURL(/\/payments(#payout-method-heading)?$/);
  await expect(creator.getByText("Payouts are set up", { exact: true })).toBeVisible();
  await expect(method.getByText("Enabled", { exact: true })).toBeVisible();

  // 2. The admin imports a month from YouTube's report: daily rows, summed to the month.
  const report = youtubeReport();
  const totalCents = Math.floor((report.totalMicros + 5_000) / 10_000); // half up, once
  await admin.goto("/admin/payments");
  await admin.waitForLoadState("networkidle");
  await admin.getByRole("region", { name: "Import revenue" }).getByLabel("Month", { exact: true }).fill(MONTH);
  await admin
    .getByLabel("Revenue file (CSV)")
    .setInputFiles({ name: "content_owner_estimated_revenue_a1.csv", mimeType: "text/csv", buffer: Buffer.from(report.csv) });
  await admin.getByRole("button", { name: "Preview" }).click();
  const preview = admin.getByRole("region", { name: /Preview: March 2024/ });
  await expect(preview).toBeVisible();
  await expect(preview).toContainText("YouTube content-owner revenue report");
  await expect(preview).toContainText(dollars(totalCents));
  await expectAccessible(admin, "/admin/payments (preview)");
  await admin.getByRole("button", { name: "Commit import" }).click();
  await expect(admin.getByText("Revenue imported")).toBeVisible();
  // Each money step asks once, saying what, to whom and how much (decision 0322); Cancel changes nothing.
  await admin.getByRole("link", { name: "Mark funds received for March 2024" }).click();
  const funds = admin.getByRole("dialog", { name: "Mark funds received for March 2024?" });
  await expect(funds).toContainText(`the platform has paid us ${dollars(totalCents)} of net revenue for March 2024`);
  await expectAccessible(admin, "/admin/payments (confirm funds received)");
  await funds.getByRole("link", { name: "Cancel" }).click();
  await expect(funds).toBeHidden();
  await admin.getByRole("link", { name: "Mark funds received for March 2024" }).click();
  await funds.getByRole("button", { name: "Mark funds received" }).click();
  await expect(admin.getByText("March 2024 can now be finalized.")).toBeVisible();
  await admin.getByRole("link", { name: "Finalize for March 2024" }).click();
  const finalize = admin.getByRole("dialog", { name: "Finalize March 2024?" });
  await expect(finalize).toContainText(/\$[\d,.]+ becomes payable to the people of \d+ statement lines?: their lines turn Finalized/);
  await expect(finalize).toContainText("balances under $10.00 carry over");
  await finalize.getByRole("button", { name: "Finalize" }).click();
  await expect(admin.getByText("Month finalized")).toBeVisible();

  // 3. The payout day: the creator's payable balance goes to Stripe as a transfer.
  const run = await request.post("/dev/payout-day", { form: { date: RUN_DAY }, headers: { Origin: baseURL! } });
  expect(run.status(), await run.text()).toBe(200);
  const ran = await run.json();
  expect(ran.batch).toBe("2024-04");
  expect(ran.transfers.sent).toBeGreaterThanOrEqual(1);

  // 4. Stripe's webhook marks it paid: the creator's history says so, the statement shows each video.
  await creator.goto(`/payments?month=${MONTH}`);
  const april = creator.getByRole("row", { name: /April 2024/ });
  await expect(async () => {
    await creator.reload();
    await expect(april).toContainText("Paid", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(april).toContainText("Stripe");
  await expect(april).toContainText("Thu, 18 Apr 2024");
  await expect(creator.getByRole("heading", { name: "Statement: March 2024" })).toBeVisible();
  await expect(creator.getByRole("row", { name: /Music on your channel Casey Creates/ })).toContainText(dollars(totalCents));
  await expect(creator.getByRole("row", { name: /Video caseyShort1/ })).toBeVisible();
  await expect(creator.getByRole("row", { name: /Video caseyShort2/ })).toBeVisible();
  await expect(creator.getByText(/rounded once to the cent/)).toBeVisible();
  await expectAccessible(creator, "/payments (paid)");
  await creator.getByRole("button", { name: /Notifications/ }).click();
  await expect(creator.getByText("Payout sent").first()).toBeVisible();
  await creator.keyboard.press("Escape");
  const mail = await request.get(`/dev/mailbox?to=${encodeURIComponent("creator@shortbeat.test")}`);
  expect(await mail.text()).toContain("is on its way");

  // 5. The transfer is reversed at Stripe: the webhook fails the payout and the amount is back in the balance.
  const stripe = await signedIn(browser, baseURL!, "admin@shortbeat.test");
  await stripe.goto("/dev/stripe");
  await expectAccessible(stripe, "Stripe stand-in dashboard");
  await stripe
    .getByRole("button", { name: /^Reverse tr_/ })
    .first()
    .click();
  await expect(stripe.getByText(/reversed: transfer.reversed is on its way/)).toBeVisible();
  await expect(async () => {
    await creator.reload();
    await expect(april).toContainText("Failed", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(april).toContainText("The transfer was reversed in Stripe. Back in your balance.");
  // Back in the balance: finalized, in no payout, expected on the next payout day.
  const summary = creator.getByRole("region", { name: "Summary" });
  await expect(summary).toContainText(/Expected \$[1-9]/);
  await creator.getByRole("button", { name: /Notifications/ }).click();
  await expect(creator.getByText("Payout failed").first()).toBeVisible();
  const mail2 = await request.get(`/dev/mailbox?to=${encodeURIComponent("creator@shortbeat.test")}`);
  expect(await mail2.text()).toContain("did not go through");

  // Screens at 375 px and 1440 px for a look (PAYMENTS_SHOTS=dir; off in the suite): whole pages, and
  // at 375 px each money table on its own.
  const shots = process.env.PAYMENTS_SHOTS;
  if (shots) {
    await creator.keyboard.press("Escape");
    for (const [page, name, path] of [
      [creator, "payments-statement", `/payments?month=${MONTH}`],
      [admin, "admin-payments", "/admin/payments"],
      [creator, "campaigns", "/campaigns"],
    ] as const) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      for (const width of [375, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
      }
      await page.setViewportSize({ width: 375, height: 900 });
      for (const region of await page.locator("section[aria-labelledby]").all()) {
        const id = await region.getAttribute("aria-labelledby");
        if (id && (await region.isVisible())) await region.screenshot({ path: `${shots}/${name}-375-${id}.png` });
      }
    }
  }
});

test("a revised share is offered by the admin and accepted expressly by the creator", async ({ browser, baseURL }) => {
  const admin = await signedIn(browser, baseURL!, "admin@shortbeat.test");
  const creator = await signedIn(browser, baseURL!, "creator@shortbeat.test");

  await admin.goto("/admin/payments");
  const offer = admin.locator("form", { has: admin.getByRole("heading", { name: "Offer a revised share" }) });
  await offer.getByLabel("E-mail or creator ID").fill("CASEY123");
  await offer.getByLabel("Share (%)").fill("75");
  await offer.getByRole("button", { name: "Make offer" }).click();
  await expect(admin.getByText("Revised share offered", { exact: true })).toBeVisible();

  await creator.goto("/payments");
  await creator.waitForLoadState("networkidle");
  await expect(creator.getByRole("heading", { name: "Revised share offered: 75%" })).toBeVisible();
  await expectAccessible(creator, "/payments (offer)");
  // Express acceptance: the box must be ticked.
  await creator.getByLabel("I accept the revised share of 75% and a new 12-month term.").check();
  await creator.getByRole("button", { name: "Accept revised share" }).click();
  await expect(creator.getByText("Revised share accepted", { exact: true })).toBeVisible();
  await expect(creator.getByText(/: 75% \(accepted revised share\)/)).toBeVisible();
  await expect(creator.getByRole("heading", { name: /Revised share offered/ })).toHaveCount(0);
});

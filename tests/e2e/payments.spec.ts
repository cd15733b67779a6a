import type { Browser, Page } from "@playwright/test";
import { expect, expectAccessible, test, signIn } from "./fixtures";

// The money journey (issue 14): an admin imports a month's revenue → marks the funds received →
// finalizes it → the payout-day job runs on the 18th by the test's clock (/dev/payout-day, a
// development tool) → the creator sees the statement and the payout with its date → the admin marks
// it paid → the creator is notified (bell and e-mail). Then the agreement: the admin offers a
// revised share, the creator accepts it expressly.

const MONTH = "2031-03";
const RUN_DAY = "2031-04-28"; // after the April payout date (Fri 18 Apr 2031)
const CHANNEL = "UCdemoCaseyCreates0001"; // the demo creator's channel (app/dev/seed.server.ts)

async function signedIn(browser: Browser, baseURL: string, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, email, { landing: null });
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

test("import → funds received → finalize → payout day → statement and payout → mark paid → creator notified", async ({ browser, baseURL, request }) => {
  test.setTimeout(120_000);
  const admin = await signedIn(browser, baseURL!, "admin@shortbeat.test");
  const creator = await signedIn(browser, baseURL!, "creator@shortbeat.test");

  // 1. The admin imports the month: preview, then commit.
  await admin.goto("/admin/payments");
  await admin.waitForLoadState("networkidle");
  await expectAccessible(admin, "/admin/payments");
  await admin.getByLabel("Month", { exact: true }).fill(MONTH);
  await admin.getByLabel("Revenue file (CSV)").setInputFiles({
    name: "revenue-2031-03.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`month,channel_id,creator_id,video_id,net_revenue,currency\n${MONTH},${CHANNEL},,,123.45,USD\n${MONTH},${CHANNEL},,vid-1,10.00,USD\n`),
  });
  await admin.getByRole("button", { name: "Preview" }).click();
  await expect(admin.getByRole("heading", { name: "Preview: March 2031 (revenue-2031-03.csv)" })).toBeVisible();
  await expectAccessible(admin, "/admin/payments (preview)");
  await admin.getByRole("button", { name: "Commit import" }).click();
  await expect(admin.getByText("Revenue imported")).toBeVisible();

  // 2. Funds received, then finalize.
  await admin.getByRole("button", { name: "Mark funds received for March 2031" }).click();
  await expect(admin.getByText("March 2031 can now be finalized.")).toBeVisible();
  await admin.getByRole("button", { name: "Finalize for March 2031" }).click();
  await expect(admin.getByText("Month finalized")).toBeVisible();

  // 3. The payout-day job, run by the test's clock.
  const run = await request.post("/dev/payout-day", { form: { date: RUN_DAY }, headers: { Origin: baseURL! } });
  expect(run.status(), await run.text()).toBe(200);
  expect((await run.json()).batch).toBe("2031-04");

  // 4. The creator sees the statement of March 2031 and the pending payout with its date.
  await creator.goto(`/payments?month=${MONTH}`);
  await creator.waitForLoadState("networkidle");
  await expectAccessible(creator, "/payments");
  await expect(creator.getByRole("heading", { name: "Statement: March 2031" })).toBeVisible();
  const line = creator.getByRole("row", { name: /Music share: Casey Creates/ });
  await expect(line).toContainText("$133.45");
  await expect(line).toContainText("$93.41"); // 70%, rounded toward zero
  const april = creator.getByRole("row", { name: /April 2031/ });
  await expect(april).toContainText("Fri, 18 Apr 2031");
  await expect(april).toContainText("Pending");
  const amount = ((await april.getByRole("cell").nth(2).textContent()) ?? "").trim();
  expect(amount).toMatch(/^\$\d/);

  // 5. The admin marks the creator's payout paid with the bank's reference.
  await admin.goto("/admin/payments");
  // Runs are listed newest first: the first pending payout of Casey's is the April 2031 run's.
  const casey = admin
    .getByRole("listitem")
    .filter({ has: admin.getByLabel("Reference for Casey Creator") })
    .first();
  await casey.getByLabel("Reference for Casey Creator").fill("BANK-2031-04-CASEY");
  await casey.getByRole("button", { name: "Mark paid" }).click();
  await expect(admin.getByText("Payout marked paid")).toBeVisible();

  // 6. The creator is notified: the bell (live), the e-mail, and the history shows the reference.
  await expect(creator.getByRole("button", { name: /Notifications, \d+ unread/ })).toBeVisible();
  await creator.reload();
  await expect(april).toContainText("BANK-2031-04-CASEY");
  await expect(april).toContainText("Paid");
  await creator.getByRole("button", { name: /Notifications/ }).click();
  await expect(creator.getByText("Payout sent").first()).toBeVisible();
  await expect(creator.getByText(/Reference: BANK-2031-04-CASEY/).first()).toBeVisible();
  const mail = await request.get(`/dev/mailbox?to=${encodeURIComponent("creator@shortbeat.test")}`);
  expect(await mail.text()).toContain("BANK-2031-04-CASEY");
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
  // Screens at 375 px and 1440 px for a look (PAYMENTS_SHOTS=dir; off in the suite).
  const shots = process.env.PAYMENTS_SHOTS;
  if (shots) {
    for (const [page, name] of [
      [creator, "payments"],
      [admin, "admin-payments"],
    ] as const) {
      if (page === admin) await admin.goto("/admin/payments#agreements-heading");
      for (const width of [375, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
      }
    }
    await creator.emulateMedia({ media: "print" });
    await creator.screenshot({ path: `${shots}/payments-print.png`, fullPage: true });
    await creator.emulateMedia({ media: "screen" });
  }
  // Express acceptance: the box must be ticked.
  await creator.getByLabel("I accept the revised share of 75% and a new 12-month term.").check();
  await creator.getByRole("button", { name: "Accept revised share" }).click();
  await expect(creator.getByText("Revised share accepted", { exact: true })).toBeVisible();
  await expect(creator.getByText(/: 75% \(accepted revised share\)/)).toBeVisible();
  await expect(creator.getByRole("heading", { name: /Revised share offered/ })).toHaveCount(0);
});

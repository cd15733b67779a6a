import { expect, expectAccessible, signIn, test } from "./fixtures";

// A revenue report of any size (issue 45 §1, docs/decisions/0334, 0344): the admin uploads a
// YouTube-shaped report through /admin/payments' large-report section. The file (~6 MiB: one 8 MiB
// part, three 2 MiB ranges) goes to R2 through the uploader, the RevenueImportWorkflow reads it while
// the page polls its progress (the bar, rows read, matched, problems), then the preview's month total
// is the file's exact total rounded once, half up; the admin commits it and the statement line is
// live. A creator is turned away from the page and from the upload's endpoint.

const MONTH = "2024-06";
const CHANNEL = "UCdemoCaseyCreates0001"; // the demo creator's channel (app/dev/seed.server.ts)
const COUNTRIES = ["US", "GB", "IN", "DE", "BR", "CA", "MX", "FR", "JP", "AU"];

/** Daily rows per video and country for the demo creator's channel, six decimals, and their exact total. */
function youtubeReport(videos: number): { csv: string; rows: number; totalMicros: bigint } {
  const lines = [
    "date,channel_id,video_id,claimed_status,uploader_type,country_code,estimated_partner_revenue,estimated_partner_ad_revenue,estimated_youtube_ad_revenue,ad_impressions,estimated_cpm",
  ];
  let total = 0n;
  for (let day = 1; day <= 30; day++) {
    for (let v = 0; v < videos; v++) {
      for (const [c, country] of COUNTRIES.entries()) {
        const micros = (day * 7919 + v * 104_729 + c * 1_299_709) % 2_500_000;
        total += BigInt(micros);
        const amount = `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, "0")}`;
        lines.push(
          `202406${String(day).padStart(2, "0")},${CHANNEL},caseyReport${v},claimed,thirdParty,${country},${amount},${amount},0.000000,${100 + v},1.250000`,
        );
      }
    }
  }
  return { csv: `${lines.join("\n")}\n`, rows: lines.length - 1, totalMicros: total };
}

const dollars = (cents: bigint) => `$${(cents / 100n).toLocaleString("en-US")}.${String(cents % 100n).padStart(2, "0")}`;

test("an admin uploads a YouTube report in the large-report section, sees it read live, previews and commits it", async ({ page }) => {
  const report = youtubeReport(190);
  const bytes = Buffer.byteLength(report.csv);
  expect(bytes).toBeGreaterThan(4 * 1024 * 1024); // three 2 MiB ranges: the page polls while they are read
  expect(bytes).toBeLessThan(8 * 1024 * 1024); // one part
  const totalCents = (report.totalMicros + 5_000n) / 10_000n; // half up, once
  const count = report.rows.toLocaleString("en-US");

  await signIn(page, "admin@shortbeat.test");
  await page.goto("/admin/payments");
  await page.waitForLoadState("networkidle");
  const section = page.getByRole("region", { name: "Import a large revenue report" });
  await section.getByLabel("Month of the report").fill(MONTH);
  await section
    .getByLabel("Revenue report (CSV)")
    .setInputFiles({ name: "content_owner_estimated_revenue_2024_06.csv", mimeType: "text/csv", buffer: Buffer.from(report.csv) });
  await section.getByRole("button", { name: "Upload and read" }).click();

  // Live: the Workflow's reading, its bar and its counts, polled from the page's loader.
  const bar = section.getByRole("progressbar", { name: "Reading progress" });
  await expect(bar).toBeVisible({ timeout: 15_000 });
  await expect(bar).toHaveAttribute("max", String(bytes));
  await expect(section.getByText(/^Reading: [\d,]+ rows read, [\d,]+ matched, 0 problems$/)).toBeVisible();
  await expect(section.getByRole("button", { name: "Upload and read" })).toBeDisabled();

  // Then the preview: every row read and matched, the exact month total rounded once.
  const preview = section.getByRole("region", { name: /Preview: June 2024/ });
  await expect(preview).toBeVisible({ timeout: 30_000 });
  await expect(bar).toHaveCount(0);
  await expect(section.getByText(`${count} rows read, ${count} matched, 0 problems`)).toBeVisible();
  await expect(preview).toContainText("YouTube content-owner revenue report");
  await expect(preview).toContainText(`1 statement line; net revenue ${dollars(totalCents)}`);
  await expectAccessible(page, "/admin/payments (large report preview)");

  await preview.getByRole("button", { name: "Commit import" }).click();
  await expect(page.getByText("Revenue imported")).toBeVisible();
  await expect(page.getByText("June 2024: 1 statement line is live as estimated.")).toBeVisible();
  await expect(page.getByRole("region", { name: /Preview: June 2024/ })).toHaveCount(0);
});

test("a creator can neither open the large-report section nor send a report to its endpoint", async ({ page, baseURL, expectConsoleErrors }) => {
  expectConsoleErrors(/status of 403 .*\/admin\/payments\/report\)$/);
  await signIn(page, "creator@shortbeat.test");
  await page.goto("/admin/payments");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Admin privileges required to access this area.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Import a large revenue report" })).toHaveCount(0);

  // The uploader's own request, from the creator's signed-in page: refused.
  const status = await page.evaluate(async (origin) => {
    const form = new FormData();
    form.set("intent", "start");
    form.set("month", "2024-06");
    form.set("name", "report.csv");
    form.set("size", "10");
    form.set("chunk", new File(["date,x\n1,2\n"], "report.csv", { type: "text/csv" }));
    const res = await fetch(`${origin}/admin/payments/report`, { method: "POST", body: form });
    return res.status;
  }, baseURL ?? "");
  expect(status).toBe(403);
});

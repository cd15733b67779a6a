import { expect, expectAccessible, test } from "./fixtures";

test("landing: tagline, 70% share, sign-up link, wordmark home", async ({ page, visit, consoleErrors }) => {
  await visit("/");
  await expect(page.getByRole("heading", { level: 1, name: "Empowering creators worldwide" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How it works" })).toBeVisible();
  await expect(page.getByText("You keep 70%")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign up as a creator" })).toHaveAttribute("href", "/auth?mode=signup");
  await page.getByRole("link", { name: "Terms of Service" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Shortbeat" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  expect(consoleErrors).toEqual([]);
});

// The agreements carry the spec's effective date; the privacy policy its own (it changed with issue 28).
for (const [path, effective] of [
  ["/terms-of-service", /31 August 2025/],
  ["/privacy-policy", /6 December 2026/],
  ["/music-partner-terms", /31 August 2025/],
] as const) {
  test(`legal page ${path} is readable and accessible`, async ({ page, visit }) => {
    await visit(path);
    await expect(page.getByText(effective).first()).toBeVisible();
  });
}

test("unknown paths show the not-found page with 404", async ({ page, expectConsoleErrors }) => {
  expectConsoleErrors(/status of 404 .*\/definitely\/not\/here\)$/);
  const response = await page.goto("/definitely/not/here");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Back to home" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Empowering creators worldwide" })).toBeVisible();
});

test("a route that throws shows the error screen with details and both buttons", async ({ page, expectConsoleErrors }) => {
  expectConsoleErrors(/status of 500 .*\/dev\/throw\)$/);
  const response = await page.goto("/dev/throw");
  expect(response?.status()).toBe(500);
  const requestId = response?.headers()["x-request-id"];
  expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
  await expect(page.getByText("An unexpected error occurred. Please try the actions below.")).toBeVisible();
  const details = page.getByRole("button", { name: "Error details" });
  await expect(details).toHaveAttribute("aria-expanded", "false");
  await details.click();
  await expect(details).toHaveAttribute("aria-expanded", "true");
  await expect(page.locator("#error-details")).toBeVisible();
  // The browser tests run a production build (devtools mode): the request id in place of the stack.
  await expect(page.locator("#error-details")).toContainText(`Request ID: ${requestId}`);
  await expect(page.locator("#error-details pre")).toHaveCount(0);
  await expect(page.locator("#error-details")).not.toContainText("Test render failure");
  await expect(page.getByRole("button", { name: "Try Again" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reload Page" })).toBeVisible();
  await expectAccessible(page);
});

test("the sitemap is XML of the public pages", async ({ request }) => {
  const res = await request.get("/sitemap.xml");
  expect(res.status()).toBe(200);
  const xml = await res.text();
  expect(xml).toContain("<urlset");
  expect(xml).toContain("/terms-of-service</loc>");
});

test("security headers and cross-origin POST refusal on the built app", async ({ request }) => {
  const res = await request.get("/");
  expect(res.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  const refused = await request.post("/", { headers: { Origin: "https://evil.example" }, form: { a: "1" } });
  expect(refused.status()).toBe(403);
});

test("the landing works at 375 px wide without horizontal scrolling", async ({ page, visit }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await visit("/");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

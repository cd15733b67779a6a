// The payout minimum (an admin setting, $10 by default) holds small balances back: /payments says so
// beside the balances, and /terms-of-service beside the Creator Agreement, whose text stays the
// spec's (issue 42 §1).
import { expect, it } from "vitest";
import { CreatorAgreement } from "~/lib/agreements";
import { createUser } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";
import { renderToStaticMarkup } from "react-dom/server";

const NOTE = "Balances under $10.00 carry over to the next payout day.";
const text = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");

it("/payments says the minimum near the balance, even with nothing earned yet", async () => {
  const creator = await createUser("creator");
  const html = await text(await fetchApp("/payments", withCookie(creator.cookie)));
  const at = html.indexOf('data-testid="payout-minimum"');
  expect(at).toBeGreaterThan(html.indexOf('aria-label="Summary"'));
  expect(html.slice(at, at + 300)).toContain(NOTE);
});

it("/terms-of-service says it next to the Creator Agreement, not inside its fixed text", async () => {
  const html = await text(await fetchApp("/terms-of-service"));
  expect(html).toContain(`Payout minimum (a current setting, not a term of the Agreement): ${NOTE}`);
  expect(renderToStaticMarkup(CreatorAgreement({ appName: "Shortbeat" }))).not.toContain("carry over");
});
